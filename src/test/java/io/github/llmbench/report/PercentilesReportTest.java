package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.analysis.ServingMetricsCalculatorTest;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.LevelFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.page.LlmPage;
import io.github.llmbench.report.section.Numbers;
import io.github.llmbench.report.section.ServingResultBlock;
import io.github.llmbench.report.section.ServingResultBlockTest;
import io.github.llmbench.report.section.SteadyStateBlock;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code -Dpercentiles}: the rows of the blocks, the summary's fields and the page's tables. */
class PercentilesReportTest {

  private static final long T = 1_700_000_000_000L;

  /** {@code -Dpercentiles=50,95,99.9} as the settings read it. */
  private static ReportedPercentiles asked(List<Double> needed) {
    List<Double> asked =
        BenchSettings.from(Map.of("percentiles", "50,95,99.9"), k -> null)
            .report()
            .percentiles()
            .orElseThrow();
    return ReportedPercentiles.of(Optional.of(asked), needed);
  }

  @Test
  void theResultBlockPrintsMeanMedianAndEachPercentileAsVllm() {
    ServingMetrics m =
        ServingMetricsCalculator.compute(
            ServingMetricsCalculatorTest.handMadeRun(), 4, asked(List.of()));
    List<String> out =
        ServingResultBlock.format(m, "Serving Benchmark Result (c4)").lines().toList();
    List<String> c4 = ServingResultBlockTest.HAND_MADE_C4_BLOCK;
    List<String> expected = new ArrayList<>(c4.subList(0, 13)); // up to the TTFT header
    // numpy's figures of the same values (np.percentile, "{:<40} {:<10.2f}")
    expected.addAll(
        List.of(
            "Mean TTFT (ms):                          362.50    ",
            "Median TTFT (ms):                        350.00    ",
            "P50 TTFT (ms):                           350.00    ",
            "P95 TTFT (ms):                           485.00    ",
            "P99.9 TTFT (ms):                         499.70    ",
            c4.get(17),
            "Mean TPOT (ms):                          268.33    ",
            "Median TPOT (ms):                        225.00    ",
            "P50 TPOT (ms):                           225.00    ",
            "P95 TPOT (ms):                           472.50    ",
            "P99.9 TPOT (ms):                         499.45    ",
            c4.get(22),
            "Mean ITL (ms):                           335.71    ",
            "Median ITL (ms):                         300.00    ",
            "P50 ITL (ms):                            300.00    ",
            "P95 ITL (ms):                            570.00    ",
            "P99.9 ITL (ms):                          599.40    ",
            c4.get(27),
            "Mean E2EL (ms):                          950.00    ",
            "Median E2EL (ms):                        825.00    ",
            "P50 E2EL (ms):                           825.00    ",
            "P95 E2EL (ms):                           1757.50   ",
            "P99.9 E2EL (ms):                         1897.15   ",
            c4.get(32)));
    assertEquals(expected, out.subList(0, out.size() - 1)); // the estimated note last
  }

  @Test
  void aPercentileOnlyAGateNamesIsComputedNotPrinted() {
    ServingMetrics m =
        ServingMetricsCalculator.compute(
            ServingMetricsCalculatorTest.handMadeRun(),
            4,
            ReportedPercentiles.of(Optional.empty(), List.of(99.9)));
    List<String> out =
        ServingResultBlock.format(m, "Serving Benchmark Result (c4)").lines().toList();
    assertEquals(ServingResultBlockTest.HAND_MADE_C4_BLOCK, out.subList(0, out.size() - 1));
    assertEquals(599.4, m.itl().value(Statistic.percentile(99.9)), 1e-9);
  }

