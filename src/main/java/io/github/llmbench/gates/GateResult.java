package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Verdicts;
import java.util.Locale;

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

  /** What the interval says, for the console and gates.xml; empty for a gate without one. */
  public String judgementText() {
    if (judgement == null) {
      return "";
    }
    Interval b = judgement.bounds();
    boolean ratio = gate.limit().relative();
    String scope = b.basis() == Interval.Basis.TRIALS ? "across trials" : "within this run only";
    String unit = ratio ? "" : " " + gate.unit();
    String number = ratio ? "%.3f" : "%.2f";
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s " + number + "%s, one-sided %.0f%% bounds [" + number + ", " + number + "] %s",
                ratio ? "ratio to baseline" : "estimate",
                b.estimate(),
                unit.stripTrailing(),
                100 * judgement.confidence(),
                b.low(),
                b.high(),
                scope));
    if (judgement.verdict() == GateVerdict.INCONCLUSIVE) {
      sb.append("; inconclusive")
          .append(
              judgement.trialsNeeded() > 0
                  ? String.format(
                      Locale.ROOT,
                      ", about %s%d trials a side would resolve it",
                      judgement.trialsNeeded() >= Verdicts.MAX_TRIALS_NEEDED ? ">= " : "",
                      judgement.trialsNeeded())
                  : ", -Dtrials=N (3 or more) would resolve it")
          .append(
              pass ? " (counted as a pass: -Dgate.inconclusive=fail)" : " (counted as a failure)");
    }
    return sb.toString();
  }

  /** {@code c128 tpot.p99 <= 300.00 ms}, and {@code (default)} for a gate the kit set itself. */
  public String name() {
    return level
        + " "
        + gate.metric().key()
        + (gate.upperBound() ? " <= " : " >= ")
        + String.format(Locale.ROOT, "%.2f", limit)
        + " "
        + gate.unit()
        + (gate.byDefault() ? " (default)" : "");
  }

  /** One console line: name, limit, measured, PASS or FAIL and by how much. */
  public String line() {
    String measuredText =
        Double.isNaN(measured)
            ? "not measured"
            : String.format(Locale.ROOT, "%.2f %s", measured, gate.unit()).strip();
    String by = "";
    if (verdict() == GateVerdict.FAIL && !Double.isNaN(measured) && limit != 0) {
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
            + String.format(Locale.ROOT, "%.2f %s", limit, gate.unit()).strip()
            + (gate.limit().relative() ? " (" + gate.limit() + ")" : "")
            + (gate.byDefault()
                ? " (default; -Dgate." + gate.metric().key() + "=N sets another)"
                : ""),
        measuredText,
        by,
        judged);
  }
}
