package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.TraceLateness;
import io.github.llmbench.analysis.TurnLatency;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A workload's shape, as console blocks after a level's result blocks and as the page's tables:
 * TTFT by turn of a multi-turn run, and the send lateness of a level sent at set times (a trace
 * replay, a rate probe).
 *
 * <pre>
 * ----------------------- TTFT by turn ------------------------
 * Turn  Completed  Failed  Input tokens  Mean TTFT  Median    P99
 *    1         12       0         132.0      21.30   20.10  30.00
 * </pre>
 */
public final class WorkloadSection implements ReportSection {
  WorkloadSection() {}

  /** The TTFT-by-turn block; empty without turns. */
  public static String turns(TurnLatency t, String level) {
    if (t.isEmpty()) {
      return "";
    }
    String title =
        level == null || level.isBlank()
            ? " TTFT by turn (ms) "
            : " TTFT by turn (ms, " + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(
        String.format(
            Locale.ROOT,
            "%4s %10s %7s %13s %9s %7s %7s%n",
            "Turn",
            "Completed",
            "Failed",
            "Input tokens",
            "Mean",
            "Median",
            "P99"));
    for (TurnLatency.Row r : t.rows()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%4d %10d %7d %13s %9s %7s %7s%n",
              r.turn(),
              r.completed(),
              r.failed(),
              Numbers.orDash(r.meanInputTokens(), 1),
              Numbers.orDash(r.ttftMeanMs(), 2),
              Numbers.orDash(r.ttftMedianMs(), 2),
              Numbers.orDash(r.ttftP99Ms(), 2)));
    }
    return sb.toString();
  }

  /**
   * The lateness line of a level sent at set times (a trace replay, a rate probe of a search);
   * empty for others.
   */
  public static String lateness(TraceLateness l, String level) {
    if (l.isEmpty()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "%s: %d requests sent late by median %.1f ms, P99 %.1f ms, max %.1f ms"
            + " (each against %s)%n",
        lateLabel(level, false),
        l.requests(),
        l.medianMs(),
        l.p99Ms(),
        l.maxMs(),
        lateAgainst(level));
  }

  /**
   * {@code Trace replay} ({@code Trace replay (trace)} with {@code named}), or {@code Arrivals
   * (r24)} for a rate probe.
   */
  static String lateLabel(String level, boolean named) {
    return isTrace(level)
        ? "Trace replay" + (named ? " (" + level + ")" : "")
        : "Arrivals (" + level + ")";
  }

  static String lateAgainst(String level) {
    return isTrace(level)
        ? "its time in the trace, from the replay's start"
        : "its drawn arrival time, from the level's start";
  }

  private static boolean isTrace(String level) {
    return Level.TRACE.tag().equals(level);
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream()
        .anyMatch(l -> !l.turns().isEmpty() || !l.lateness().isEmpty());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return turns(l.turns(), several ? l.name() : null) + lateness(l.lateness(), l.name());
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.turns().isEmpty()) {
        items.add(turnsTable(l));
      }
      if (!l.lateness().isEmpty()) {
        items.add(latenessTable(l));
      }
    }
    return List.of(new PagePart("llm-workload", "Turns and trace", items));
  }

  private static Table turnsTable(RunAnalysis.Level l) {
    List<List<Object>> rows = new ArrayList<>();
    for (TurnLatency.Row r : l.turns().rows()) {
      rows.add(
          PagePart.row(
              r.turn(),
              r.completed(),
              r.failed(),
              Numbers.orDash(r.meanInputTokens(), 1),
              Numbers.orDash(r.ttftMeanMs(), 2),
              Numbers.orDash(r.ttftMedianMs(), 2),
              Numbers.orDash(r.ttftP99Ms(), 2)));
    }
    return new Table(
        "TTFT by turn (" + l.name() + "): each turn carries the turns and answers before it",
        List.of(
            "Turn",
            "Completed",
            "Failed",
            "Mean input tokens",
            LatencyFigure.of(Metric.TTFT, Statistic.MEAN).label() + " (ms)",
            LatencyFigure.of(Metric.TTFT, Statistic.MEDIAN).label() + " (ms)",
            LatencyFigure.of(Metric.TTFT, Statistic.P99).label() + " (ms)"),
        rows);
  }

  private static Table latenessTable(RunAnalysis.Level l) {
    TraceLateness late = l.lateness();
    return new Table(
        lateLabel(l.name(), true) + ": send time against " + lateAgainst(l.name()),
        List.of("Requests", "Median late (ms)", "P99 late (ms)", "Max late (ms)"),
        List.of(
            PagePart.row(
                late.requests(),
                Numbers.orDash(late.medianMs(), 1),
                Numbers.orDash(late.p99Ms(), 1),
                Numbers.orDash(late.maxMs(), 1))));
  }
}
