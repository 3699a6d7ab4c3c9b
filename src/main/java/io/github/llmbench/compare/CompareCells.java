package io.github.llmbench.compare;

import io.github.llmbench.report.section.Numbers;
import java.util.Locale;

/** A comparison's cells as the console table and the compare page show them. */
public final class CompareCells {
  private CompareCells() {}

  /** A value as shown: 2 decimals, a count as a whole number, missing as "-". */
  public static String value(RunComparison.Figure m, Double v) {
    if (v == null) {
      return "-";
    }
    if (m.unit().isEmpty() && v == Math.rint(v)) { // a count
      return Long.toString(v.longValue());
    }
    return Numbers.f2(v);
  }

  /** A ratio as shown, e.g. {@code 1.80x}; missing as "-". */
  public static String ratio(Double r) {
    return r == null ? "-" : String.format(Locale.ROOT, "%.2fx", r);
  }
}
