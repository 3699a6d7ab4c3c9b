package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.BackToBackLevels.MODEL;
import static io.github.llmbench.report.section.BackToBackLevels.T;
import static io.github.llmbench.report.section.BackToBackLevels.generating;
import static io.github.llmbench.report.section.BackToBackLevels.onTwoRoundGpus;
import static io.github.llmbench.report.section.BackToBackLevels.pooled;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.summary.RunInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The roofline chart's box, note and data. */
class RooflineSectionTest {

  /** c2 and c4, each 100 output and 2500 input tok/s in its steady window, context 102 tokens. */
  private static final RunAnalysis TWO_LEVELS =
      onTwoRoundGpus(
          BackToBackLevels.all(
              generating("c2", 2, T, 50, 10), generating("c4", 4, T + 1_000, 100, 20)));

  @SuppressWarnings("unchecked")
  private static Map<String, Object> roofline(RunAnalysis a) {
    Map<String, Object> d = new LinkedHashMap<>();
    new RooflineSection().putChartData(a, RunInfo.NONE, d);
    return (Map<String, Object>) d.get("roofline");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> points() {
    return (List<Map<String, Object>>) roofline(TWO_LEVELS).get("points");
  }

  @Test
  void withoutAModelAndGpuOrForEmbeddingsThereIsNoRoofline() {
    RooflineSection s = new RooflineSection();
    assertFalse(s.appliesTo(BackToBackLevels.analysis(generating("c2", 2, T, 50, 10))));
    assertFalse(s.appliesTo(onTwoRoundGpus(pooled("c2", 2, T, 40, 64))));
    Map<String, Object> d = new LinkedHashMap<>();
    s.putChartData(BackToBackLevels.analysis(generating("c2", 2, T, 50, 10)), RunInfo.NONE, d);
    assertEquals(null, d.get("roofline"));
  }

  @Test
  void thePageHasTheChartAndThePrefixCacheNote() {
    SectionRows r = SectionRows.of(new RooflineSection(), TWO_LEVELS, RunInfo.NONE);
    assertEquals(List.of("llm-chart-roofline"), r.charts().stream().map(Chart::id).toList());
    assertEquals("roofline", r.charts().get(0).kind());
    // no server metrics: every prompt token counts as computed
    assertEquals(List.of(Roofline.PREFIX_CACHE_NOTE), r.notes());
  }

  @Test
  void theRoofsAreTheGpusFiguresTimesTp() {
    assertEquals(2 * 100e12, (double) roofline(TWO_LEVELS).get("peak"), 1);
    assertEquals(2 * 1e12, (double) roofline(TWO_LEVELS).get("bandwidth"), 1);
  }

  @Test
  void eachLevelHasAPointInTheOrderTheyRan() {
    assertEquals(List.of("c2", "c4"), points().stream().map(p -> p.get("level")).toList());
  }

  @Test
  void theDecodePointIsTheOutputThroughputTimesTheFlopsPerToken() {
    double f = Roofline.flopsPerToken(MODEL, 102);
    for (Map<String, Object> p : points()) {
      assertEquals(100 * f, (double) p.get("decodeFlops"), 1e-6 * f, p.toString());
    }
  }

  @Test
  void theWholePointAddsThePrefillAtHalfThePromptsContext() {
    double decode = 100 * Roofline.flopsPerToken(MODEL, 102);
    double prefill = 2500 * Roofline.flopsPerToken(MODEL, 50);
    assertEquals(decode + prefill, (double) points().get(0).get("wholeFlops"), 1e-6 * decode);
  }
}
