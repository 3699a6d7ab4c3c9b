package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NumbersTest {

  @Test
  void orDashWritesTheDecimalsOrADashForAMissingFigure() {
    assertEquals("12.35", Numbers.orDash(12.345678, 2));
    assertEquals("12.3", Numbers.orDash(12.345678, 1));
    assertEquals("-", Numbers.orDash(Double.NaN, 2));
    assertEquals("-", Numbers.orDash(Double.POSITIVE_INFINITY, 1));
  }

  @Test
  void countGroupsThousandsAndDashesNaN() {
    assertEquals("1,234,568", Numbers.count(1234567.6));
    assertEquals("-", Numbers.count(Double.NaN));
  }

  @Test
  void fixedRoundsAsPythonButWritesNoSignOnAZeroFromBelow() {
    assertEquals("2.67", Numbers.fixed(2.675, 2)); // 2.67499999... in binary
    assertEquals("0.125", Numbers.fixed(0.125, 3));
    assertEquals("0.00", Numbers.fixed(-0.001, 2));
    assertEquals("-0.00", Numbers.f2(-0.001));
    assertEquals("inf", Numbers.fixed(Double.POSITIVE_INFINITY, 1));
    assertEquals("-inf", Numbers.f2(Double.NEGATIVE_INFINITY));
    assertEquals("nan", Numbers.f2(Double.NaN));
  }

  @Test
  void serverValueOrDashDashesAFigureTheServerDidNotReport() {
    assertEquals("40", Numbers.serverValueOrDash(40.0));
    assertEquals("3.104", Numbers.serverValueOrDash(3.1042));
    assertEquals("-", Numbers.serverValueOrDash(null));
    assertEquals("-", Numbers.serverValueOrDash(Double.NaN));
  }
}
