package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  private static final double EPS = 1e-9;

  @Test
  void numpyLinearOnOneToFour() {
    List<Double> x = List.of(4.0, 1.0, 3.0, 2.0); // unsorted on purpose
    // h = 3 * p / 100: p90 -> 2.7 -> 3 + 0.7 = 3.7; p99 -> 2.97 -> 3.97; p50 -> 1.5 -> 2.5
    assertEquals(3.7, Percentiles.percentile(x, 90), EPS);
    assertEquals(3.97, Percentiles.percentile(x, 99), EPS);
    assertEquals(2.5, Percentiles.median(x), EPS);
    assertEquals(3.997, Percentiles.percentile(x, 99.9), EPS);
    assertEquals(1.0, Percentiles.percentile(x, 0), EPS);
    assertEquals(4.0, Percentiles.percentile(x, 100), EPS);
    assertEquals(1.75, Percentiles.percentile(x, 25), EPS); // h = 0.75
  }

  @Test
  void oddCountAndRepeatedValues() {
    List<Integer> x = List.of(10, 20, 30, 40, 50);
    assertEquals(30.0, Percentiles.median(x), EPS);
    assertEquals(46.0, Percentiles.percentile(x, 90), EPS); // h = 3.6 -> 40 + 0.6 * 10
    assertEquals(49.6, Percentiles.percentile(x, 99), EPS); // h = 3.96
    assertEquals(7.0, Percentiles.percentile(List.of(7, 7, 7), 99), EPS);
  }

  @Test
  void singleAndEmpty() {
    assertEquals(5.0, Percentiles.percentile(List.of(5.0), 99), EPS);
    assertEquals(0.0, Percentiles.percentile(List.of(), 99), 0.0); // vLLM: np.percentile(x or 0)
    assertEquals(0.0, Percentiles.median(List.of()), 0.0);
    assertEquals(2.0, Percentiles.median(Arrays.asList(1.0, null, 3.0)), EPS); // nulls ignored
  }

  @Test
  void outOfRangeRejected() {
    assertThrows(IllegalArgumentException.class, () -> Percentiles.percentile(List.of(1), 101));
    assertThrows(IllegalArgumentException.class, () -> Percentiles.percentile(List.of(1), -1));
    assertThrows(IllegalArgumentException.class, () -> Percentiles.parseList("99,150"));
  }

  @Test
  void labelsAndParsing() {
    assertEquals("99", Percentiles.label(99.0));
    assertEquals("90", Percentiles.label(90));
    assertEquals("99.9", Percentiles.label(99.9));
    assertEquals("0.5", Percentiles.label(0.5));
    assertEquals(List.of(99.0, 90.0, 99.9), Percentiles.parseList(" 99, 90,99.9 "));
    assertEquals(List.of(), Percentiles.parseList(""));
  }
}
