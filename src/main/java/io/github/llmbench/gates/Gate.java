package io.github.llmbench.gates;

import java.util.Locale;

/**
 * One performance limit: a metric of a level (or of every level) compared with a limit.
 *
 * @param level the level it applies to ({@code c128}), or null for every measured level
 * @param metric what is measured, e.g. {@code tpot.p99}, {@code failed.pct}, {@code
 *     output_throughput.min}, {@code steady.output_throughput.min}, {@code goodput.pct}
 * @param limit the limit: an absolute value, or relative to a baseline run ({@code +10%})
 * @param byDefault whether the kit set it without being asked ({@link GateSet#DEFAULT_FAILED_PCT})
 */
public record Gate(String level, String metric, Limit limit, boolean byDefault) {

  public Gate(String level, String metric, Limit limit) {
    this(level, metric, limit, false);
  }

  /** Whether a bigger measured value is worse (latencies, failures) or better (throughputs). */
  public boolean upperBound() {
    return !metric.endsWith(".min") && !metric.equals("goodput.pct");
  }

  /** The gate's name as written: {@code c128.tpot.p99} or {@code tpot.p99}. */
  public String name() {
    return level == null ? metric : level + "." + metric;
  }

  /**
   * The absolute limit at a level: the limit itself, or for a relative one baseline x (1 + pct /
   * 100), so {@code +10%} allows 10% worse and {@code -5%} on a throughput 5% less; NaN when the
   * baseline lacks the figure.
   *
   * @param baselineLevel the baseline's figures of the level (empty without a baseline)
   */
  public double limitAt(java.util.Map<String, Double> baselineLevel) {
    if (!limit.relative()) {
      return limit.value();
    }
    return baselineLevel.getOrDefault(metric, Double.NaN) * (1 + limit.value() / 100);
  }

  /** The unit the metric is in, for the console. */
  public String unit() {
    if (metric.equals(GateSet.CAPACITY)) {
      return "";
    }
    if (metric.startsWith(GateSet.SERVER_PREFIX)) {
      return metric.endsWith("_ms") ? "ms" : metric.endsWith("_per_s") ? "tok/s" : metric.endsWith("_w_mean") ? "W"
          : metric.endsWith("_mhz_mean") ? "MHz" : "";
    }
    if (metric.endsWith(".pct")) {
      return "%";
    }
    if (metric.startsWith("goodput")) {
      return "req/s";
    }
    if (metric.contains("throughput")) {
      return "tok/s";
    }
    return "ms";
  }

  /**
   * A limit: {@code value} itself, or, when {@code relative}, a change of {@code value} percent
   * from the baseline's figure ({@code +10%} allows 10% worse).
   */
  public record Limit(double value, boolean relative) {
    static Limit parse(String raw) {
      String s = raw.trim();
      if (s.endsWith("%")) {
        double pct = Double.parseDouble(s.substring(0, s.length() - 1).trim());
        return new Limit(pct, true);
      }
      double v = Double.parseDouble(s);
      if (!Double.isFinite(v)) {
        throw new NumberFormatException(raw);
      }
      return new Limit(v, false);
    }

    @Override
    public String toString() {
      return relative ? String.format(Locale.ROOT, "%+.1f%% of baseline", value) : String.format(Locale.ROOT, "%.2f", value);
    }
  }
}
