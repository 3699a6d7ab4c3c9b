package io.github.llmbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A ramp's tag, its load over time, and the time-rescaling its arrivals are drawn by. */
class RampTest {

  private static final Ramp LINEAR = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 1, 8);
  private static final Ramp EXPONENTIAL = new Ramp(Ramp.Shape.EXPONENTIAL, Ramp.Kind.RATE, 2, 32);
  private static final Ramp FROM_ZERO = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 0, 10);
  private static final Ramp FALLING = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 10, 2);
  private static final Ramp CONC = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.CONCURRENCY, 4, 64);

  @Test
  void aRampsTagNamesItAndParsesBackAsALevel() {
    assertEquals("r1-8", LINEAR.tag());
    assertEquals("r2-32exp", EXPONENTIAL.tag());
    assertEquals("c4-64", CONC.tag());
    assertEquals("r0.5-2.5", new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 0.5, 2.5).tag());
    for (Ramp r : List.of(LINEAR, EXPONENTIAL, FROM_ZERO, FALLING, CONC)) {
      assertEquals(Optional.of(new Level.Ramped(r)), Level.parse(r.tag()), r.tag());
      assertTrue(Level.parse(r.tag()).get().measured());
    }
    assertEquals(Optional.empty(), Level.parse("r3-3"), "a ramp to itself is no ramp");
    assertEquals(Optional.empty(), Level.parse("r0-8exp"), "an exponential ramp from 0");
    assertEquals(Optional.of(Level.open(8)), Level.parse("r8"), "a rate stays a rate");
    assertEquals("linear 1 to 8 req/s", LINEAR.describe());
    assertEquals(
        "exponential 4 to 64 in flight",
        new Ramp(Ramp.Shape.EXPONENTIAL, Ramp.Kind.CONCURRENCY, 4, 64).describe());
  }

  @Test
  void theLoadGoesFromStartToEndBySteppingOrByAFactor() {
    assertEquals(1, LINEAR.at(0), 1e-12);
    assertEquals(4.5, LINEAR.at(0.5), 1e-12);
    assertEquals(8, LINEAR.at(1), 1e-12);
    assertEquals(8, LINEAR.at(2), 1e-12, "held at the end beyond it");
    assertEquals(8, EXPONENTIAL.at(0.5), 1e-9, "the geometric middle of 2 and 32");
    assertEquals(32, EXPONENTIAL.at(1), 1e-9);
    assertEquals(8, LINEAR.peak());
    assertEquals(10, FALLING.peak());
  }

  @Test
  void expectedArrivalsAreTheRatesIntegralAndTimeOfIsItsInverse() {
    double d = 20;
    // linear: 1 x 20 + 7 x 20 / 2 = 90; exponential: 2 x 20 x (16 - 1) / ln 16
    assertEquals(90, LINEAR.cumulative(d, d), 1e-9);
    assertEquals(2 * d * 15 / Math.log(16), EXPONENTIAL.cumulative(d, d), 1e-9);
    assertEquals(100, FROM_ZERO.cumulative(d, d), 1e-9);
    assertEquals(120, FALLING.cumulative(d, d), 1e-9);
    for (Ramp r : List.of(LINEAR, EXPONENTIAL, FROM_ZERO, FALLING)) {
      for (double t : new double[] {0, 0.01, 1, 7.5, 19.99, 20}) {
        double n = r.cumulative(t, d);
        assertEquals(t, r.timeOf(n, d), 1e-9, r + " at " + t);
      }
    }
    assertEquals(
        Double.POSITIVE_INFINITY,
        FALLING.timeOf(1000, d),
        "a falling ramp never expects more than its peak integral");
  }

  @Test
  void aRampRefusesWhatItCannotBe() {
    assertThrows(
        IllegalArgumentException.class, () -> new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 4, 4));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Ramp(Ramp.Shape.EXPONENTIAL, Ramp.Kind.RATE, 0, 4));
    assertThrows(
        IllegalArgumentException.class, () -> new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, -1, 4));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.CONCURRENCY, 1.5, 4));
  }
}
