package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.Numbers.f1;
import static io.github.llmbench.report.section.Numbers.f2;
import static io.github.llmbench.report.section.PagePart.row;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * A pooling run's levels (embeddings), as vLLM's pooling block: counts, request and input
 * throughputs, E2EL; its steady window's throughputs. No roofline: it models decoding. At the run's
 * end a line per level with its input tok/s, mean and P99 E2EL. A generating run has {@link
 * ServingSection} instead.
 */
final class PoolingSection implements ReportSection {

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return !a.figures().generates();
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return ServingSection.vllmBlocks(a, l, several);
  }

  @Override
  public String runText(RunAnalysis a) {
    // generates nothing: its input throughput and E2EL instead
    return ServingSection.levelLines(
        a,
        "in tok/s",
        ServingMetrics::inputThroughput,
        LatencyFigure.of(Metric.E2EL, Statistic.MEAN),
        LatencyFigure.of(Metric.E2EL, Statistic.P99));
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    return List.of(
        new PagePart(
            ServingSection.ANCHOR,
            ServingSection.NAV,
            List.of(
                throughputTable(a),
                ServingSection.latencyRowsTable(
                    "Serving Benchmark Result: latencies (ms)",
                    a,
                    List.of(Metric.E2EL),
                    (l, m) -> l.serving().latency(m),
                    false,
                    // vLLM's pooling block: the mean, median and P99 E2EL
                    List.of(Statistic.MEAN, Statistic.MEDIAN, Statistic.P99)),
                Note.kit(
                    "Latencies in ms. An embeddings request generates nothing: its one"
                        + " latency is its E2EL (vLLM's pooling block; see docs/metrics.md in"
                        + " gatling-llm-bench)."),
                steadyTable(a))));
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
                      m.totalInputTokens(),
                      f2(m.requestThroughput()),
                      f2(m.totalTokenThroughput())));
            });
    return new Table(
        "Serving Benchmark Result (pooling)",
        List.of("Level", "C", "OK", "KO", "Duration (s)", "Input tokens", "Req/s", "Input tok/s"),
        rows);
  }

  private static Table steadyTable(RunAnalysis a) {
    List<List<Object>> rows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              SteadyState s = l.steady();
              rows.add(
                  s.reached()
                      ? row(
                          name,
                          f1(s.windowStartS()) + " \u2192 " + f1(s.windowEndS()),
                          f1(s.windowS()),
                          s.observedPeak(),
                          s.completedInWindow(),
                          f2(s.requestThroughput()),
                          f2(s.inputThroughput()))
                      : row(name, "not reached", "", s.observedPeak(), "", "", ""));
            });
    return new Table(
        "Steady-State Metrics",
        List.of(
            "Level",
            "Window (s)",
            "Length (s)",
            "Observed peak",
            "Completed in window",
            "Req/s",
            "Input tok/s"),
        rows);
  }
}
