package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculatorTest;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.TestReports;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The figures gates are checked on: computed once from the analysis, written to and read back from
 * summary.json.
 */
class RunFiguresTest {
  private static final double EPS = 1e-9;

  /**
   * ServingMetricsCalculatorTest's hand-made level c4 (TTFT 400, 300, 250, 500 ms; one failed), and
   * a level c8 of two slow requests.
   */
  private static RunAnalysis analysis() {
    List<RequestRecord> records = new ArrayList<>(ServingMetricsCalculatorTest.handMadeRun());
    long t = 1_700_000_100_000L;
    records.add(
        RequestRecord.builder()
            .id("s1")
            .level("c8")
            .startMs(t)
            .endMs(t + 3000)
            .ttftMs(1000.0)
            .tpotMs(100.0)
            .e2elMs(3000.0)
            .itlMs(List.of(100.0))
            .inputTokens(10)
            .outputTokens(2)
            .ok(true)
            .httpStatus(200)
            .build());
    records.add(
        RequestRecord.builder()
            .id("s2")
            .level("c8")
            .startMs(t + 500)
            .endMs(t + 3200)
            .ttftMs(1200.0)
            .tpotMs(90.0)
            .e2elMs(2700.0)
            .itlMs(List.of(90.0))
            .inputTokens(10)
            .outputTokens(2)
            .ok(true)
            .httpStatus(200)
            .build());
    return RunAnalysis.of(RunAnalysis.Inputs.builder(records).rooflineHint("hint").build());
  }

  private static GoodputSpec goodput(String objectives) {
    return GateSet.parse(Map.of(GoodputSpec.KEY, objectives), "").goodput().orElseThrow();
  }

  private static GateMetric latency(Metric m, Statistic s) {
    return new GateMetric.Latency(new LatencyFigure(m, s));
  }

  @Test
  void eachLevelsFiguresAreItsAnalysisUnderTheGatesMetrics() {
    RunAnalysis a = analysis();
    RunFigures run = RunFigures.of(a, Optional.empty());
    assertEquals(List.of("c4", "c8"), List.copyOf(run.levels().keySet()));
    for (String level : run.levels().keySet()) {
      ServingMetrics m = a.levels().get(level).serving();
      for (LatencyFigure f : LatencyFigure.ALL) {
        assertEquals(
            m.latency(f.metric()).value(f.statistic()),
            run.level(level).get(new GateMetric.Latency(f)),
            EPS,
            level + " " + f);
      }
      assertEquals(m.outputThroughput(), run.level(level).get(GateMetric.OUTPUT_THROUGHPUT), EPS);
    }
    LevelFigures c4 = run.level("c4");
    // the calculator's test works these out by hand: TTFT p99 497, mean 362.5; TPOT [80, 225, 500]
    // median 225
    assertEquals(497.0, c4.get(latency(Metric.TTFT, Statistic.P99)), EPS);
    assertEquals(362.5, c4.get(latency(Metric.TTFT, Statistic.MEAN)), EPS);
    assertEquals(225.0, c4.get(latency(Metric.TPOT, Statistic.MEDIAN)), EPS);
    assertEquals(20.0, c4.get(GateMetric.FAILED_PCT), EPS, "1 of 5 failed");
    assertEquals(0.0, run.level("c8").get(GateMetric.FAILED_PCT), EPS);
    // without objectives there is no goodput, and no steady window in levels this short
    assertTrue(Double.isNaN(c4.get(GateMetric.GOODPUT)));
    assertTrue(Double.isNaN(c4.get(GateMetric.STEADY_OUTPUT_THROUGHPUT)));
    assertTrue(
        Double.isNaN(c4.get(new GateMetric.Server(CommonServerFigures.PREEMPTIONS))),
        "no server metrics read");
    assertTrue(run.goodput().isEmpty());
    assertTrue(
        Double.isNaN(run.level("c64").get(GateMetric.FAILED_PCT)), "a level the run does not have");
  }

