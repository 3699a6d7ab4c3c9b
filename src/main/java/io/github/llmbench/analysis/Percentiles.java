package io.github.llmbench.analysis;

import io.github.llmbench.core.Statistic;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Percentiles computed exactly as numpy's default {@code np.percentile(x, p)} (method "linear"),
 * which is what {@code vllm bench serve} uses.
 *
 * <p>For sorted values {@code x[0..n-1]} and {@code p} in [0, 100]: {@code h = (n - 1) * p / 100},
 * {@code lo = floor(h)}, result {@code = x[lo] + (h - lo) * (x[lo + 1] - x[lo])} (just {@code x[n -
 * 1]} when {@code lo == n - 1}).
 *
 * <p>An empty input gives 0, like vLLM's {@code np.percentile(values or 0, p)}.
 */
public final class Percentiles {

  private Percentiles() {}

  /** The p-th percentile (0..100) of the values; 0 for an empty collection; nulls are ignored. */
  public static double percentile(Collection<? extends Number> values, double p) {
    return percentileOfSorted(sortedArray(values), p);
  }

  /** The median (50th percentile, numpy linear). */
  public static double median(Collection<? extends Number> values) {
    return percentile(values, 50.0);
  }

  /** Percentile of an already sorted (ascending) array; 0 when empty. */
  public static double percentileOfSorted(double[] sorted, double p) {
    checkRange(p);
    int n = sorted.length;
    if (n == 0) {
      return 0.0;
    }
    double h = (n - 1) * (p / 100.0);
    int lo = (int) Math.floor(h);
    if (lo >= n - 1) {
      return sorted[n - 1];
    }
    return interpolate(sorted[lo], sorted[lo + 1], h - lo);
  }

  /**
   * numpy's {@code _lerp} between two neighbours: {@code a + (b - a) * t}, and {@code b - (b - a) *
   * (1 - t)} when {@code t >= 0.5} (better rounding). Shared with {@link MicrosHistogram} so both
   * give the same bits.
   */
  static double interpolate(double a, double b, double frac) {
    double diff = b - a;
    return frac >= 0.5 ? b - diff * (1.0 - frac) : a + diff * frac;
  }

  /** The values as a sorted double array, nulls dropped. */
  public static double[] sortedArray(Collection<? extends Number> values) {
    double[] out =
        values.stream().filter(v -> v != null).mapToDouble(Number::doubleValue).toArray();
    Arrays.sort(out);
    return out;
  }

  /**
   * The label vLLM gives a percentile in field names and console rows: {@code "99"} for 99.0,
   * {@code "99.9"} for 99.9 (Python {@code str(int(p)) if int(p) == p else str(p)}).
   */
  public static String label(double p) {
    return Statistic.number(p);
  }

  /** Parses a vLLM-style {@code --metric-percentiles} value such as {@code "99,90"}. */
  public static List<Double> parseList(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      return List.of();
    }
    return Arrays.stream(commaSeparated.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .map(Double::valueOf)
        .map(Percentiles::checkRange)
        .toList();
  }

  /** Returns p when it lies in [0, 100], else throws IllegalArgumentException. */
  public static double checkRange(double p) {
    if (Double.isNaN(p) || p < 0.0 || p > 100.0) {
      throw new IllegalArgumentException("percentile must be in [0, 100]: " + p);
    }
    return p;
  }
}
