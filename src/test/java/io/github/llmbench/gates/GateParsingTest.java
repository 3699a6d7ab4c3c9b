package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.analysis.ServingMetricsCalculatorTest;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A gate's key and value, and the goodput objectives, parsed into their types; each bad input's
 * one-line message.
 */
class GateParsingTest {

  private static Gate only(String key, String value) {
    List<Gate> gates = GateSet.parse(Map.of(key, value), "-Dgate.").gates();
    assertEquals(1, gates.size(), gates.toString());
    return gates.get(0);
  }

  private static String error(Map<String, String> entries) {
    return assertThrows(IllegalArgumentException.class, () -> GateSet.parse(entries, "-Dgate."))
        .getMessage();
  }

  @Test
  void everyMetricParsesBackFromItsKey() {
    List<GateMetric> all = GateMetric.all();
    assertEquals(
        LatencyFigure.ALL.size() + GateMetric.Fixed.values().length + ServerFigures.KEYS.size(),
        all.size());
    for (GateMetric m : all) {
      assertEquals(Optional.of(m), GateMetric.parse(m.key()), m.key());
      assertFalse(m.key().isBlank());
    }
    assertEquals(
        all.stream().map(GateMetric::key).sorted().toList(),
        all.stream().map(GateMetric::key).toList(),
        "in key order");
    for (String bad :
        new String[] {
          "tpot.p100",
          "tpot.p0",
          "tpot.p99.90",
          "tpot",
          "server.",
          "server.queue",
          "failed",
          "capacity",
          "goodput",
          ""
        }) {
      assertEquals(Optional.empty(), GateMetric.parse(bad), bad);
    }
  }

  @Test
  void aGateMayNameAnyPercentileOfALatency() {
    Gate itl = only("itl.p99.9", "20");
    assertEquals(
        new GateMetric.Latency(LatencyFigure.of(Metric.ITL, Statistic.percentile(99.9))),
        itl.metric());
    assertNull(itl.level());
    Gate c8 = only("c8.ttft.p95", "500");
    assertEquals(Level.closed(8), c8.level());
    assertEquals("ttft.p95", c8.metric().key());
    Gate rate = only("r2.5.e2el.p99.9", "9000");
    assertEquals(Level.open(2.5), rate.level(), "a rate's dot and the percentile's apart");
    assertEquals("e2el.p99.9", rate.metric().key());
    GateSet set =
        GateSet.parse(Map.of("itl.p99.9", "20", "c8.ttft.p95", "1", "tpot.mean", "1"), "");
    assertEquals(List.of(95.0, 99.9), set.percentiles().stream().sorted().toList());
  }

