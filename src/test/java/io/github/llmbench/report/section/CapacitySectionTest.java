package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CapacitySectionTest {
  private static final SloFigure TTFT_P99 = new LatencyFigure(Metric.TTFT, Statistic.P99);
  private static final RunAnalysis NO_RECORDS = BackToBackLevels.analysis(List.of());

  @Test
  void theAnswerAndThinP99ProbesAreSaid() {
    List<CapacitySearch.Objective> slo = List.of(new CapacitySearch.Objective(TTFT_P99, 2000));
    CapacitySearch s = new CapacitySearch(8, 64, 0.1, true);
    List<CapacitySearch.Probe> probes =
        List.of(
            CapacitySearch.judge(8, Map.of(TTFT_P99, 900.0), slo),
            CapacitySearch.judge(16, Map.of(TTFT_P99, 2400.0), slo));
    String block =
        CapacitySection.format(s.verdict(probes), search(false), Optional.empty(), NO_RECORDS);
    assertTrue(
        block.contains(
            "Capacity:  not bracketed (out of time, -Dsearch.budget): c8 met every objective; c16 broke ttft.p99 2400.00 > 2000.00 (+20.0%)"),
        block);
    assertTrue(block.contains("Probes:    c8 met (0 requests), c16 broke (0 requests)"), block);
    assertTrue(
        block.contains("! P99 objectives judged on fewer than 100 requests (c8: 0, c16: 0)"),
        block);
    assertEquals(
        "none: the lowest level probed, c8, broke ttft.p99 2400.00 > 2000.00 (+20.0%) (lower -Dsearch.min)",
        CapacitySection.sentence(
            s.verdict(List.of(CapacitySearch.judge(8, Map.of(TTFT_P99, 2400.0), slo))), false));
  }

  private static SearchSettings search(boolean rate) {
    return new SearchSettings(rate, Map.of(TTFT_P99, 2000.0), 1, 64, 0.1, 30);
  }

  /** A level of requests, each with this TTFT, over 10 s. */
  private static List<RequestRecord> level(String level, double... ttfts) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < ttfts.length; i++) {
      long start = 1_700_000_000_000L + i * 10_000L / ttfts.length;
      rs.add(
          TestRecords.ok(level)
              .id(level + "-" + i)
              .start(start)
              .end(start + (long) ttfts[i] + 500)
              .ttft(ttfts[i])
              .e2el(ttfts[i] + 500)
              .outputTokens(2)
              .build());
    }
    return rs;
  }

  @Test
  @SuppressWarnings("unchecked")
  void aRateSearchNamesItsLevelsByRateAndGivesTheGoodputAtTheCapacity() {
    List<CapacitySearch.Objective> slo = List.of(new CapacitySearch.Objective(TTFT_P99, 2000));
    CapacitySearch s = new CapacitySearch(2.5, 64, 0.1, false);
    List<CapacitySearch.Probe> probes =
        List.of(
            CapacitySearch.judge(2.5, Map.of(TTFT_P99, 900.0), slo),
            CapacitySearch.judge(2.75, Map.of(TTFT_P99, 2400.0), slo));
    List<RequestRecord> records =
        new ArrayList<>(level("r2.5", 100, 1900, 2100, 2500)); // 2 of 4 within 2000 ms
    records.addAll(level("r2.75", 3000, 3000));
    RunAnalysis a = BackToBackLevels.analysis(records);
    CapacitySearch.Verdict v = s.verdict(probes);
    String block = CapacitySection.format(v, search(true), Optional.empty(), a);
    assertTrue(
        block.contains("Capacity:  r2.5 meets every objective; r2.75 broke ttft.p99"), block);
    double throughput = a.levels().get("r2.5").serving().requestThroughput();
    assertTrue(
        block.contains(
            String.format(
                Locale.ROOT,
                "Goodput:   at r2.5, %.2f req/s of %.2f (50.0%% of requests meet ttft:2000, from -Dslo)",
                throughput / 2,
                throughput)),
        block);
    CapacityFigures json = CapacitySection.figures(v, search(true), Optional.empty(), a);
    assertTrue(json.overRates());
    assertEquals(throughput / 2, json.requestGoodputAtCapacity(), 1e-9);
    assertEquals(2.75, json.probes().get(1).load());
    // -Dgate.goodput's objectives, when set, are the run's goodput: the capacity's too
    GoodputSpec gate =
        GoodputSpec.perRequest(Map.of(new LatencyFigure(Metric.TTFT, Statistic.MEAN), 2200.0));
    assertTrue(
        CapacitySection.format(v, search(true), Optional.of(gate), a)
            .contains("(75.0% of requests meet ttft:2200, from -Dgate.goodput)"));
  }

  /**
   * A concurrency search that met at c10 and broke at c11; c10's four requests spread over 10.5 s
   * with TTFTs 100, 1900, 2100, 2500 ms: 2 of them within ttft.p99's 2000 ms.
   */
  private static RunInfo searched() {
    List<CapacitySearch.Objective> slo = List.of(new CapacitySearch.Objective(TTFT_P99, 2000));
    CapacitySearch.Verdict v =
        new CapacitySearch(10, 64, 0.1, true)
            .verdict(
                List.of(
                    CapacitySearch.judge(10, Map.of(TTFT_P99, 1900.0), slo),
                    CapacitySearch.judge(11, Map.of(TTFT_P99, 2400.0), slo)));
    List<RequestRecord> records = new ArrayList<>(level("c10", 100, 1900, 2100, 2500));
    records.addAll(level("c11", 3000, 3000));
    RunAnalysis a = BackToBackLevels.analysis(records);
    return RunInfo.NONE.withCapacity(
        CapacitySection.figures(v, search(false), Optional.empty(), a));
  }

  private static SectionRows page(RunInfo info) {
    return SectionRows.of(new CapacitySection(), NO_RECORDS, info);
  }

  @Test
  void thePageHeadingIsTheAnswer() {
    assertEquals(
        List.of(
            "Capacity at SLO: c10 meets every objective; c11 broke ttft.p99 2400.00 > 2000.00"
                + " (+20.0%)"),
        page(searched()).headings());
  }

  @Test
  void thePageNotesTheGoodputAtTheCapacity() {
    // 2 good requests over the level's 10.5 s (its first send to its last end)
    assertEquals(
        List.of(
            String.format(
                Locale.ROOT,
                "Goodput at the capacity: %.2f req/s meeting ttft:2000 per request (from -Dslo),"
                    + " 50.0%% of its requests.",
                2 / 10.5)),
        page(searched()).notes());
  }

  @Test
  void thePageHasAChartPerObjective() {
    List<Chart> charts = page(searched()).charts();
    assertEquals(1, charts.size());
    assertEquals("llm-chart-capacity-0", charts.get(0).id());
    assertEquals("capacity", charts.get(0).kind());
    assertEquals("ttft.p99", charts.get(0).spec().get("metric"));
  }

  @Test
  void thePageHasNoTable() {
    assertTrue(page(searched()).tables().isEmpty());
  }

  @Test
  void aRunThatWasNoSearchGetsNothing() {
    assertTrue(page(RunInfo.NONE).parts().isEmpty());
    Map<String, Object> data = new LinkedHashMap<>();
    new CapacitySection().putChartData(NO_RECORDS, RunInfo.NONE, data);
    assertTrue(data.isEmpty());
  }
}
