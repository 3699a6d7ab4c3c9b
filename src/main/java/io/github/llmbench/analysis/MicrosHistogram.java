package io.github.llmbench.analysis;

import io.github.llmbench.records.ItlSeries;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exact histogram of durations in whole microseconds, for statistics over values too many to
 * sort: a level's pooled ITLs are one per chunk, 128 million for a million requests of 128 chunks,
 * which as a sorted {@code double[]} would be a gigabyte. Every distinct µs value has its own
 * count, so the statistics are those of sorting the values (in ms, {@code µs / 1000.0}):
 * percentiles and median pick the same two neighbours as {@link Percentiles} and interpolate the
 * same way (equal to the last bit); mean and population std differ only by the floating rounding of
 * the sums (the µs sum itself is exact).
 *
 * <p>Counts are a dense {@code int[]} indexed by µs for values from 0 to {@value #DENSE_LIMIT} µs
 * (about 4.2 s), grown as larger values arrive so that a level of 10 ms gaps uses 64 KB; other
 * values (longer stalls, negative gaps) go to a map, sorted only when the statistics are taken. Not
 * thread-safe.
 */
public final class MicrosHistogram {

  /** Values from 0 up to this (exclusive) are counted in the dense array: 16 MB at most. */
  public static final int DENSE_LIMIT = 1 << 22;

  private int[] dense = new int[1 << 14];
  private final Map<Long, long[]> sparse = new HashMap<>();
  private long count;
  private long sumMicros;

  /** Adds one value in µs. */
  public void add(long micros) {
    if (micros >= 0 && micros < DENSE_LIMIT) {
      if (micros >= dense.length) {
        dense = Arrays.copyOf(dense, (int) Math.min(DENSE_LIMIT, Long.highestOneBit(micros) << 1));
      }
      dense[(int) micros]++;
    } else {
      sparse.computeIfAbsent(micros, k -> new long[1])[0]++;
    }
    count++;
    sumMicros = Math.addExact(sumMicros, micros); // fails loudly rather than wraps
  }

  /** Adds every gap of the series. */
  public void addAll(ItlSeries series) {
    ItlSeries.Cursor c = series.cursor();
    while (c.hasNext()) {
      add(c.nextMicros());
    }
  }

  /** How many values were added. */
  public long count() {
    return count;
  }

  /** The exact sum of the values in µs. */
  public long sumMicros() {
    return sumMicros;
  }

  /**
   * The statistics of the values in ms, as {@link LatencyStats#of(java.util.Collection, List)}
   * gives them for the same values: the requested percentiles in order, plus 90 and 99; zeros when
   * empty.
   */
  public LatencyStats stats(List<Double> requestedPercentiles) {
    for (Double p : requestedPercentiles) {
      Percentiles.checkRange(p);
    }
    if (count > Integer.MAX_VALUE) {
      throw new IllegalStateException("more than " + Integer.MAX_VALUE + " values: " + count);
    }
    int n = (int) count;
    // distinct values in ascending order with their counts: sparse negatives, dense, sparse rest
    long[] sparseKeys = new long[sparse.size()];
    int k = 0;
    for (Long key : sparse.keySet()) {
      sparseKeys[k++] = key;
    }
    Arrays.sort(sparseKeys);

    double mean = n == 0 ? 0.0 : sumMicros / 1000.0 / n;
    double sq = 0.0;
    for (long key : sparseKeys) {
      double d = key / 1000.0 - mean;
      sq += sparse.get(key)[0] * (d * d);
    }
    for (int us = 0; us < dense.length; us++) {
      if (dense[us] != 0) {
        double d = us / 1000.0 - mean;
        sq += dense[us] * (d * d);
      }
    }
    double std = n == 0 ? 0.0 : Math.sqrt(sq / n);

    Map<Double, Double> pct = new LinkedHashMap<>();
    for (Double p : requestedPercentiles) {
      pct.put(p, percentile(p, n, sparseKeys));
    }
    for (double p : new double[] {90.0, 99.0}) {
      if (!pct.containsKey(p)) {
        pct.put(p, percentile(p, n, sparseKeys));
      }
    }
    return new LatencyStats(n, mean, percentile(50.0, n, sparseKeys), std, pct);
  }

  /** numpy's linear percentile: the same neighbours and interpolation as {@link Percentiles}. */
  private double percentile(double p, int n, long[] sparseKeys) {
    if (n == 0) {
      return 0.0;
    }
    double h = (n - 1) * (p / 100.0);
    int lo = (int) Math.floor(h);
    if (lo >= n - 1) {
      return valueAt(n - 1, sparseKeys) / 1000.0;
    }
    return Percentiles.interpolate(
        valueAt(lo, sparseKeys) / 1000.0, valueAt(lo + 1, sparseKeys) / 1000.0, h - lo);
  }

  /**
   * The value (µs) at 0-based position {@code rank} of the sorted values. A walk over the counts: a
   * few per statistic, over at most {@value #DENSE_LIMIT} slots, which is cheap next to adding the
   * values.
   */
  private long valueAt(long rank, long[] sparseKeys) {
    long seen = 0;
    int s = 0;
    for (; s < sparseKeys.length && sparseKeys[s] < 0; s++) {
      seen += sparse.get(sparseKeys[s])[0];
      if (rank < seen) {
        return sparseKeys[s];
      }
    }
    for (int us = 0; us < dense.length; us++) {
      seen += dense[us];
      if (rank < seen) {
        return us;
      }
    }
    for (; s < sparseKeys.length; s++) {
      seen += sparse.get(sparseKeys[s])[0];
      if (rank < seen) {
        return sparseKeys[s];
      }
    }
    throw new IllegalStateException("rank " + rank + " beyond " + count + " values");
  }
}
