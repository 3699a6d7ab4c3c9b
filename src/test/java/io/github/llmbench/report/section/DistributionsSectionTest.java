package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.BackToBackLevels.T;
import static io.github.llmbench.report.section.BackToBackLevels.generating;
import static io.github.llmbench.report.section.BackToBackLevels.pooled;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.summary.RunInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A one-level run's latency distributions, a chart per latency, as data. */
class DistributionsSectionTest {

  /** 10 requests, each a TTFT of 50 ms then 3 gaps of 10 ms. */
  private static final RunAnalysis ONE_LEVEL =
      BackToBackLevels.analysis(generating("c2", 2, T, 50, 10));

  private static List<Chart> charts(RunAnalysis a) {
    return SectionRows.of(new DistributionsSection(), a, RunInfo.NONE).charts();
  }

  private static Chart chart(String id) {
    return charts(ONE_LEVEL).stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void aGeneratingLevelHasTtftTpotAndItlCurves() {
    assertEquals(
        List.of("llm-chart-dist-ttft", "llm-chart-dist-tpot", "llm-chart-dist-itl"),
        charts(ONE_LEVEL).stream().map(Chart::id).toList());
    assertTrue(charts(ONE_LEVEL).stream().allMatch(c -> c.kind().equals("distribution")));
  }

  @Test
  void aCurvesTitleCountsItsRequestsAndItlsItsGaps() {
    assertEquals(
        "TTFT: share at or under a latency (10 requests)",
        chart("llm-chart-dist-ttft").spec().get("title"));
    assertEquals(
        "ITL: share at or under a latency (30 gaps between chunks)",
        chart("llm-chart-dist-itl").spec().get("title"));
    assertEquals("TPOT", chart("llm-chart-dist-tpot").spec().get("metric"));
  }

  @Test
  void everyPointOfAConstantLatencyIsAtThatLatencyAndThePercentsRise() {
    @SuppressWarnings("unchecked")
    List<double[]> points = (List<double[]>) chart("llm-chart-dist-itl").spec().get("points");
    assertFalse(points.isEmpty());
    for (int i = 0; i < points.size(); i++) {
      assertEquals(10.0, points.get(i)[0], 1e-9, "every gap is 10 ms");
      if (i > 0) {
        assertTrue(points.get(i)[1] > points.get(i - 1)[1], "percents ascend");
      }
    }
  }

  @Test
  void anEmbeddingsLevelHasItsE2elCurveOnly() {
    List<Chart> charts = charts(BackToBackLevels.analysis(pooled("c2", 2, T, 40, 64)));
    assertEquals(List.of("llm-chart-dist-e2el"), charts.stream().map(Chart::id).toList());
    assertEquals(
        "E2EL: share at or under a latency (10 requests)", charts.get(0).spec().get("title"));
  }

  @Test
  void theCurvesComeWithTheirNoteUnderDistributionsInTheNav() {
    SectionRows r = SectionRows.of(new DistributionsSection(), ONE_LEVEL, RunInfo.NONE);
    assertEquals(List.of("Distributions"), r.parts().stream().map(PagePart::navLabel).toList());
    assertEquals(1, r.notes().size(), r.notes()::toString);
  }

  @Test
  void aLadderHasNoDistributions() {
    assertFalse(
        new DistributionsSection()
            .appliesTo(
                BackToBackLevels.analysis(
                    generating("c2", 2, T, 50, 10), generating("c4", 4, T + 1_000, 50, 10))));
    assertTrue(new DistributionsSection().appliesTo(ONE_LEVEL));
  }
}
