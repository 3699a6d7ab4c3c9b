package io.github.llmbench.report.section;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How the report writes a number, the one place for it: the console's blocks, the page's cells and
 * the comparison pages all write through here. Each form keeps the text it has always had (vLLM's
 * blocks round as Python does, the server's figures show their own precision), so a form is named
 * for where it is used, not merged into another that rounds differently.
 */
public final class Numbers {
  private Numbers() {}

  /** One decimal ({@code %.1f}). */
  public static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /**
   * As vLLM's blocks: Python's {@code "{:.2f}"}, the exact binary value rounded half-even; nan and
   * inf as Python prints them.
   */
  public static String f2(double v) {
    String s = fixed(v, 2);
    return (v < 0 || (v == 0.0 && 1.0 / v < 0)) && !s.startsWith("-") ? "-" + s : s;
  }

  /**
   * The exact binary value rounded half-even to {@code decimals} (Python's rounding), nan and inf
   * as Python prints them; unlike Python (and {@link #f2}) a value that rounds to zero from below
   * has no sign ({@code 0.00}).
   */
  public static String fixed(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "nan";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** Two decimals as {@link #f2}, or empty for a figure that is missing (null, NaN, infinite). */
  public static String num(Double v) {
    return v == null || !Double.isFinite(v) ? "" : f2(v);
  }

  /** A share as a percentage with one decimal ({@code 0.123} is {@code 12.3%}). */
  public static String pct(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  /** As {@link #pct}, or {@code -} for a share that could not be computed. */
  public static String pctOrDash(double share) {
    return Double.isFinite(share) ? pct(share) : "-";
  }

  /**
   * {@code v} with that many decimals ({@code %.Nf}), or {@code -} for a missing one (NaN,
   * infinite).
   */
  public static String orDash(double v, int decimals) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
  }

  /**
   * A count, whole with thousands separators ({@code %,.0f}), or {@code -} for a missing one (NaN).
   */
  public static String count(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
  }

  /** {@code v} in {@code format}, or empty for a figure that is missing (NaN, infinite). */
  public static String orEmpty(double v, String format) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "";
  }

  /**
   * A server's figure as its metrics read: a whole or large value without decimals, else three;
   * empty when the server did not report it.
   */
  public static String serverValue(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return "";
    }
    return Math.abs(v) >= 100 || v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.3f", v);
  }

  /** As {@link #serverValue}, or {@code -} when the server did not report it. */
  public static String serverValueOrDash(Double v) {
    String s = serverValue(v);
    return s.isEmpty() ? "-" : s;
  }

  /** Joules (per token, per request): small numbers keep three significant digits; NaN as -. */
  public static String joules(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return v >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
