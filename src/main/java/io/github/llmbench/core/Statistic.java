package io.github.llmbench.core;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statistic of a latency over a level's requests that gates and objectives may name: the mean,
 * the median or any percentile strictly between 0 and 100 ({@code p95}, {@code p99.9}), as {@code
 * vllm bench serve --metric-percentiles} reports them. A value type: two statistics of the same
 * kind and percentile are equal, so {@code Statistic.percentile(99)} is {@link #P99}.
 */
public final class Statistic {

  public static final Statistic MEAN = new Statistic("mean", "Mean", Double.NaN);
  public static final Statistic MEDIAN = new Statistic("median", "Median", 50);
  public static final Statistic P90 = percentile(90);
  public static final Statistic P99 = percentile(99);

  /** The statistics every level has, whatever {@code -Dpercentiles} says, in this order. */
  public static final List<Statistic> STANDARD = List.of(MEAN, MEDIAN, P90, P99);

  /**
   * The standard deviation, which vLLM reports ({@code std_ttft_ms}) and no gate or objective
   * names: not one of the statistics.
   */
  public static final String STD = "std";

  /**
   * A percentile's key: {@code p} and the number as vLLM writes it, no sign, exponent or spaces.
   */
  private static final Pattern PERCENTILE_KEY = Pattern.compile("p([0-9]{1,2}(?:\\.[0-9]+)?)");

  private final String key;
  private final String label;
  private final double percentile;

  private Statistic(String key, String label, double percentile) {
    this.key = key;
    this.label = label;
    this.percentile = percentile;
  }

  /**
   * The {@code p}-th percentile, {@code p} strictly between 0 and 100 (0 and 100 are the min and
   * max, which vLLM has no rows for).
   *
   * @throws IllegalArgumentException for any other {@code p}
   */
  public static Statistic percentile(double p) {
    if (!isPercentile(p)) {
      throw new IllegalArgumentException(
          "a percentile is a number above 0 and below 100, not " + p);
    }
    String n = number(p);
    return new Statistic("p" + n, "P" + n, p);
  }

  /** Whether {@code p} can be a percentile's: above 0, below 100. */
  public static boolean isPercentile(double p) {
    return p > 0 && p < 100;
  }

  /**
   * A percentile as vLLM prints it in labels and field names: {@code 99} for 99.0, {@code 99.9}
   * (Python's {@code str(int(p)) if int(p) == p else str(p)}).
   */
  public static String number(double p) {
    if (p == Math.rint(p) && !Double.isInfinite(p)) {
      return Long.toString((long) p);
    }
    // plain digits (0.0001, not 1.0E-4), as the keys' pattern reads them back
    return BigDecimal.valueOf(p).stripTrailingZeros().toPlainString();
  }

  /**
   * The name in settings, gates and {@code summary.json} ({@code p99}, as in {@code p99_ttft_ms};
   * {@code p99.9}).
   */
  public String key() {
    return key;
  }

  /** As vLLM prints it: {@code P99}, {@code P99.9}. */
  public String label() {
    return label;
  }

  /** The percentile it is (50 for the median), NaN for the mean. */
  public double percentile() {
    return percentile;
  }

  /** Whether it is a percentile named by its number ({@code p95}): not the mean or the median. */
  public boolean isPercentile() {
    return key.startsWith("p");
  }

  /**
   * The statistic named {@code key}: {@code mean}, {@code median} or {@code pN} with N above 0 and
   * below 100 ({@code p95}, {@code p99.9}); empty for any other.
   */
  public static Optional<Statistic> of(String key) {
    if (key.equals(MEAN.key)) {
      return Optional.of(MEAN);
    }
    if (key.equals(MEDIAN.key)) {
      return Optional.of(MEDIAN);
    }
    Matcher m = PERCENTILE_KEY.matcher(key);
    if (!m.matches()) {
      return Optional.empty();
    }
    double p = Double.parseDouble(m.group(1));
    // one spelling per percentile (p99.9, not p99.90 or p099), so a key names one summary field
    return isPercentile(p) && ("p" + number(p)).equals(key)
        ? Optional.of(percentile(p))
        : Optional.empty();
  }

  /** The accepted names, for error messages. */
  public static String accepted() {
    return "mean, median, or pN for a percentile N above 0 and below 100 (p90, p95, p99, p99.9)";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Statistic s && s.key.equals(key);
  }

  @Override
  public int hashCode() {
    return key.hashCode();
  }

  @Override
  public String toString() {
    return key;
  }
}
