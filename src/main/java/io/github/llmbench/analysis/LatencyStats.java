package io.github.llmbench.analysis;

import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Summary statistics of a list of latencies in milliseconds, as {@code vllm bench serve} reports
 * them: mean, median, population standard deviation ({@code np.std}, ddof = 0) and percentiles
 * (numpy linear interpolation, see {@link Percentiles}).
 *
 * <p><b>Empty input gives zeros</b>, not NaN, exactly like vLLM's {@code np.mean(values or 0)}: a
 * level where no request completed prints 0.00 rather than nan. {@link #count()} tells the two
 * cases apart.
 *
 * <p>{@code percentiles} maps a percentile (e.g. 99.0) to its value, in the order requested; the
 * 90th and 99th are always present (the summary always writes {@code p90_*} and {@code p99_*}).
 *
 * @param count how many values the statistics are over
 * @param mean arithmetic mean, 0 when empty
 * @param median 50th percentile, 0 when empty
 * @param std population standard deviation, 0 when empty
 * @param percentiles percentile -> value, insertion-ordered, unmodifiable
 */
public record LatencyStats(
    int count, double mean, double median, double std, Map<Double, Double> percentiles) {

  /** The percentiles vLLM's seed run printed, in its order: P99 then P90. */
  public static final List<Double> DEFAULT_PERCENTILES = List.of(99.0, 90.0);

  /** All zeros, over no values. */
  public static final LatencyStats EMPTY = of(List.of(), DEFAULT_PERCENTILES);

  public LatencyStats {
    percentiles = Collections.unmodifiableMap(new LinkedHashMap<>(percentiles));
  }

  /** Statistics with the default percentiles (99, 90). */
  public static LatencyStats of(Collection<? extends Number> valuesMs) {
    return of(valuesMs, DEFAULT_PERCENTILES);
  }

  /**
   * Statistics of the values (nulls ignored) with the requested percentiles, plus 90 and 99 when
   * not requested.
   */
  public static LatencyStats of(
      Collection<? extends Number> valuesMs, List<Double> requestedPercentiles) {
    return ofSorted(Percentiles.sortedArray(valuesMs), requestedPercentiles);
  }

  /**
   * Statistics of the first {@code count} values of the array (not changed), without boxing: as
   * {@link #of(Collection, List)}.
   */
  public static LatencyStats of(double[] valuesMs, int count, List<Double> requestedPercentiles) {
    double[] sorted = Arrays.copyOf(valuesMs, count);
    Arrays.sort(sorted);
    return ofSorted(sorted, requestedPercentiles);
  }

  private static LatencyStats ofSorted(double[] sorted, List<Double> requestedPercentiles) {
    int n = sorted.length;
    double mean = 0.0;
    double std = 0.0;
    if (n > 0) {
      double sum = 0.0;
      for (double v : sorted) {
        sum += v;
      }
      mean = sum / n;
      double sq = 0.0;
      for (double v : sorted) {
        double d = v - mean;
        sq += d * d;
      }
      std = Math.sqrt(sq / n);
    }
    Map<Double, Double> pct = new LinkedHashMap<>();
    for (Double p : requestedPercentiles) {
      pct.put(p, Percentiles.percentileOfSorted(sorted, p));
    }
    for (double p : new double[] {90.0, 99.0}) {
      pct.putIfAbsent(p, Percentiles.percentileOfSorted(sorted, p));
    }
    return new LatencyStats(n, mean, Percentiles.percentileOfSorted(sorted, 50.0), std, pct);
  }

  /** The p-th percentile; p must be one that was computed (the requested ones, 90 and 99). */
  public double percentile(double p) {
    Double v = percentiles.get(p);
    if (v == null) {
      throw new IllegalArgumentException(
          "percentile " + p + " was not computed; available: " + percentiles.keySet());
    }
    return v;
  }

  /** The statistic's value: the mean, or its percentile (the median the 50th). */
  public double value(Statistic s) {
    if (s.equals(Statistic.MEAN)) {
      return mean;
    }
    return s.equals(Statistic.MEDIAN) ? median : percentile(s.percentile());
  }

  /**
   * The statistics it holds: {@link Statistic#STANDARD}'s in their order (the figures' order before
   * any other percentile), then each other computed percentile in order (those that can be a {@link
   * Statistic}'s: above 0 and below 100).
   */
  public List<Statistic> statistics() {
    List<Statistic> out = new ArrayList<>(Statistic.STANDARD);
    for (double p : percentiles.keySet()) {
      if (Statistic.isPercentile(p) && !out.contains(Statistic.percentile(p))) {
        out.add(Statistic.percentile(p));
      }
    }
    return List.copyOf(out);
  }

  public double p90() {
    return percentile(90.0);
  }

  public double p99() {
    return percentile(99.0);
  }
}
