package io.github.llmbench.report.section;

import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.util.List;
import java.util.Locale;

/**
 * The console block of a level's steady state, in the layout of the seed's {@code Steady-State
 * Metrics}: a 47-column header, rows of a 36-column left-aligned label then the value, 47-dash
 * separators; TTFT rows Mean, Median, P99, P90 and TPOT rows Mean, Median, P90, P99, as the seed
 * prints them, or with {@code -Dpercentiles} Mean, Median and each of them, as the result block.
 * The roofline rows follow as one more section, or one line saying why it was skipped.
 */
public final class SteadyStateBlock {

  public static final int WIDTH = 47;
  private static final String TITLE = "Steady-State Metrics";

  /** The seed's TTFT rows (its TPOT rows are {@link Statistic#STANDARD}). */
  static final List<Statistic> TTFT_ROWS =
      List.of(Statistic.MEAN, Statistic.MEDIAN, Statistic.P99, Statistic.P90);

  private SteadyStateBlock() {}

  /** The block of a level (title {@code Steady-State Metrics (c64)} when a level is given). */
  public static String format(SteadyState s, String level) {
    return format(s, level, ReportedPercentiles.DEFAULT);
  }

  /** The block of a level, its latency rows those of {@code percentiles}. */
  public static String format(SteadyState s, String level, ReportedPercentiles percentiles) {
    return format(s, level, percentiles, false);
  }

  /**
   * The block of a level; a pooling level's (embeddings) stops at its throughputs, since it has no
   * TTFT or TPOT of its own.
   */
  public static String format(
      SteadyState s, String level, ReportedPercentiles percentiles, boolean pooling) {
    StringBuilder sb = new StringBuilder();
    String title = level == null || level.isBlank() ? TITLE : TITLE + " (" + level + ")";
    line(sb, ServingResultBlock.center(" " + title + " ", '=', WIDTH));
    row(
        sb,
        "Concurrency threshold:",
        ">= 0."
            + SteadyState.THRESHOLD_PERCENT
            + " * "
            + s.concurrency()
            + " = "
            + s.threshold()
            + (s.concurrencyObserved() ? "  (C unknown: observed peak)" : ""));
    if (!s.reached()) {
      row(sb, "Window:", "none (in flight never reached " + s.threshold() + ")");
      row(sb, "Observed peak concurrency:", Integer.toString(s.observedPeak()));
      return sb.toString();
    }
    row(
        sb,
        "Window:",
        String.format(
            Locale.ROOT, "%.1fs -> %.1fs  (%.1fs)", s.windowStartS(), s.windowEndS(), s.windowS()));
    row(sb, "Observed peak concurrency:", Integer.toString(s.observedPeak()));
    row(
        sb,
        "Requests started in window:",
        String.format(
            Locale.ROOT,
            "%d / %d (%.1f%%)",
            s.startedInWindow(),
            s.requests(),
            s.requests() == 0 ? 0.0 : 100.0 * s.startedInWindow() / s.requests()));
    row(sb, "Requests completed in window:", Integer.toString(s.completedInWindow()));
    line(sb, "-".repeat(WIDTH));
    row(sb, "Request throughput (req/s):", Numbers.f2(s.requestThroughput()));
    if (pooling) {
      row(sb, "Input token throughput (tok/s):", Numbers.f2(s.inputThroughput()));
      return sb.toString();
    }
    row(sb, "Output token throughput (tok/s):", Numbers.f2(s.outputThroughput()));
    row(sb, "Input token throughput (tok/s):", Numbers.f2(s.inputThroughput()));
    row(sb, "Total token throughput (tok/s):", Numbers.f2(s.totalThroughput()));
    line(sb, "-".repeat(WIDTH));
    latencyRows(sb, Metric.TTFT, s.ttft(), percentiles.rows(TTFT_ROWS));
    line(sb, "-".repeat(WIDTH));
    latencyRows(sb, Metric.TPOT, s.tpot(), percentiles.rows(Statistic.STANDARD));
    return sb.toString();
  }

  private static void latencyRows(
      StringBuilder sb, Metric metric, LatencyStats stats, List<Statistic> order) {
    for (Statistic stat : order) {
      row(sb, stat.label() + " " + metric.label() + " (ms):", Numbers.f2(stats.value(stat)));
    }
  }

  /** The roofline section (after the steady-state block), or the skip note as one line. */
  public static String roofline(
      Roofline r, String modelName, String gpuName, int tp, String skipNote) {
    StringBuilder sb = new StringBuilder();
    if (r == null) {
      line(sb, skipNote == null ? "Roofline skipped." : skipNote);
      return sb.toString();
    }
    line(sb, ServingResultBlock.center(" Roofline ", '-', WIDTH));
    row(sb, "Model / GPU:", modelName + " on " + tp + " x " + gpuName);
    row(
        sb,
        "Ridge point (FLOP/byte):",
        String.format(
            Locale.ROOT,
            "%.1f  (%.1f TFLOP/s / %.1f" + " GB/s)",
            r.ridge(),
            r.peakFlops() / 1e12,
            r.bandwidth() / 1e9));
    row(
        sb,
        "Mean batch B / context L:",
        String.format(Locale.ROOT, "%.1f / %.0f tokens", r.meanBatch(), r.meanContext()));
    row(
        sb,
        "FLOPs per token F(L):",
        String.format(Locale.ROOT, "%.2f GFLOP", r.flopsPerToken() / 1e9));
    row(
        sb,
        "Decode step read:",
        String.format(
            Locale.ROOT,
            "%.2f GB = %.1f ms at full" + " bandwidth",
            r.stepBytes() / 1e9,
            r.stepReadS() * 1e3));
    point(sb, "Decode only:", r.decode());
    point(sb, "Whole workload:", r.whole());
    line(sb, r.prefixCacheNote());
    return sb.toString();
  }

  private static void point(StringBuilder sb, String label, Roofline.Point p) {
    row(
        sb,
        label,
        String.format(
            Locale.ROOT,
            "OI %.1f, %.2f TFLOP/s = %.1f%% of the %s" + " (%.2f TFLOP/s)",
            p.oi(),
            p.attainedFlops() / 1e12,
            p.attainment() * 100,
            p.roofName(),
            p.roofFlops() / 1e12));
  }

  private static void row(StringBuilder sb, String label, String value) {
    line(sb, (label.length() >= 36 ? label : label + " ".repeat(36 - label.length())) + value);
  }

  private static void line(StringBuilder sb, String text) {
    sb.append(text).append('\n');
  }
}
