package io.github.llmbench.gates;

import java.util.Locale;

/**
 * A gate checked on one level.
 *
 * @param limit the absolute limit applied (a relative one resolved against the baseline)
 * @param measured the level's figure, NaN when the run did not produce it
 */
public record GateResult(Gate gate, String level, double limit, double measured, boolean pass) {

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
    if (!pass && !Double.isNaN(measured) && limit != 0) {
      by =
          String.format(
              Locale.ROOT,
              " (%+.1f%% over the limit)",
              100 * (measured - limit) / Math.abs(limit) * (gate.upperBound() ? 1 : -1));
    }
    return String.format(
        Locale.ROOT,
        "%-4s %-8s %-30s limit %s, measured %s%s",
        pass ? "PASS" : "FAIL",
        level,
        gate.metric().key(),
        (gate.upperBound() ? "<= " : ">= ")
            + String.format(Locale.ROOT, "%.2f %s", limit, gate.unit()).strip()
            + (gate.limit().relative() ? " (" + gate.limit() + ")" : "")
            + (gate.byDefault()
                ? " (default; -Dgate." + gate.metric().key() + "=N sets another)"
                : ""),
        measuredText,
        by);
  }
}
