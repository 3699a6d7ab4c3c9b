package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The histogram's statistics against sorting the same values ({@link LatencyStats#of}). */
class MicrosHistogramTest {

  private static final List<Double> PERCENTILES = List.of(50.0, 99.9, 0.0, 100.0, 25.5, 75.0);

  /** Same count and percentiles to the bit; mean and std up to the rounding of the sums. */
  private static void assertSameStats(LatencyStats expected, LatencyStats actual, String what) {
    assertEquals(expected.count(), actual.count(), what);
    assertEquals(expected.percentiles(), actual.percentiles(), what);
    assertEquals(
        new ArrayList<>(expected.percentiles().keySet()),
        new ArrayList<>(actual.percentiles().keySet()),
        what);
    assertEquals(expected.median(), actual.median(), 0.0, what);
    assertEquals(
        expected.mean(), actual.mean(), 1e-12 * Math.max(1, Math.abs(expected.mean())), what);
    assertEquals(expected.std(), actual.std(), 1e-9 * Math.max(1, expected.std()), what);
  }

  private static void check(long[] micros, String what) {
    MicrosHistogram h = new MicrosHistogram();
    List<Double> ms = new ArrayList<>();
    for (long us : micros) {
      h.add(us);
      ms.add(us / 1000.0);
    }
    assertSameStats(LatencyStats.of(ms, PERCENTILES), h.stats(PERCENTILES), what);
    assertSameStats(LatencyStats.of(ms), h.stats(LatencyStats.DEFAULT_PERCENTILES), what);
  }

  private static long[] draw(Random rnd, int n, LongSupplier value) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = value.getAsLong();
    }
    return out;
  }

  @Test
  void equalToSortingOnRandomData() {
    Random rnd = new Random(2024);
    for (int round = 0; round < 40; round++) {
      int n = 1 + rnd.nextInt(round < 20 ? 50 : 20_000);
      check(draw(rnd, n, () -> 10_000 + Math.round(rnd.nextGaussian() * 700)), "10 ms, n=" + n);
      check(draw(rnd, n, () -> rnd.nextInt(20)), "many duplicates, n=" + n);
      check(
          draw(
              rnd,
              n,
              () -> {
                double u = rnd.nextDouble();
                return u < 0.8
                    ? 25_000 + rnd.nextInt(5_000) // dense part
                    : u < 0.9
                        ? MicrosHistogram.DENSE_LIMIT + rnd.nextInt(1000) // just beyond it
                        : u < 0.95
                            ? (long) (rnd.nextDouble() * 5 * 3_600_000_000L) // hours
                            : -rnd.nextInt(3_000); // a clock that went backwards
              }),
          "mixed, n=" + n);
    }
  }

  @Test
  void edgeSizes() {
    check(new long[] {7}, "one value");
    check(new long[] {MicrosHistogram.DENSE_LIMIT - 1, MicrosHistogram.DENSE_LIMIT}, "limit");
    check(new long[] {-3, -3, -1}, "negatives only");
    check(new long[] {5, 3}, "two");
    MicrosHistogram empty = new MicrosHistogram();
    assertSameStats(LatencyStats.of(List.of(), PERCENTILES), empty.stats(PERCENTILES), "empty");
  }

  @Test
  void seriesAreAddedWhole() {
    MicrosHistogram h = new MicrosHistogram();
    h.addAll(ItlSeries.ofMicros(10_000, 3_600_000_000L, 9_999));
    h.addAll(ItlSeries.EMPTY);
    assertEquals(3, h.count());
    assertEquals(3_600_019_999L, h.sumMicros());
  }

  @Test
  void servingMetricsPoolEveryItlOfALevel() {
    Random rnd = new Random(5);
    List<RequestRecord> records = new ArrayList<>();
    List<Double> pooled = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      List<Double> itl = new ArrayList<>();
      for (int k = rnd.nextInt(60); k > 0; k--) {
        itl.add((9_000 + rnd.nextInt(3_000) + (rnd.nextInt(50) == 0 ? 200_000 : 0)) / 1000.0);
      }
      boolean ok = i % 10 != 3;
      if (ok) {
        pooled.addAll(itl);
      }
      // a failed request keeps its figures here: the calculator must leave them out
      records.add(
          TestRecords.ok("c8")
              .start(1000L * i)
              .itl(itl)
              .outputTokens(itl.size() + 1)
              .ok(ok)
              .error(ok ? null : "HTTP 500")
              .status(ok ? 200 : 500)
              .build());
    }
    ServingMetrics m = ServingMetricsCalculator.compute(records, 8, PERCENTILES);
    assertSameStats(LatencyStats.of(pooled, PERCENTILES), m.itl(), "pooled ITLs of ok requests");
  }
}
