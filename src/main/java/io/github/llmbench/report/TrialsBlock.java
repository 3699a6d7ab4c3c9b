package io.github.llmbench.report;

import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Intervals;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Trials;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The console block of a level that ran several times ({@code -Dtrials}), after its result blocks:
 * one line per trial with the figures gates most often name.
 *
 * <pre>
 * ----------------------- Trials (c8) ------------------------
 * trial completed failed  out tok/s  Mean TPOT ms  P99 TPOT ms  P99 TTFT ms  steady tok/s
 *     1       120      0     912.40         27.31        29.02       310.55        930.12
 * ...
 * 95% across trials: out tok/s 905.2 [880.1, 931.0]; Mean TPOT 27.4 [26.9, 27.9] ms; ...
 * </pre>
 */
public final class TrialsBlock {

  /** The latency columns, after the counts and the output throughput. */
  static final List<LatencyFigure> COLUMNS =
      List.of(
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.TPOT, Statistic.P99),
          LatencyFigure.of(Metric.TTFT, Statistic.P99));

  private TrialsBlock() {}

  /**
   * The block, lines ended by {@code \n}; empty when the level ran once.
   *
   * @param level the level's name for the title, null or blank for a single-level run
   */
  public static String format(Trials trials, LevelSamples samples, String level) {
    if (trials.isEmpty()) {
      return "";
    }
    String title = level == null || level.isBlank() ? " Trials " : " Trials (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(
        String.format(
            Locale.ROOT, "%5s %9s %6s %10s", "trial", "completed", "failed", "out tok/s"));
    for (LatencyFigure f : COLUMNS) {
      sb.append(String.format(Locale.ROOT, " %13s", f.label() + " ms"));
    }
    sb.append(String.format(Locale.ROOT, " %13s%n", "steady tok/s"));
    for (Trials.Trial t : trials.trials()) {
      ServingMetrics m = t.serving();
      sb.append(
          String.format(
              Locale.ROOT,
              "%5d %9d %6d %10.2f",
              t.number(),
              m.completed(),
              m.failed(),
              m.outputThroughput()));
      for (LatencyFigure f : COLUMNS) {
        sb.append(
            String.format(Locale.ROOT, " %13.2f", m.latency(f.metric()).value(f.statistic())));
      }
      sb.append(
          t.steady().reached()
              ? String.format(Locale.ROOT, " %13.2f%n", t.steady().outputThroughput())
              : String.format(Locale.ROOT, " %13s%n", "not reached"));
    }
    List<String> intervals = new ArrayList<>();
    interval(intervals, "out tok/s", "", samples.get(LevelSamples.OUTPUT_THROUGHPUT));
    for (LatencyFigure f : COLUMNS) {
      interval(intervals, f.label(), " ms", samples.get(f));
    }
    int fewest = trials.trials().stream().mapToInt(t -> t.serving().completed()).min().orElse(0);
    if (fewest < Intervals.STABLE_P99_REQUESTS) {
      sb.append("! P99 figures of trials with fewer than ")
          .append(Intervals.STABLE_P99_REQUESTS)
          .append(" requests (the fewest: ")
          .append(fewest)
          .append("): one request decides such a P99; a longer -Dduration gives trials more\n");
    }
    if (!intervals.isEmpty()) {
      sb.append(String.format(Locale.ROOT, "%.0f%% across trials: ", 100 * LevelSamples.CONFIDENCE))
          .append(String.join("; ", intervals))
          .append('\n');
    }
    return sb.toString();
  }

  private static void interval(List<String> out, String name, String unit, TrialValues values) {
    if (values == null) {
      return;
    }
    Interval i = Intervals.acrossTrials(values, LevelSamples.CONFIDENCE);
    if (i.basis() == Interval.Basis.TRIALS) {
      out.add(
          String.format(
              Locale.ROOT, "%s %.2f [%.2f, %.2f]%s", name, i.estimate(), i.low(), i.high(), unit));
    }
  }
}
