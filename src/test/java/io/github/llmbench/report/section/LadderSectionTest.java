package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.BackToBackLevels.T;
import static io.github.llmbench.report.section.BackToBackLevels.generating;
import static io.github.llmbench.report.section.BackToBackLevels.pooled;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.settings.Images;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ladder's verdicts and charts against concurrency (or images), as data. */
class LadderSectionTest {

  /** Output tok/s in the steady windows: c2 100 (80 ms a request), c4 200 (80 ms), c8 133.33. */
  private static final RunAnalysis LADDER =
      BackToBackLevels.analysis(
          generating("c2", 2, T, 50, 10),
          generating("c4", 4, T + 1_000, 50, 10),
          generating("c8", 8, T + 2_000, 150, 30));

  private static SectionRows rows(RunAnalysis a, RunInfo info) {
    return SectionRows.of(new LadderSection(), a, info);
  }

  @SuppressWarnings("unchecked")
  private static <V> V chartData(String key) {
    Map<String, Object> d = new LinkedHashMap<>();
    new LadderSection().putChartData(LADDER, RunInfo.NONE, d);
    return (V) d.get(key);
  }

  @Test
  void aOneLevelRunHasNoLadder() {
    assertFalse(
        new LadderSection().appliesTo(BackToBackLevels.analysis(generating("c2", 2, T, 50, 10))));
    assertTrue(new LadderSection().appliesTo(LADDER));
  }

  @Test
  void theVerdictsNameTheSaturationLevelAndItsThroughputOnTheSteadyBasis() {
    SectionRows r = rows(LADDER, RunInfo.NONE);
    assertEquals(
        List.of("llm-verdicts", "llm-ladder"), r.parts().stream().map(PagePart::anchor).toList());
    assertTrue(
        r.bullets()
            .contains(
                "Saturation at c4: its 200 tok/s is the highest output throughput of the ladder."),
        r.bullets()::toString);
  }

  @Test
  void aGeneratingLadderChartsThroughputTpotAndTtftAgainstConcurrency() {
    List<Chart> charts = rows(LADDER, RunInfo.NONE).charts();
    assertEquals(
        List.of("llm-chart-throughput", "llm-chart-tpot", "llm-chart-ttft"),
        charts.stream().map(Chart::id).toList());
    assertEquals(
        "Output throughput against concurrency (steady state)", charts.get(0).spec().get("title"));
    assertEquals(
        List.of("out", "tpot", "ttftP99"), charts.stream().map(c -> c.spec().get("key")).toList());
  }

  @Test
  void eachLadderPointHasItsConcurrencyThroughputTpotAndP99Ttft() {
    List<Map<String, Object>> points = chartData("ladder");
    assertEquals(List.of(2, 4, 8), points.stream().map(p -> p.get("c")).toList());
    assertEquals(8 * 4 / 0.24, (double) points.get(2).get("out"), 1e-6);
    assertEquals(30.0, (double) points.get(2).get("tpot"), 1e-9);
    assertEquals(150.0, (double) points.get(2).get("ttftP99"), 1e-9);
  }

  @Test
  void theSaturationAndPowerMarkersAreTheLevelOfHighestThroughput() {
    assertEquals(Map.of("level", "c4", "c", 4), chartData("saturation"));
    assertEquals(Map.of("level", "c4", "c", 4), chartData("power")); // 200 tok/s in 80 ms
    assertEquals("steady_state", chartData("basis"));
  }

  @Test
  void anEmbeddingsLadderIsJudgedOnInputThroughputAndChartsItAlone() {
    RunAnalysis a =
        BackToBackLevels.analysis(pooled("c2", 2, T, 40, 64), pooled("c4", 4, T + 1_000, 40, 64));
    List<Chart> charts = rows(a, RunInfo.NONE).charts();
    assertEquals(List.of("llm-chart-throughput"), charts.stream().map(Chart::id).toList());
    assertEquals(
        "Input throughput against concurrency (steady state)", charts.get(0).spec().get("title"));
    assertTrue(
        new LadderSection()
            .runText(a)
            .startsWith("Ladder (input throughput basis: steady state):\n"));
  }

  @Test
  void theRunsEndSaysTheBasisThenEachVerdict() {
    List<String> lines = new LadderSection().runText(LADDER).lines().toList();
    assertEquals("Ladder (output throughput basis: steady state):", lines.get(0));
    assertTrue(
        lines.contains(
            "  Saturation at c4: its 200 tok/s is the highest output throughput of the ladder."),
        lines::toString);
  }

  /** c2-img1, -img2, -img4: each image 50 ms more TTFT and 200 input tokens more. */
  private static RunAnalysis overImages() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int k : new int[] {1, 2, 4}) {
      rs.addAll(generating("c2-img" + k, 2, T + 1_000L * k, 100 + 50 * k, 10, 100 + 200 * k));
    }
    return BackToBackLevels.analysis(rs);
  }

  @Test
  void aLadderOverImagesSaysWhatEachImageAddsAndTheSetting() {
    RunInfo info = RunInfo.builder().settings(Map.of(Images.IMAGES.name(), "1,2,4")).build();
    SectionRows r = rows(overImages(), info);
    assertEquals(
        List.of(
            "Each image adds 50.0 ms to the mean TTFT and 200 input tokens (fitted over 3"
                + " levels); mean TTFT 150.0 ms at 1 image, 300.0 ms at 4.",
            "Images: 1,2,4"),
        r.bullets());
    assertEquals(
        List.of("llm-chart-images-ttft", "llm-chart-images-tokens"),
        r.charts().stream().map(Chart::id).toList());
  }
}
