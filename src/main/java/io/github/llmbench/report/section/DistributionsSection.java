package io.github.llmbench.report.section;

import io.github.llmbench.analysis.LatencyCdf;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Metric;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A one-level run's latency distributions: TTFT, TPOT and ITL (per chunk gap) as cumulative curves,
 * an embeddings run's E2EL; what helps a run that has no ladder to draw against concurrency. Page
 * only: the console's result block has the percentiles.
 */
final class DistributionsSection implements ReportSection {

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().size() == 1;
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    metrics(a).forEach(m -> items.add(chart(LatencyCdf.of(m, a.records()))));
    items.add(
        Note.kit(
            "Each curve: the share of the level's completed requests (for ITL, of its gaps between"
                + " chunks) whose latency is at or under a value; its right end is the slowest."));
    return List.of(new PagePart("llm-distributions", "Distributions", items));
  }

  /** What a level's requests have: an embeddings request generates nothing, its latency is E2EL. */
  private static List<Metric> metrics(RunAnalysis a) {
    return a.figures().generates()
        ? List.of(Metric.TTFT, Metric.TPOT, Metric.ITL)
        : List.of(Metric.E2EL);
  }

  private static String chartId(Metric m) {
    return "llm-chart-dist-" + m.name().toLowerCase(Locale.ROOT);
  }

  private static Chart chart(LatencyCdf cdf) {
    return Chart.of(chartId(cdf.metric()), "distribution")
        .with(
            "title",
            cdf.metric().label()
                + ": share at or under a latency ("
                + cdf.count()
                + (cdf.metric() == Metric.ITL ? " gaps between chunks)" : " requests)"))
        .with("metric", cdf.metric().label())
        .with(
            "points", cdf.points().stream().map(p -> new double[] {p.ms(), p.percent()}).toList());
  }
}
