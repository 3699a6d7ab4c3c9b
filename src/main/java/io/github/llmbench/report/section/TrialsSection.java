package io.github.llmbench.report.section;

import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Intervals;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Trials;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A level that ran several times ({@code -Dtrials}): on the console after its result blocks and on
 * the page, one line per trial with the figures gates most often name, then their intervals.
 *
 * <pre>
 * ----------------------- Trials (c8) ------------------------
 * trial completed failed  out tok/s  Mean TPOT ms  P99 TPOT ms  P99 TTFT ms  steady tok/s
 *     1       120      0     912.40         27.31        29.02       310.55        930.12
 * ...
 * 95% across trials: out tok/s 905.2 [880.1, 931.0]; Mean TPOT 27.4 [26.9, 27.9] ms; ...
 * </pre>
 */
public final class TrialsSection implements ReportSection {

  /** The latency columns, after the counts and the output throughput. */
  static final List<LatencyFigure> COLUMNS =
      List.of(
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.TPOT, Statistic.P99),
          LatencyFigure.of(Metric.TTFT, Statistic.P99));

  TrialsSection() {}

  /**
   * The block, lines ended by {@code \n}; empty when the level ran once.
   *
   * @param level the level's name for the title, null or blank for a single-level run
   */
  private static String format(Trials trials, LevelSamples samples, String level) {
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

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> !l.trials().isEmpty());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.trials(), l.samples(), several ? l.name() : null);
  }

  /**
   * Each level that ran several times: a row per trial, then each figure's 95% interval across the
   * trials (the geometric mean and its log-t bounds).
   */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.trials().isEmpty()) {
        items.add(trialsTable(l));
      }
    }
    items.add(
        Note.kit(
            "Intervals: the trials' geometric mean with its 95% log-t bounds"
                + " (docs/gates.md, How intervals are made)."));
    return List.of(new PagePart("llm-trials", "Trials", items));
  }

  private static Table trialsTable(RunAnalysis.Level l) {
    List<String> headers = new ArrayList<>(List.of("Trial", "Completed", "Failed", "Output tok/s"));
    COLUMNS.forEach(f -> headers.add(f.label() + " (ms)"));
    headers.add("Steady output tok/s");
    List<List<Object>> rows = new ArrayList<>();
    for (Trials.Trial t : l.trials().trials()) {
      List<Object> cells =
          new ArrayList<>(
              List.of(
                  t.number(),
                  t.serving().completed(),
                  t.serving().failed(),
                  Numbers.f2(t.serving().outputThroughput())));
      COLUMNS.forEach(
          f -> cells.add(Numbers.f2(t.serving().latency(f.metric()).value(f.statistic()))));
      cells.add(t.steady().reached() ? Numbers.f2(t.steady().outputThroughput()) : "not reached");
      rows.add(cells);
    }
    List<Object> ci =
        new ArrayList<>(
            List.of(
                String.format(Locale.ROOT, "%.0f%% interval", 100 * LevelSamples.CONFIDENCE),
                "",
                "",
                intervalCell(l.samples().get(LevelSamples.OUTPUT_THROUGHPUT))));
    COLUMNS.forEach(f -> ci.add(intervalCell(l.samples().get(f))));
    ci.add(intervalCell(l.samples().get(LevelSamples.STEADY_OUTPUT_THROUGHPUT)));
    rows.add(ci);
    return new Table("Trials (" + l.name() + ")", headers, rows);
  }

  private static String intervalCell(TrialValues v) {
    if (v == null) {
      return "";
    }
    Interval i = Intervals.acrossTrials(v, LevelSamples.CONFIDENCE);
    return i.basis() == Interval.Basis.TRIALS
        ? Numbers.f2(i.estimate()) + " [" + Numbers.f2(i.low()) + ", " + Numbers.f2(i.high()) + "]"
        : "";
  }
}
