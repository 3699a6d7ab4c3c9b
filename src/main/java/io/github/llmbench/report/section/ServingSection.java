package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.Numbers.f1;
import static io.github.llmbench.report.section.Numbers.f2;
import static io.github.llmbench.report.section.Numbers.pct;
import static io.github.llmbench.report.section.PagePart.row;

import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.SteadyState;
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
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;

/**
 * A generating run's levels (chat, completions, responses): per level vLLM's {@code Serving
 * Benchmark Result} and {@code Steady-State Metrics} blocks and the roofline lines; at the run's
 * end a line per level; on the page the same figures as tables (throughputs apart from latencies,
 * the roofline's table). A pooling run has {@link PoolingSection} instead.
 */
final class ServingSection implements ReportSection {

  static final String ANCHOR = "llm-levels";
  static final String NAV = "Levels";

  /** The serving table's latency columns, in vLLM's block's order. */
  private static final List<LatencyFigure> SERVING_LATENCIES =
      List.of(
          LatencyFigure.of(Metric.TTFT, Statistic.MEAN),
          LatencyFigure.of(Metric.TTFT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TTFT, Statistic.P99),
          LatencyFigure.of(Metric.TTFT, Statistic.P90),
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.TPOT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TPOT, Statistic.P99),
          LatencyFigure.of(Metric.ITL, Statistic.MEAN),
          LatencyFigure.of(Metric.ITL, Statistic.P99),
          LatencyFigure.of(Metric.E2EL, Statistic.MEAN),
          LatencyFigure.of(Metric.E2EL, Statistic.P99));

  /** The steady-state table's latency columns (the window holds TTFT and TPOT). */
  private static final List<LatencyFigure> STEADY_LATENCIES =
      List.of(
          LatencyFigure.of(Metric.TTFT, Statistic.MEAN),
          LatencyFigure.of(Metric.TTFT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TTFT, Statistic.P99),
          LatencyFigure.of(Metric.TTFT, Statistic.P90),
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.TPOT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TPOT, Statistic.P90),
          LatencyFigure.of(Metric.TPOT, Statistic.P99));

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.figures().generates();
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return vllmBlocks(a, l, several);
  }

  @Override
  public String runText(RunAnalysis a) {
    return levelLines(
        a,
        "out tok/s",
        ServingMetrics::outputThroughput,
        LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
        LatencyFigure.of(Metric.TTFT, Statistic.P99));
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    // each block in two tables, throughput then latency: at 21 columns one table was wider than
    // Gatling's 1,050 px article, and its last columns were only seen by scrolling the box
    List<Item> items = new ArrayList<>();
    items.add(throughputTable(a));
    items.add(latencyTable(a));
    items.add(
        Note.kit(
            "Latencies in ms. Definitions: vLLM's serving benchmark"
                + " (see docs/metrics.md in gatling-llm-bench)."));
    items.add(steadyTable(a));
    items.add(steadyLatencyTable(a));
    items.add(rooflineTable(a));
    return List.of(new PagePart(ANCHOR, NAV, items));
  }

  /**
   * A level's vLLM blocks: the serving result (titled with the level in a run of several), the
   * level's ends guard, the steady-state block and the roofline lines (or the skip note).
   */
  static String vllmBlocks(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    String name = l.name();
    StringBuilder sb = new StringBuilder();
    sb.append(
        ServingResultBlock.format(
            l.serving(),
            several ? ServingResultBlock.titleFor(name) : ServingResultBlock.DEFAULT_TITLE));
    String ends = l.ends().guard(name);
    if (ends != null) {
      sb.append("! ").append(ends).append('\n');
    }
    sb.append(
        SteadyStateBlock.format(
            l.steady(),
            several ? name : null,
            a.percentiles(),
            !l.serving().endpointFigures().generates()));
    sb.append(
        SteadyStateBlock.roofline(
            l.roofline(),
            a.model() == null ? null : a.model().hfId(),
            a.gpu() == null ? null : a.gpu().name(),
            a.tp(),
            l.rooflineNote()));
    return sb.toString();
  }

  /**
   * The run's end: a line per level with its counts, throughputs and two latency figures.
   *
   * @param throughputLabel the throughput column's header
   */
  static String levelLines(
      RunAnalysis a,
      String throughputLabel,
      ToDoubleFunction<ServingMetrics> throughput,
      LatencyFigure first,
      LatencyFigure second) {
    StringBuilder sb = new StringBuilder("\n=================== Levels ===================\n");
    sb.append(
        String.format(
            "%-8s %9s %7s %10s %12s %14s %13s%n",
            "level",
            "completed",
            "failed",
            "req/s",
            throughputLabel,
            first.label() + " ms",
            second.label() + " ms"));
    a.levels()
        .forEach(
            (level, l) -> {
              ServingMetrics m = l.serving();
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%-8s %9d %7d %10.2f %12.2f %14.2f %13.2f%n",
                      level,
                      m.completed(),
                      m.failed(),
                      m.requestThroughput(),
                      throughput.applyAsDouble(m),
                      m.latency(first.metric()).value(first.statistic()),
                      m.latency(second.metric()).value(second.statistic())));
            });
    return sb.toString();
  }

  private static Table throughputTable(RunAnalysis a) {
    List<List<Object>> rows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              ServingMetrics m = l.serving();
              rows.add(
                  row(
                      name,
                      l.concurrency() == null ? "?" : l.concurrency(),
                      m.completed(),
                      m.failed(),
                      f2(m.durationS()),
                      f2(m.requestThroughput()),
                      f2(m.outputThroughput()),
                      f2(m.maxOutputTokensPerS()),
                      m.maxConcurrentRequests(),
                      f2(m.totalTokenThroughput())));
            });
    return new Table(
        "Serving Benchmark Result",
        List.of(
            "Level",
            "C",
            "OK",
            "KO",
            "Duration (s)",
            "Req/s",
            "Output tok/s",
            "Peak output tok/s",
            "Peak concurrent",
            "Total tok/s"),
        rows);
  }

  private static Table latencyTable(RunAnalysis a) {
    String title = "Serving Benchmark Result: latencies (ms)";
    if (a.percentiles().asked()) {
      return latencyRowsTable(
          title, a, List.of(Metric.values()), (l, m) -> l.serving().latency(m), false, List.of());
    }
    List<List<Object>> rows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              List<Object> cells = new ArrayList<>(List.of(name));
              for (LatencyFigure f : SERVING_LATENCIES) {
                cells.add(f2(l.serving().latency(f.metric()).value(f.statistic())));
              }
              rows.add(cells);
            });
    return new Table(title, headed("Level", SERVING_LATENCIES, List.of()), rows);
  }

  private static Table steadyTable(RunAnalysis a) {
    List<List<Object>> rows = new ArrayList<>();
    a.levels().forEach((name, l) -> rows.add(steadyRow(name, l.steady())));
    return new Table(
        "Steady-State Metrics",
        List.of(
            "Level",
            "Threshold",
            "Window (s)",
            "Length (s)",
            "Observed peak",
            "Started in window",
            "Completed in window",
            "Req/s",
            "Output tok/s",
            "Input tok/s",
            "Total tok/s"),
        rows);
  }

  private static List<Object> steadyRow(String name, SteadyState s) {
    String thr =
        "\u2265 0.95 \u00d7 "
            + s.concurrency()
            + " = "
            + s.threshold()
            + (s.concurrencyObserved() ? " (C unknown)" : "");
    if (!s.reached()) {
      return row(name, thr, "not reached", "", s.observedPeak(), "", "", "", "", "", "");
    }
    return row(
        name,
        thr,
        f1(s.windowStartS()) + " \u2192 " + f1(s.windowEndS()),
        f1(s.windowS()),
        s.observedPeak(),
        s.startedInWindow()
            + " / "
            + s.requests()
            + String.format(
                Locale.ROOT,
                " (%.1f%%)",
                s.requests() == 0 ? 0.0 : 100.0 * s.startedInWindow() / s.requests()),
        s.completedInWindow(),
        f2(s.requestThroughput()),
        f2(s.outputThroughput()),
        f2(s.inputThroughput()),
        f2(s.totalThroughput()));
  }

  private static Table steadyLatencyTable(RunAnalysis a) {
    String title = "Steady-State Metrics: latencies (ms)";
    if (a.percentiles().asked()) {
      return latencyRowsTable(
          title,
          a,
          List.of(Metric.TTFT, Metric.TPOT),
          (l, m) -> m == Metric.TTFT ? l.steady().ttft() : l.steady().tpot(),
          true,
          List.of());
    }
    List<List<Object>> rows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              SteadyState s = l.steady();
              if (!s.reached()) {
                rows.add(row(name, "not reached", "", "", "", "", "", "", "", ""));
                return;
              }
              List<Object> cells = new ArrayList<>(List.of(name));
              for (LatencyFigure f : STEADY_LATENCIES) {
                LatencyStats stats = f.metric() == Metric.TTFT ? s.ttft() : s.tpot();
                cells.add(f2(stats.value(f.statistic())));
              }
              cells.add(ttftGrowing(s));
              rows.add(cells);
            });
    return new Table(
        title, headed("Level", STEADY_LATENCIES, List.of(Metric.TTFT.label() + " growing")), rows);
  }

  /** The roofline's table, or the note that says why it was skipped. */
  private static Item rooflineTable(RunAnalysis a) {
    if (a.levels().values().stream().noneMatch(l -> l.roofline() != null)) {
      return Note.of(
          a.levels().values().stream()
              .map(RunAnalysis.Level::rooflineNote)
              .filter(n -> n != null)
              .findFirst()
              .orElse("Roofline skipped."));
    }
    List<List<Object>> rows = new ArrayList<>();
    a.levels().forEach((name, l) -> rows.add(rooflineRow(name, l)));
    return new Table(
        "Roofline (" + a.model().hfId() + " on " + a.tp() + " \u00d7 " + a.gpu().name() + ")",
        List.of(
            "Level",
            "Mean batch B",
            "Mean context L",
            "F(L) GFLOP/token",
            "Step read (ms)",
            "Ridge (FLOP/B)",
            "Decode OI",
            "Decode TFLOP/s",
            "Decode attainment",
            "Whole OI",
            "Whole TFLOP/s",
            "Whole attainment"),
        rows);
  }

  private static List<Object> rooflineRow(String name, RunAnalysis.Level l) {
    Roofline r = l.roofline();
    if (r == null) {
      return row(name, l.rooflineNote(), "", "", "", "", "", "", "", "", "", "");
    }
    return row(
        name,
        f1(r.meanBatch()),
        f1(r.meanContext()),
        f2(r.flopsPerToken() / 1e9),
        f2(r.stepReadS() * 1e3),
        f1(r.ridge()),
        f1(r.decode().oi()),
        f2(r.decode().attainedFlops() / 1e12),
        pct(r.decode().attainment()) + " of " + r.decode().roofName(),
        f1(r.whole().oi()),
        f2(r.whole().attainedFlops() / 1e12),
        pct(r.whole().attainment()) + " of " + r.whole().roofName());
  }

  /**
   * A latency table with {@code -Dpercentiles}: a row per level and metric, a column per statistic
   * (mean, median, each percentile asked for), as vLLM's block lists them; a column per figure
   * would be too wide for the page at five percentiles.
   *
   * @param unasked the statistics shown without {@code -Dpercentiles}
   */
  static Table latencyRowsTable(
      String title,
      RunAnalysis a,
      List<Metric> metrics,
      BiFunction<RunAnalysis.Level, Metric, LatencyStats> stats,
      boolean steady,
      List<Statistic> unasked) {
    List<Statistic> columns = a.percentiles().rows(unasked);
    List<String> headers = new ArrayList<>(List.of("Level", "Metric"));
    columns.forEach(s -> headers.add(s.label()));
    if (steady) {
      headers.add(Metric.TTFT.label() + " growing");
    }
    List<List<Object>> rows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              if (steady && !l.steady().reached()) {
                rows.add(row(name, "not reached"));
                return;
              }
              for (Metric m : metrics) {
                LatencyStats s = stats.apply(l, m);
                List<Object> cells = new ArrayList<>(List.of(name, m.label()));
                columns.forEach(st -> cells.add(f2(s.value(st))));
                if (steady) {
                  cells.add(m == Metric.TTFT ? ttftGrowing(l.steady()) : "");
                }
                rows.add(cells);
              }
            });
    return new Table(title, headers, rows);
  }

  private static String ttftGrowing(SteadyState s) {
    return !s.ttftTrend().evaluated()
        ? "too few requests"
        : s.ttftTrend().growing() ? "yes (+" + f1(s.ttftTrend().riseMs()) + " ms)" : "no";
  }

  /** A table's headers: the first, a column per figure (its label), then the others. */
  private static List<String> headed(
      String first, List<LatencyFigure> figures, List<String> after) {
    List<String> h = new ArrayList<>(List.of(first));
    figures.forEach(f -> h.add(f.label()));
    h.addAll(after);
    return h;
  }
}