  /** Two requests in flight for 20 s, TTFT 100 to 139 ms: a steady window. */
  private static List<RequestRecord> steadyRun() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rs.add(
          TestRecords.ok("c2")
              .start(T + (i / 2) * 1000L)
              .end(T + (i / 2) * 1000L + 1000)
              .ttft(100 + i)
              .tpot(10 + i % 5)
              .outputTokens(10)
              .build());
    }
    return rs;
  }

  private static RunAnalysis analysis(ReportedPercentiles p) {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(steadyRun()).rooflineHint("hint").percentiles(p).build());
  }

  @Test
  void theSteadyStateBlockFollowsTheSettingAndKeepsItsOwnRowsWithout() {
    RunAnalysis a = analysis(asked(List.of()));
    SteadyState s = a.levels().get("c2").steady();
    assertTrue(s.reached());
    List<String> rows =
        SteadyStateBlock.format(s, null, a.percentiles())
            .lines()
            .filter(l -> l.contains("TTFT (ms)") || l.contains("TPOT (ms)"))
            .map(l -> l.substring(0, l.indexOf(" (ms)")))
            .toList();
    assertEquals(
        List.of(
            "Mean TTFT",
            "Median TTFT",
            "P50 TTFT",
            "P95 TTFT",
            "P99.9 TTFT",
            "Mean TPOT",
            "Median TPOT",
            "P50 TPOT",
            "P95 TPOT",
            "P99.9 TPOT"),
        rows);
    assertTrue(
        SteadyStateBlock.format(s, null, a.percentiles())
            .contains(
                "P99.9 TTFT (ms):                    "
                    + Numbers.f2(s.ttft().value(Statistic.percentile(99.9)))));
    // without the setting: the seed's rows, TTFT's P99 before P90, TPOT's P90 before P99
    RunAnalysis plain = analysis(ReportedPercentiles.DEFAULT);
    List<String> own =
        SteadyStateBlock.format(plain.levels().get("c2").steady(), null)
            .lines()
            .filter(l -> l.startsWith("P"))
            .map(l -> l.substring(0, l.indexOf(" (ms)")))
            .toList();
    assertEquals(List.of("P99 TTFT", "P90 TTFT", "P90 TPOT", "P99 TPOT"), own);
  }

  @Test
  void theSummaryHasEachPercentileAsVllmNamesItAndABaselineReadsThemBack() throws Exception {
    RunAnalysis a = analysis(asked(List.of(99.5)));
    Summary read = Summary.parse(Summary.of(a, RunInfo.NONE).toJson());
    LevelSummary c2 = read.levels().get("c2");
    LatencyFigure ttft999 = LatencyFigure.of(Metric.TTFT, Statistic.percentile(99.9));
    double expected = a.levels().get("c2").serving().ttft().value(Statistic.percentile(99.9));
    assertEquals(expected, c2.figures().latency(ttft999), 1e-9);
    String json = Summary.of(a, RunInfo.NONE).toJson();
    for (String field :
        new String[] {
          "\"p50_ttft_ms\"",
          "\"p95_itl_ms\"",
          "\"p99.9_e2el_ms\"",
          "\"p90_tpot_ms\"",
          "\"p99_tpot_ms\"",
          "\"p99.5_ttft_ms\""
        }) {
      assertTrue(json.contains(field), field);
    }
    assertTrue(c2.steadyState().latency(ttft999) > 0, "the steady window's P99.9 TTFT");
    // a baseline's figures: the percentile a gate names, even one the blocks did not show
    LevelFigures baseline = LevelFigures.ofSummary(c2);
    assertEquals(
        c2.figures().latency(LatencyFigure.of(Metric.ITL, Statistic.percentile(99.5))),
        baseline.get(GateMetric.parse("itl.p99.5").orElseThrow()));
    assertTrue(baseline.get(GateMetric.parse("itl.p99.5").orElseThrow()) > 0);
    // without the setting, no field besides the kit's own
    String plain = Summary.of(analysis(ReportedPercentiles.DEFAULT), RunInfo.NONE).toJson();
    assertFalse(plain.contains("p50_ttft_ms") || plain.contains("p99.9"), plain);
  }

  @Test
  void thePageHasARowPerLevelAndMetricWithAColumnPerStatistic() {
    String page = LlmPage.html(analysis(asked(List.of())), RunInfo.NONE, null, "run");
    assertTrue(page.contains("<span>P99.9</span></th>"), "a P99.9 column");
    assertTrue(page.contains("<span>Metric</span></th>"));
    String plain = LlmPage.html(analysis(ReportedPercentiles.DEFAULT), RunInfo.NONE, null, "run");
    assertFalse(plain.contains("P99.9"));
    assertTrue(plain.contains("P90 TTFT"), "the default columns");
  }
}