  @Test
  void aPercentileGateIsJudgedWhenItsPercentileWasComputed() {
    GateSet set = GateSet.parse(Map.of("itl.p99.9", "599"), "-Dgate.");
    RunAnalysis a =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(ServingMetricsCalculatorTest.handMadeRun())
                .rooflineHint("hint")
                .percentiles(ReportedPercentiles.of(Optional.empty(), set.percentiles()))
                .build());
    GateResult r = GateCheck.check(set, RunFigures.of(a, Optional.empty()), RunFigures.NONE).get(0);
    assertEquals(GateVerdict.FAIL, r.verdict(), r.line());
    assertEquals(599.4, r.measured(), 1e-9, "numpy's P99.9 of the ITLs");
    GateResult passes =
        GateCheck.check(
                GateSet.parse(Map.of("itl.p99.9", "600"), "-Dgate."),
                RunFigures.of(a, Optional.empty()),
                RunFigures.NONE)
            .get(0);
    assertEquals(GateVerdict.PASS, passes.verdict(), passes.line());
    // not computed: not measured, so it fails rather than passes on nothing
    RunAnalysis without =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(ServingMetricsCalculatorTest.handMadeRun())
                .rooflineHint("hint")
                .build());
    GateResult unmeasured =
        GateCheck.check(set, RunFigures.of(without, Optional.empty()), RunFigures.NONE).get(0);
    assertTrue(Double.isNaN(unmeasured.measured()), unmeasured.line());
    assertEquals(GateVerdict.FAIL, unmeasured.verdict());
  }

  @Test
  void eachMetricKnowsItsUnitAndWhichWayIsWorse() {
    GateMetric tpot = GateMetric.parse("tpot.p99").orElseThrow();
    assertEquals(new GateMetric.Latency(new LatencyFigure(Metric.TPOT, Statistic.P99)), tpot);
    assertEquals("ms", tpot.unit());
    assertTrue(tpot.upperBound());
    assertTrue(GateMetric.FAILED_PCT.upperBound());
    assertEquals("%", GateMetric.FAILED_PCT.unit());
    for (GateMetric better :
        List.of(
            GateMetric.OUTPUT_THROUGHPUT,
            GateMetric.STEADY_OUTPUT_THROUGHPUT,
            GateMetric.GOODPUT,
            GateMetric.GOODPUT_PCT,
            GateMetric.CAPACITY)) {
      assertFalse(better.upperBound(), better.key());
    }
    assertEquals("tok/s", GateMetric.OUTPUT_THROUGHPUT.unit());
    assertEquals("req/s", GateMetric.GOODPUT.unit());
    assertEquals("%", GateMetric.GOODPUT_PCT.unit());
    assertEquals("", GateMetric.CAPACITY.unit());
    assertEquals(
        List.of(GateMetric.GOODPUT, GateMetric.GOODPUT_PCT),
        GateMetric.all().stream().filter(GateMetric::needsGoodput).toList());
    GateMetric power = GateMetric.parse("server.gpu_power_w_mean").orElseThrow();
    assertEquals("W", power.unit());
    assertTrue(power.upperBound());
    assertThrows(
        IllegalArgumentException.class,
        () -> new GateMetric.Server(new ServerFigure("queue", "", "queue")));
    // an objective's figure is the gate metric of the same name
    for (SloFigure f : SloFigure.ALL) {
      assertEquals(f.key(), GateMetric.of(f).key());
    }
  }

  @Test
  void levelsAreParsedAsLevelsARatesDotIncluded() {
    Gate rate = only("r2.5.tpot.p99", "300");
    assertEquals(Level.open(2.5), rate.level());
    assertEquals("tpot.p99", rate.metric().key());
    assertEquals("r2.5.tpot.p99", rate.name());
    Gate steady = only("c8.steady.output_throughput.min", "10");
    assertEquals(Level.closed(8), steady.level());
    assertEquals(GateMetric.STEADY_OUTPUT_THROUGHPUT, steady.metric());
    assertEquals(Level.TRACE, only("trace.failed.pct", "1").level());
    Gate everyLevel = only("steady.output_throughput.min", "10");
    assertNull(everyLevel.level());
    assertEquals("steady.output_throughput.min", everyLevel.name());
    Gate relative = only("c16.server.preemptions", "+10%");
    assertEquals(new GateMetric.Server(CommonServerFigures.PREEMPTIONS), relative.metric());
    assertEquals(new Gate.Limit(10, true), relative.limit());
    assertEquals(110.0, relative.limitAt(100), 1e-9);
    assertEquals(
        300.0, only("tpot.p99", "300").limitAt(Double.NaN), "an absolute limit needs no baseline");
    assertTrue(
        Double.isNaN(relative.limitAt(Double.NaN)),
        "a relative one without the baseline's figure has none");
  }

  @Test
  void anUnknownMetricNamesTheInputAndEveryMetric() {
    String unknown = error(Map.of("c8.tpot.p100", "3"));
    assertTrue(
        unknown.startsWith(
            "Unknown gate -Dgate.c8.tpot.p100=3: expected [LEVEL.]METRIC with METRIC one of capacity.min, "
                + "client.cpu.max, client.lag.p99, e2el.mean, e2el.median, e2el.p90, e2el.p99,"
                + " energy.per_token.max, failed.pct, "),
        "in key order: " + unknown);
    for (GateMetric m : GateMetric.all()) {
      assertTrue(unknown.contains(m.key()), m.key() + " in: " + unknown);
    }
    assertTrue(unknown.endsWith(", or goodput"), unknown);
    assertFalse(unknown.contains("\n"));
    assertTrue(
        error(Map.of("server.queue", "1"))
            .startsWith("Unknown gate -Dgate.server.queue=1: expected [LEVEL.]METRIC with METRIC"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("tpot", "1"), "gates.json: "))
            .getMessage()
            .startsWith("Unknown gate gates.json: tpot=1: expected"),
        "the source as given");
  }

  @Test
  void aMetricAfterWhatIsNoMeasuredLevelNamesTheLevelsAccepted() {
    String levels =
        ": expected [LEVEL.]METRIC with LEVEL a measured level: cN (closed model at concurrency N), "
            + "rR (open model at R requests/s) or trace";
    assertEquals(
        "Unknown gate -Dgate.warmup.tpot.p99=1" + levels, error(Map.of("warmup.tpot.p99", "1")));
    assertEquals(
        "Unknown gate -Dgate.c0.failed.pct=1" + levels, error(Map.of("c0.failed.pct", "1")));
    assertEquals(
        "Unknown gate -Dgate.level8.ttft.mean=1" + levels, error(Map.of("level8.ttft.mean", "1")));
  }

  @Test
  void aLimitThatIsNoNumberNamesTheInput() {
    String expected = ": expected a number, or a change from the baseline like +10%";
    assertEquals(
        "Invalid gate -Dgate.c8.ttft.p99=fast" + expected, error(Map.of("c8.ttft.p99", "fast")));
    assertEquals("Invalid gate -Dgate.failed.pct=" + expected, error(Map.of("failed.pct", "")));
    assertEquals(
        "Invalid gate -Dgate.failed.pct=Infinity" + expected,
        error(Map.of("failed.pct", "Infinity")));
    assertEquals(
        "Invalid gate -Dgate.output_throughput.min=ten%" + expected,
        error(Map.of("output_throughput.min", "ten%")));
  }

  @Test
  void goodputObjectivesAreTypedAndKeepTheirOrder() {
    GoodputSpec spec =
        GateSet.parse(Map.of("goodput", "tpot:50 ttft:500.5"), "").goodput().orElseThrow();
    Map<Metric, Double> expected = new LinkedHashMap<>();
    expected.put(Metric.TPOT, 50.0);
    expected.put(Metric.TTFT, 500.5);
    assertEquals(expected, spec.objectivesMs());
    assertEquals(
        List.of(Metric.TPOT, Metric.TTFT), List.copyOf(spec.objectivesMs().keySet()), "as given");
    assertEquals("tpot:50 ttft:500.5", spec.toString());
    assertThrows(
        IllegalArgumentException.class,
        () -> new GoodputSpec(Map.of(Metric.ITL, 5.0)),
        "no per-request ITL");
  }

  @Test
  void aTtfoObjectiveJudgesTheFirstAnswerTokenOrTheFirstTokenWithoutThinking() {
    GoodputSpec spec = GoodputSpec.parse("ttft:100 ttfo:500");
    assertEquals(500.0, spec.ttfoMs());
    assertEquals("ttft:100 ttfo:500", spec.toString());
    RequestRecord quickAnswer = TestRecords.ok("c1").ttft(50).build();
    RequestRecord thoughtLong =
        TestRecords.ok("c1").ttft(50).reasoning(new Reasoning(800_000, 30, "chunks")).build();
    RequestRecord thoughtBriefly =
        TestRecords.ok("c1").ttft(50).reasoning(new Reasoning(300_000, 10, "chunks")).build();
    RequestRecord neverAnswered =
        TestRecords.ok("c1")
            .ttft(50)
            .reasoning(new Reasoning(RequestRecord.ABSENT, 30, "chunks"))
            .build();
    assertTrue(spec.good(quickAnswer), "no thinking: its TTFO is its TTFT");
    assertFalse(spec.good(thoughtLong));
    assertTrue(spec.good(thoughtBriefly));
    assertFalse(spec.good(neverAnswered), "no answer token at all");
    assertFalse(GoodputSpec.parse("ttfo:10").good(quickAnswer));
  }

  @Test
  void badGoodputObjectivesNameTheInput() {
    String accepted =
        ": expected objectives like ttft:500 tpot:50 e2el:2000 (ms; also ttfo:MS, and task:MS for agent sessions), separated by"
            + " spaces";
    for (String bad :
        new String[] {
          "ttft=5", "itl:5", "ttft:0", "ttft:-1", "ttft:fast", "ttft", "tpot:50 ttft:NaN", "p99:5"
        }) {
      assertEquals(
          "Invalid gate -Dgate.goodput=" + bad + accepted, error(Map.of("goodput", bad)), bad);
    }
    assertEquals(
        "Gate -Dgate.goodput.* needs the objectives: -Dgate.goodput=ttft:MS tpot:MS e2el:MS ttfo:MS task:MS",
        error(Map.of("goodput.min", "2")));
    assertEquals(
        "Gate goodput.* needs the objectives: goodput=ttft:MS tpot:MS e2el:MS ttfo:MS task:MS",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("c8.goodput.pct", "90"), ""))
            .getMessage());
  }

  @Test
  void perRequestObjectivesTakeEachMetricsHighestStatistic() {
    Map<SloFigure, Double> slo = new LinkedHashMap<>();
    slo.put(new LatencyFigure(Metric.E2EL, Statistic.MEDIAN), 9000.0);
    slo.put(new LatencyFigure(Metric.TTFT, Statistic.MEAN), 3000.0);
    slo.put(new LatencyFigure(Metric.TTFT, Statistic.P99), 2000.0);
    slo.put(new LatencyFigure(Metric.ITL, Statistic.P99), 5.0);
    slo.put(SloFigure.FAILED_PCT, 1.0);
    GoodputSpec spec = GoodputSpec.perRequest(slo);
    assertEquals(
        Map.of(Metric.TTFT, 2000.0, Metric.E2EL, 9000.0),
        spec.objectivesMs(),
        "no ITL, no failures per request");
    assertEquals("ttft:2000 e2el:9000", spec.toString(), "in vLLM's order of metrics");
    assertEquals(
        "completion (no latency objective)",
        GoodputSpec.perRequest(Map.of(SloFigure.FAILED_PCT, 1.0)).toString());
  }

  @Test
  void theDefaultFailureGateIsAddedOnlyWithoutOne() {
    GateSet withDefault =
        GateSet.parse(Map.of("tpot.p99", "300"), "-Dgate.").withDefaultFailedPct();
    assertEquals(
        List.of("failed.pct", "tpot.p99"), withDefault.gates().stream().map(Gate::name).toList());
    assertTrue(withDefault.gates().get(0).byDefault());
    GateSet perLevel =
        GateSet.parse(Map.of("c8.failed.pct", "5"), "-Dgate.").withDefaultFailedPct();
    assertEquals(List.of("c8.failed.pct"), perLevel.gates().stream().map(Gate::name).toList());
  }
}
