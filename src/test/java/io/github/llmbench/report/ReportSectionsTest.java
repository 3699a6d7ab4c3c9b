package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.page.LlmPage;
import io.github.llmbench.report.section.ReportSections;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import io.github.llmbench.testing.ThreeLevelRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportSectionsTest {

  private static final long T = 1_700_000_000_000L;

  private static RunAnalysis oneLevel() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int k = 0; k < 8; k++) {
      rs.add(
          TestRecords.ok("c4")
              .id("r" + k)
              .start(T + k * 10)
              .end(T + k * 10 + 100)
              .ttft(10.0 + k)
              .itl(4.0, 5.0, 6.0)
              .build());
    }
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(rs)
            .concurrencyByLevel(Map.of("c4", 4))
            .rooflineHint("hint")
            .build());
  }

  private static RunAnalysis threeLevels() {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(ThreeLevelRun.records()).rooflineHint("hint").build());
  }

  @Test
  void aOneLevelRunShowsItsDistributionsAndNoLadder() {
    String html = LlmPage.html(oneLevel(), RunInfo.NONE, null, "run");
    assertTrue(html.contains("href=\"#llm-distributions\""), "nav entry");
    for (String metric : List.of("ttft", "tpot", "itl")) {
      assertTrue(html.contains("id=\"llm-chart-dist-" + metric + "\""), metric);
      assertTrue(
          html.contains("{\"id\":\"llm-chart-dist-" + metric + "\",\"kind\":\"distribution\""),
          "listed in the chart data: " + metric);
    }
    assertFalse(html.contains("id=\"llm-verdicts\""), "no ladder verdicts");
    assertFalse(html.contains("id=\"llm-chart-throughput\""), "no chart against concurrency");
  }

  @Test
  void aOneLevelRunPrintsNoLadderVerdicts() {
    String end = RunReport.runEndText(oneLevel());
    assertFalse(end.contains("Ladder ("), end);
    assertTrue(end.contains("=== Levels ==="), end);
  }

  @Test
  void aLadderShowsItsVerdictsAndNoDistributions() {
    RunAnalysis a = threeLevels();
    String html = LlmPage.html(a, RunInfo.NONE, null, "run");
    assertTrue(html.contains("href=\"#llm-verdicts\""));
    assertTrue(html.contains("id=\"llm-chart-throughput\""));
    assertFalse(html.contains("llm-distributions"));
    assertFalse(html.contains("\"kind\":\"distribution\""), "no distribution in the chart list");
    assertTrue(RunReport.runEndText(a).startsWith("Ladder ("));
  }

  @Test
  void theConsoleOrdersOnlyRegisteredSections() {
    assertTrue(ReportSections.PAGE.containsAll(ReportSections.CONSOLE));
  }
}