  @Test
  void goodputIsCountedPerLevelBeforeTheSummaryIsBuilt() throws Exception {
    RunAnalysis a = analysis();
    // c4's ok requests: r1 (TTFT 400, TPOT 500), r2 (300, 80), r3 (250, one token: no TPOT), r5
    // (500, 225); r4 failed
    RunFigures ttftOnly = RunFigures.of(a, Optional.of(goodput("ttft:400")));
    double c4Duration = a.levels().get("c4").serving().durationS();
    assertEquals(3 / c4Duration, ttftOnly.level("c4").get(GateMetric.GOODPUT), EPS, "r1, r2, r3");
    assertEquals(60.0, ttftOnly.level("c4").get(GateMetric.GOODPUT_PCT), EPS, "3 of 5");
    assertEquals(
        0.0, ttftOnly.level("c8").get(GateMetric.GOODPUT_PCT), EPS, "c8's requests are all slower");
    RunFigures both = RunFigures.of(a, Optional.of(goodput("ttft:400 tpot:100")));
    assertEquals(
        40.0, both.level("c4").get(GateMetric.GOODPUT_PCT), EPS, "r2, and r3 with no TPOT");

    Summary summary =
        RunReport.of(
                a,
                TestReports.info(
                    Map.of("model_id", "m", "goodput_objectives", "ttft:400 tpot:100")))
            .withGoodput(both.goodput())
            .summary();
    JsonNode c4 = new ObjectMapper().readTree(summary.toJson()).path("levels").path("c4");
    List<String> c4Fields = new ArrayList<>();
    c4.fieldNames().forEachRemaining(c4Fields::add);
    assertEquals(
        List.of("failures", "request_goodput", "goodput_pct"),
        c4Fields.subList(c4Fields.indexOf("failures"), c4Fields.indexOf("failures") + 3),
        "after the level's own blocks: " + c4Fields);
    assertTrue(
        c4Fields.contains("steady_state")
            && c4Fields.indexOf("steady_state") < c4Fields.indexOf("request_goodput"));
    assertEquals(
        both.level("c4").get(GateMetric.GOODPUT), summary.levels().get("c4").requestGoodput(), EPS);
    assertEquals("ttft:400 tpot:100", summary.run().goodputObjectives());
    assertNull(RunReport.of(a, RunInfo.NONE).summary().run().goodputObjectives());
    assertNull(RunReport.of(a, RunInfo.NONE).summary().levels().get("c4").requestGoodput());
  }

  @Test
  void aBaselineReadFromTheSummaryHasTheRunsOwnFigures() throws Exception {
    RunAnalysis a = analysis();
    RunFigures run = RunFigures.of(a, Optional.of(goodput("ttft:400")));
    Summary written = RunReport.of(a, RunInfo.NONE).withGoodput(run.goodput()).summary();
    Map<String, LevelSummary> levels = Summary.parse(written.toJson()).levels();
    for (String level : run.levels().keySet()) {
      LevelFigures read = LevelFigures.ofSummary(levels.get(level));
      for (GateMetric m : GateMetric.all()) {
        if (m == GateMetric.CAPACITY) {
          continue; // a search's figure, not a level's
        }
        double ours = run.level(level).get(m);
        double theirs = read.get(m);
        assertTrue(
            Double.isNaN(ours) ? Double.isNaN(theirs) : Math.abs(ours - theirs) < 1e-6,
            level + " " + m + ": " + ours + " vs " + theirs);
      }
    }
    assertTrue(
        Double.isNaN(
            LevelFigures.ofSummary(levels.get("c4")).get(GateMetric.STEADY_OUTPUT_THROUGHPUT)),
        "no steady window reached: none read, not its 0");
  }

  @Test
  void theCapacityIsTheSearchsFigureNotALevels() {
    RunFigures run =
        RunFigures.of(analysis(), Optional.empty())
            .withCapacity(Optional.of(new RunFigures.Capacity(36, false)));
    assertEquals(36.0, run.figure(GateMetric.CAPACITY, GateCheck.SEARCH_LEVEL));
    assertTrue(Double.isNaN(run.figure(GateMetric.CAPACITY, "c4")));
    assertEquals(
        run.level("c4").get(GateMetric.FAILED_PCT), run.figure(GateMetric.FAILED_PCT, "c4"));
    GateSet gates = GateSet.parse(Map.of("capacity.min", "-10%", "failed.pct", "25"), "");
    RunFigures baseline = new RunFigures(Map.of(), Optional.of(new RunFigures.Capacity(40, false)));
    List<GateResult> results = GateCheck.check(gates, run, baseline);
    assertEquals(
        List.of("search capacity.min", "c4 failed.pct", "c8 failed.pct"),
        results.stream().map(r -> r.level() + " " + r.gate().metric().key()).toList());
    GateResult capacity = results.get(0);
    assertEquals(36.0, capacity.limit(), EPS, "40 less 10%");
    assertTrue(capacity.pass());
    assertTrue(
        GateCheck.check(gates, RunFigures.of(analysis(), Optional.empty()), baseline)
            .get(0)
            .line()
            .contains("not measured"),
        "a search that found no capacity");
  }

  @Test
  void aProbesSteadyWindowReplacesOnlyTheMetricGiven() {
    LevelFigures level = RunFigures.of(analysis(), Optional.empty()).level("c4");
    LatencyStats steady = LatencyStats.of(List.of(10.0, 20.0, 30.0));
    LevelFigures probe = level.withLatency(Metric.TTFT, steady);
    for (Statistic s : Statistic.STANDARD) {
      assertEquals(steady.value(s), probe.get(latency(Metric.TTFT, s)), EPS, s.key());
      assertEquals(level.get(latency(Metric.TPOT, s)), probe.get(latency(Metric.TPOT, s)), s.key());
    }
    assertEquals(
        level,
        level.withLatency(Metric.TTFT, LatencyStats.EMPTY),
        "a window without requests changes nothing");
    Map<SloFigure, Double> slo = probe.slo();
    assertEquals(SloFigure.ALL, List.copyOf(slo.keySet()));
    assertEquals(20.0, slo.get(new LatencyFigure(Metric.TTFT, Statistic.MEDIAN)), EPS);
    assertEquals(20.0, slo.get(SloFigure.FAILED_PCT), EPS);
  }
}
