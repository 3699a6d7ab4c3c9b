package io.github.llmbench.report.section;

import java.util.Locale;

/** How the page's table cells write numbers. */
public final class Cells {
  private Cells() {}

  public static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** As vLLM's blocks: Python's {@code "{:.2f}"}. */
  public static String f2(double v) {
    return ServingResultBlock.f2(v);
  }

  /** Two decimals, or empty for a figure that is missing (null, NaN). */
  public static String num(Double v) {
    return v == null || !Double.isFinite(v) ? "" : f2(v);
  }

  public static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f%%", v * 100);
  }
}
