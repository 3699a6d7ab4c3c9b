package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.Interval;
import java.util.Locale;
import java.util.Optional;

/**
 * A gate checked on one level.
 *
 * @param limit the absolute limit applied (a relative one resolved against the baseline)
 * @param measured the level's figure, NaN when the run did not produce it
 * @param pass whether the gate lets the run pass (an inconclusive one as {@code
 *     -Dgate.inconclusive} says)
 * @param judgement the verdict on the figure's interval (across trials, or within the run), null
 *     for a gate judged on its value alone (a figure without one)
 */
public record GateResult(
    Gate gate, String level, double limit, double measured, boolean pass, GateJudgement judgement) {

  /** A gate judged on its value alone. */
  public GateResult(Gate gate, String level, double limit, double measured, boolean pass) {
    this(gate, level, limit, measured, pass, null);
  }

  /** PASS, FAIL or INCONCLUSIVE. */
  public GateVerdict verdict() {
    return judgement != null ? judgement.verdict() : pass ? GateVerdict.PASS : GateVerdict.FAIL;
  }

  /** Below this a relative gate on a percentile is warned about: a tail figure's noise is large. */
  public static final double PERCENTILE_WARNING_PCT = 20;

  /**
   * What the judgement says, for the console and gates.xml: the ratio (or figure) with its
   * one-sided bounds, and for a relative gate the two error rates it was judged at, where its noise
   * came from, the smallest regression it catches with that power and, for a test the noise leaves
   * undecidable, the trials a side that would give that power (the planning figure); a relative
   * gate without a run-to-run noise says its error rates are unknown and what would give them;
   * empty for a gate without a judgement.
   */
  public String judgementText() {
    if (judgement == null) {
      return "";
    }
    Interval b = judgement.bounds();
    boolean ratio = gate.limit().relative();
    StringBuilder sb = new StringBuilder();
    if (b.isKnown()) {
      boolean runsUnknown = judgement.relative().map(r -> !r.errorRatesKnown()).orElse(false);
      String scope =
          runsUnknown
              ? "from the trials' spread alone (how far two runs differ is not in them)"
              : b.basis() == Interval.Basis.TRIALS ? "across trials" : "within this run only";
      String unit = ratio ? "" : " " + gate.unit();
      String number = ratio ? "%.3f" : "%.2f";
      sb.append(
          String.format(
              Locale.ROOT,
              "%s " + number + "%s, one-sided %s%% bounds [" + number + ", " + number + "] %s",
              ratio ? "ratio to baseline" : "estimate",
              b.estimate(),
              unit.stripTrailing(),
              percent(judgement.confidence()),
              b.low(),
              b.high(),
              scope));
    } else {
      sb.append(String.format(Locale.ROOT, "ratio to baseline %.3f", b.estimate()));
    }
    judgement
        .relative()
        .ifPresent(
            r -> {
              r.outcome()
                  .filter(o -> !o.decisive() && r.design().delta() > 0)
                  .ifPresent(o -> sb.append("; the noise leaves a zone between pass and fail"));
              sb.append("; ").append(r.describe());
            });
    if (judgement.relative().isEmpty()) {
      sb.append("; judged at false alarm ")
          .append(GateJudgement.Family.pct(1 - judgement.confidence()))
          .append(" (an absolute limit: one-sided bounds, no power at a threshold)");
    }
    percentileWarning().ifPresent(w -> sb.append("; ").append(w));
    if (judgement.verdict() == GateVerdict.INCONCLUSIVE) {
      sb.append("; inconclusive")
          .append(
              pass ? " (counted as a pass: -Dgate.inconclusive=fail)" : " (counted as a failure)");
    }
    return sb.toString();
  }

  /**
   * The warning a relative gate on a percentile under {@value #PERCENTILE_WARNING_PCT}% gets: a P99
   * rests on a run's slowest 1% of requests and moves far more between runs than a mean.
   */
  Optional<String> percentileWarning() {
    return warning(gate, judgement);
  }

  /**
   * The warning of a relative percentile gate under 20%, with its noise when a judgement has it.
   */
  static Optional<String> warning(Gate gate, GateJudgement judgement) {
    if (!gate.limit().relative()
        || !GateCheck.isPercentile(gate.metric())
        || Math.abs(gate.limit().value()) >= PERCENTILE_WARNING_PCT) {
      return Optional.empty();
    }
    String measured =
        judgement == null
            ? ""
            : judgement
                .relative()
                .flatMap(r -> r.outcome())
                .map(
                    o ->
                        String.format(
                            Locale.ROOT,
                            " (measured: the log ratio's standard error %.3f, about %.0f%%)",
                            o.se(),
                            100 * (Math.exp(o.se()) - 1)))
                .orElse("");
    return Optional.of(
        String.format(
            Locale.ROOT,
            "warning: a relative gate on a percentile under %.0f%% is noisy, a tail moves far"
                + " more between runs than a mean%s; a gate on the mean is the recommended one",
            PERCENTILE_WARNING_PCT,
            measured));
  }

  private static String percent(double p) {
    double pct = 100 * p;
    return Math.abs(pct - Math.rint(pct)) < 1e-9
        ? String.format(Locale.ROOT, "%.0f", pct)
        : String.format(Locale.ROOT, "%.3g", pct);
  }

  /** {@code c128 tpot.p99 <= 300.00 ms}, and {@code (default)} for a gate the kit set itself. */
  public String name() {
    return level
        + " "
        + gate.metric().key()
        + (gate.upperBound() ? " <= " : " >= ")
        + number(limit)
        + " "
        + gate.unit()
        + (gate.byDefault() ? " (default)" : "");
  }

  /**
   * A limit or a measure: two decimals, three significant digits under 0.1 (joules per token read
   * 0.0364, not 0.04).
   */
  static String number(double v) {
    return v != 0 && Math.abs(v) < 0.1
        ? String.format(Locale.ROOT, "%.3g", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  /** One console line: name, limit, measured, PASS or FAIL and by how much. */
  public String line() {
    String measuredText =
        Double.isNaN(measured) ? "not measured" : (number(measured) + " " + gate.unit()).strip();
    String by = "";
    boolean beyond = gate.upperBound() ? measured > limit : measured < limit;
    if (verdict() == GateVerdict.FAIL && !Double.isNaN(measured) && limit != 0 && beyond) {
      by =
          String.format(
              Locale.ROOT,
              " (%+.1f%% over the limit)",
              100 * (measured - limit) / Math.abs(limit) * (gate.upperBound() ? 1 : -1));
    }
    String judged = judgement == null ? "" : "; " + judgementText();
    return String.format(
        Locale.ROOT,
        "%-4s %-8s %-30s limit %s, measured %s%s%s",
        verdict() == GateVerdict.INCONCLUSIVE ? "INCONCLUSIVE" : pass ? "PASS" : "FAIL",
        level,
        gate.metric().key(),
        (gate.upperBound() ? "<= " : ">= ")
            + (number(limit) + " " + gate.unit()).strip()
            + (gate.limit().relative() ? " (" + gate.limit() + ")" : "")
            + (gate.byDefault()
                ? " (default; -Dgate." + gate.metric().key() + "=N sets another)"
                : ""),
        measuredText,
        by,
        judged);
  }
}
