package io.github.llmbench.gates;

import io.github.llmbench.core.Level;
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
public record Gate(Level level, GateMetric metric, Limit limit, boolean byDefault) {

  public Gate(Level level, GateMetric metric, Limit limit) {
    this(level, metric, limit, false);
  }

  /** Whether a bigger measured value is worse (latencies, failures) or better (throughputs). */
  public boolean upperBound() {
    return metric.upperBound();
  }

  /** The gate's name as written: {@code c128.tpot.p99} or {@code tpot.p99}. */
  public String name() {
    return level == null ? metric.key() : level.tag() + "." + metric.key();
  }

  /**
   * The absolute limit: the limit itself, or for a relative one baseline x (1 + pct / 100), so
   * {@code +10%} allows 10% worse and {@code -5%} on a throughput 5% less; NaN when the baseline
   * lacks the figure.
   *
   * @param baselineFigure the baseline's figure where the gate is checked (NaN without a baseline)
   */
  public double limitAt(double baselineFigure) {
    return limit.relative() ? baselineFigure * (1 + limit.value() / 100) : limit.value();
  }

  /** The unit the metric is in, for the console. */
  public String unit() {
    return metric.unit();
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
      return relative
          ? String.format(Locale.ROOT, "%+.1f%% of baseline", value)
          : String.format(Locale.ROOT, "%.2f", value);
    }
  }
}
