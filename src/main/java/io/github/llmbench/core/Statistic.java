package io.github.llmbench.core;

import java.util.Arrays;
import java.util.Optional;

/** A statistic of a latency over a level's requests that gates and objectives may name. */
public enum Statistic {
  MEAN("mean", "Mean", Double.NaN),
  MEDIAN("median", "Median", 50),
  P90("p90", "P90", 90),
  P99("p99", "P99", 99);

  /**
   * The standard deviation, which vLLM reports ({@code std_ttft_ms}) and no gate or objective
   * names: not one of the statistics.
   */
  public static final String STD = "std";

  private final String key;
  private final String label;
  private final double percentile;

  Statistic(String key, String label, double percentile) {
    this.key = key;
    this.label = label;
    this.percentile = percentile;
  }

  /**
   * The name in settings, gates and {@code summary.json} ({@code p99}, as in {@code p99_ttft_ms}).
   */
  public String key() {
    return key;
  }

  /** As vLLM prints it: {@code P99}. */
  public String label() {
    return label;
  }

  /** The percentile it is (50 for the median), NaN for the mean. */
  public double percentile() {
    return percentile;
  }

  public static Optional<Statistic> of(String key) {
    return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
  }

  public static String accepted() {
    return String.join(", ", Arrays.stream(values()).map(Statistic::key).toList());
  }

  @Override
  public String toString() {
    return key;
  }
}
