package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ItlSeriesTest {

  private static final long HOUR_US = 3_600_000_000L;

  /** Every way of reading the series gives {@code expected} (µs). */
  private static void assertMicros(long[] expected, ItlSeries s) {
    assertEquals(expected.length, s.size());
    long sum = 0;
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], s.micros(i), "micros(" + i + ")");
      assertEquals(expected[i] / 1000.0, s.get(i), 0.0, "get(" + i + ")");
      assertEquals(expected[i] / 1000.0, s.millis(i), 0.0, "millis(" + i + ")");
      sum += expected[i];
    }
    assertEquals(sum, s.sumMicros());
    assertArrayEquals(expected, s.toMicrosArray());
    List<Long> visited = new ArrayList<>();
    s.forEachMicros(visited::add);
    assertEquals(Arrays.stream(expected).boxed().toList(), visited);
    ItlSeries.Cursor c = s.cursor();
    for (long v : expected) {
      assertTrue(c.hasNext());
      assertEquals(v, c.nextMicros());
    }
    assertFalse(c.hasNext());
    int i = 0;
    for (Double ms : s) { // the List's own iterator
      assertEquals(expected[i++] / 1000.0, ms, 0.0);
    }
    assertEquals(expected.length, i);
  }

  @Test
  void millisRoundTripExactlyAtThreeDecimals() {
    List<Double> ms = List.of(10.003, 9.998, 10.0, 0.001, 0.0, 123456.789);
    ItlSeries s = ItlSeries.ofMillis(ms);
    assertMicros(new long[] {10_003, 9_998, 10_000, 1, 0, 123_456_789}, s);
    assertEquals(ms, s); // List equality, both ways
    assertEquals(s, ms);
    assertEquals(ms.hashCode(), s.hashCode());
  }

  @Test
  void millisAreRoundedToTheNearestMicrosecond() {
    ItlSeries s = ItlSeries.ofMillis(List.of(1.2344, 1.2346, 0.0004, -0.0006, 0.1 + 0.2));
    assertMicros(new long[] {1_234, 1_235, 0, -1, 300}, s);
    assertEquals(List.of(1.234, 1.235, 0.0, -0.001, 0.3), s);
  }

  @Test
  void valuesFarApartAndBeyondIntRange() {
    // 65.534 ms is the largest distance from the smallest gap kept in a char; the others, a
    // 3-hour gap (beyond 2^31 µs) and a negative one, go to the side table
    long[] us = {1, 65_535, 65_536, 65_537, 70_000, 3 * HOUR_US, 10_000, -5, 7 * HOUR_US + 1, 2};
    assertMicros(us, ItlSeries.ofMicros(us));
    assertTrue(3 * HOUR_US > Integer.MAX_VALUE);
    long[] limits = {ItlSeries.MAX_ABS_MICROS, -ItlSeries.MAX_ABS_MICROS, 0};
    assertMicros(limits, ItlSeries.ofMicros(limits));
  }

  @Test
  void gapsCloseToEachOtherButLargeStayCompact() {
    // all around 70 ms, or all around 3 hours: the frame of reference is the smallest gap
    long[] slow = {70_000, 80_123, 60_001, 125_000};
    assertMicros(slow, ItlSeries.ofMicros(slow));
    long[] hours = {3 * HOUR_US + 5, 3 * HOUR_US, 3 * HOUR_US + 65_534};
    assertMicros(hours, ItlSeries.ofMicros(hours));
  }

  @Test
  void randomSeriesReadBackExactly() {
    Random rnd = new Random(42);
    for (int round = 0; round < 300; round++) {
      int n = rnd.nextInt(300);
      long[] us = new long[n];
      for (int i = 0; i < n; i++) {
        double u = rnd.nextDouble();
        us[i] =
            u < 0.9
                ? 10_000 + (long) (rnd.nextGaussian() * 500) // ~10 ms
                : u < 0.97
                    ? (long) (rnd.nextDouble() * 500_000) // up to 0.5 s
                    : u < 0.99
                        ? (long) (rnd.nextDouble() * 10 * HOUR_US)
                        : -(long) (rnd.nextDouble() * 1_000);
      }
      ItlSeries s = ItlSeries.ofMicros(us);
      assertMicros(us, s);
      assertEquals(s, ItlSeries.ofMillis(new ArrayList<>(s)), "through a List<Double> of ms");
    }
  }

  @Test
  void emptySeries() {
    assertMicros(new long[0], ItlSeries.ofMicros(new long[0], 0));
    assertSame(ItlSeries.EMPTY, ItlSeries.ofMillis(null));
    assertSame(ItlSeries.EMPTY, ItlSeries.ofMillis(List.of()));
    assertEquals(List.of(), ItlSeries.EMPTY);
    assertSame(ItlSeries.EMPTY, ItlSeries.fromArrivalNanos(new long[] {5}, 1));
    assertSame(ItlSeries.EMPTY, ItlSeries.fromArrivalNanos(new long[0], 0));
  }

  @Test
  void onlyTheFirstCountValuesAreTakenAndCopied() {
    long[] buffer = {10, 20, 30, 40};
    ItlSeries s = ItlSeries.ofMicros(buffer, 2);
    buffer[0] = 99;
    assertMicros(new long[] {10, 20}, s);
    assertThrows(IllegalArgumentException.class, () -> ItlSeries.ofMicros(buffer, 5));
  }

  @Test
  void anItlSeriesIsNotCopied() {
    ItlSeries s = ItlSeries.ofMicros(1, 2, 3);
    assertSame(s, ItlSeries.ofMillis(s));
    RequestRecord r = TestRecords.ok("c1").itl(s).build();
    assertSame(s, r.itlMs());
    assertSame(s, r.toBuilder().profile("SS").build().itlMs());
  }

  @Test
  void nullsAndNonFiniteValuesAreRejected() {
    List<Double> withNull = Arrays.asList(1.0, null, 3.0);
    NullPointerException npe =
        assertThrows(NullPointerException.class, () -> ItlSeries.ofMillis(withNull));
    assertTrue(npe.getMessage().contains("itl_ms[1]"), npe.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> ItlSeries.ofMillis(List.of(1.0, Double.NaN)));
    assertThrows(
        IllegalArgumentException.class,
        () -> ItlSeries.ofMillis(List.of(Double.POSITIVE_INFINITY)));
    assertThrows(
        IllegalArgumentException.class, () -> ItlSeries.ofMicros(ItlSeries.MAX_ABS_MICROS + 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> ItlSeries.ofMillis(List.of(ItlSeries.MAX_ABS_MICROS / 1000.0 * 2)));
  }

  @Test
  void arrivalNanosGiveGapsThatAddUpToTheRoundedSpan() {
    long t0 = 987_654_321_000L;
    long[] arrivals = {t0, t0 + 10_003_400, t0 + 20_003_900, t0 + 20_004_400, t0 + 30_000_000};
    ItlSeries s = ItlSeries.fromArrivalNanos(arrivals, arrivals.length);
    // offsets rounded: 0, 10003 (10003.4), 20004 (20003.9), 20004 (20004.4), 30000
    assertMicros(new long[] {10_003, 10_001, 0, 9_996}, s);

    Random rnd = new Random(7);
    long[] many = new long[5_000];
    many[0] = rnd.nextLong() / 4;
    for (int i = 1; i < many.length; i++) {
      many[i] = many[i - 1] + 9_000_000 + rnd.nextInt(2_000_000); // 9..11 ms, odd ns
    }
    ItlSeries gaps = ItlSeries.fromArrivalNanos(many, many.length);
    long span = many[many.length - 1] - many[0];
    assertEquals(Math.round(span / 1000.0), gaps.sumMicros(), "no drift over 5000 gaps");
    for (int i = 1; i < many.length; i++) {
      double exactUs = (many[i] - many[i - 1]) / 1000.0;
      assertTrue(Math.abs(gaps.micros(i - 1) - exactUs) <= 1.0, "gap " + i);
    }
  }

  @Test
  void nanosRoundHalfUpLikeMathRound() {
    assertEquals(2, ItlSeries.nanosToMicros(1_500));
    assertEquals(1, ItlSeries.nanosToMicros(1_499));
    assertEquals(-1, ItlSeries.nanosToMicros(-1_500));
    assertEquals(-2, ItlSeries.nanosToMicros(-1_501));
    for (long ns : new long[] {0, 499, 500, 12_345_678, -7_499, -7_500}) {
      assertEquals(Math.round(ns / 1000.0), ItlSeries.nanosToMicros(ns), "ns " + ns);
    }
  }

  @Test
  void equalityWithOtherSeriesAndLists() {
    assertEquals(ItlSeries.ofMicros(1, 70_000, 2), ItlSeries.ofMillis(List.of(0.001, 70.0, 0.002)));
    assertNotEquals(ItlSeries.ofMicros(1, 2), ItlSeries.ofMicros(1, 3));
    assertNotEquals(ItlSeries.ofMicros(1, 2), ItlSeries.ofMicros(1, 2, 3));
    assertNotEquals(ItlSeries.ofMicros(1, 2), List.of(0.001, 0.0021));
  }
}
