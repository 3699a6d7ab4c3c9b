package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class GatesTest {

  private static final GateMetric TPOT_P99 =
      new GateMetric.Latency(new LatencyFigure(Metric.TPOT, Statistic.P99));

  private static LevelFigures figures(double tpotP99, double failedPct, double outTps) {
    return new LevelFigures(
        Map.of(
            TPOT_P99,
            tpotP99,
            GateMetric.FAILED_PCT,
            failedPct,
            GateMetric.OUTPUT_THROUGHPUT,
            outTps));
  }

  private static RunFigures run(Map<String, LevelFigures> levels) {
    return new RunFigures(levels, Optional.empty());
  }

  /** A level whose P99 TPOT was measured in each of these trials. */
  private static LevelFigures trials(double... tpotP99) {
    double geo = Math.exp(Arrays.stream(tpotP99).map(Math::log).average().orElseThrow());
    return new LevelFigures(
        Map.of(TPOT_P99, geo, GateMetric.FAILED_PCT, 0.0),
        Map.of(TPOT_P99, TrialValues.of(tpotP99)));
  }

  private static GateResult checkOne(
      Map<String, String> gates, LevelFigures now, LevelFigures baseline) {
    return checkOne(gates, now, baseline, GateNoise.NONE);
  }

  private static GateResult checkOne(
      Map<String, String> gates, LevelFigures now, LevelFigures baseline, GateNoise noise) {
    List<GateResult> results =
        GateCheck.check(
            GateSet.parse(gates, "-Dgate."),
            run(Map.of("c8", now)),
            run(Map.of("c8", baseline)),
            noise);
    assertEquals(1, results.size(), results.toString());
    return results.get(0);
  }

  @Test
  void aRelativeGateOnTrialsFailsOnlyWhenTheDataSaysWorseThanTheThreshold() {
    LevelFigures base = trials(10.0, 10.4, 9.7, 10.1, 9.9);
    Map<String, String> tenPct = Map.of("tpot.p99", "+10%");
    GateResult slower = checkOne(tenPct, trials(12.9, 13.3, 12.6, 13.1, 12.8), base);
    assertEquals(GateVerdict.FAIL, slower.verdict(), slower.line());
    assertFalse(slower.pass());
    assertTrue(slower.line().contains("ratio to baseline 1.29"), slower.line());
    // the runs' own trials alone: the verdict stands, but it states no error rate
    assertTrue(slower.line().contains("from the trials' spread alone"), slower.line());
    assertTrue(slower.line().contains("error rates unknown"), slower.line());
    assertFalse(slower.line().contains("false alarm"), slower.line());

    GateResult same = checkOne(tenPct, trials(10.2, 9.8, 10.0, 10.3, 9.9), base);
    assertEquals(GateVerdict.PASS, same.verdict(), same.line());

    // two noisy trials a side, 8% slower: neither within 10% nor beyond it with 95% confidence
    GateNoise declared = GateNoise.declared(0.01);
    GateResult unsure = checkOne(tenPct, trials(10.0, 11.6), trials(9.5, 10.5), declared);
    assertEquals(GateVerdict.INCONCLUSIVE, unsure.verdict(), unsure.line());
    assertTrue(unsure.pass(), "inconclusive passes by default");
    assertTrue(unsure.line().startsWith("INCONCLUSIVE c8"), unsure.line());
    // the power statement replaces "trials would resolve it": the two error rates, the noise's
    // source, the smallest regression caught and the trials a side that would give the power
    assertTrue(
        unsure.line().contains("judged at false alarm 5%, a +10.0% change passes at most 10%;"),
        unsure.line());
    assertTrue(
        unsure
            .line()
            .contains(
                "noise: run-to-run noise declared by -Dgate.run.noise=0.010, not measured by the"
                    + " kit; log sd 0.090 between trials"),
        unsure.line());
    assertTrue(
        unsure.line().contains("smallest regression caught with power 90%: +"), unsure.line());
    assertTrue(unsure.line().contains("trials a side"), unsure.line());
    assertTrue(unsure.line().contains("warning: a relative gate on a percentile"), unsure.line());
    GateResult strict =
        checkOne(
            Map.of("tpot.p99", "+10%", "inconclusive", "fail"),
            trials(10.0, 11.6),
            trials(9.5, 10.5),
            declared);
    assertEquals(GateVerdict.INCONCLUSIVE, strict.verdict());
    assertFalse(strict.pass(), "-Dgate.inconclusive=fail");

    String xml = GatesXml.of(List.of(slower, same, unsure), "gates");
    assertTrue(xml.contains("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), xml);
    assertTrue(xml.contains("<system-out>ratio to baseline 1.29"), xml);
    assertTrue(xml.contains("judged at false alarm 5%, a +10.0% change passes at most 10%"), xml);
  }

  @Test
  void anAbsoluteGateJudgesTheIntervalAndAFigureWithoutOneItsValue() {
    GateResult within = checkOne(Map.of("tpot.p99", "12"), trials(10.0, 10.2, 9.9), trials(1, 1));
    assertEquals(GateVerdict.PASS, within.verdict(), within.line());
    GateResult over = checkOne(Map.of("tpot.p99", "9"), trials(10.0, 10.2, 9.9), trials(1, 1));
    assertEquals(GateVerdict.FAIL, over.verdict(), over.line());
    assertTrue(
        over.line().contains("judged at false alarm 5% (an absolute limit: one-sided bounds"),
        over.line());
    // one value and no interval: judged on the value, as before trials
    GateResult plain = checkOne(Map.of("tpot.p99", "9"), figures(10, 0, 100), figures(1, 0, 1));
    assertEquals(GateVerdict.FAIL, plain.verdict());
    assertEquals(null, plain.judgement());
    // a higher confidence needs more data to say either
    GateResult sure =
        checkOne(
            Map.of("tpot.p99", "10.3", "confidence", "0.999"),
            trials(10.0, 10.2, 9.9),
            trials(1, 1));
    assertEquals(GateVerdict.INCONCLUSIVE, sure.verdict(), sure.line());
  }

  @Test
  void theJudgingSettingsAreCheckedLikeAnyGate() {
    assertEquals(
        "Invalid gate -Dgate.confidence=2: expected a number between 0.5 and 1, e.g. 0.95",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("confidence", "2"), "-Dgate."))
            .getMessage());
    assertEquals(
        "Invalid gate -Dgate.inconclusive=maybe: expected pass or fail",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("inconclusive", "maybe"), "-Dgate."))
            .getMessage());
    GateSet set = GateSet.parse(Map.of("confidence", "0.9", "tpot.p99", "3"), "-Dgate.");
    assertEquals(new GateSet.Judging(0.9, true, 0.9, false), set.judging());
    assertEquals(1, set.gates().size(), "no gate named confidence");
    assertEquals(set.judging(), set.withDefaultFailedPct().judging());
  }

  @Test
  void parsesLevelsMetricsAndRelativeLimits() {
    GateSet set =
        GateSet.parse(
            Map.of("tpot.p99", "300", "c128.failed.pct", "1", "output_throughput.min", "-5%"),
            "-Dgate.");
    assertEquals(3, set.gates().size());
    assertTrue(set.needsBaseline());
    Gate failed =
        set.gates().stream()
            .filter(g -> g.metric() == GateMetric.FAILED_PCT)
            .findFirst()
            .orElseThrow();
    assertEquals(Level.closed(128), failed.level());
    assertTrue(failed.upperBound());
    Gate out =
        set.gates().stream()
            .filter(g -> g.metric() == GateMetric.OUTPUT_THROUGHPUT)
            .findFirst()
            .orElseThrow();
    assertFalse(out.upperBound());
    assertTrue(out.limit().relative());
  }

  @Test
  void unknownGatesAndBadLimitsAreOneLine() {
    String unknown =
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("tpot.p100", "3"), "-Dgate."))
            .getMessage();
    assertTrue(
        unknown.startsWith(
            "Unknown gate -Dgate.tpot.p100=3: expected [LEVEL.]METRIC with METRIC one of"),
        unknown);
    assertEquals(
        "Invalid gate -Dgate.ttft.p99=fast: expected a number, or a change from the baseline like +10%",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("ttft.p99", "fast"), "-Dgate."))
            .getMessage());
    assertEquals(
        "Gate -Dgate.goodput.* needs the objectives: -Dgate.goodput=ttft:MS tpot:MS e2el:MS ttfo:MS task:MS",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("goodput.pct", "90"), "-Dgate."))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("goodput", "ttft=5"), "-Dgate."))
            .getMessage()
            .startsWith("Invalid gate -Dgate.goodput=ttft=5: expected objectives like ttft:500"));
  }

  @Test
  void checksEveryLevelAgainstAbsoluteAndBaselineLimits() {
    GateSet set = GateSet.parse(Map.of("tpot.p99", "300", "output_throughput.min", "-10%"), "");
    Map<String, LevelFigures> levels = new LinkedHashMap<>();
    levels.put("c8", figures(250, 0, 95));
    levels.put("c16", figures(320, 0, 170));
    RunFigures baseline = run(Map.of("c8", figures(240, 0, 100), "c16", figures(300, 0, 200)));
    List<GateResult> results = GateCheck.check(set, run(levels), baseline);
    assertEquals(4, results.size());
    GateResult tpotC16 = find(results, "c16", "tpot.p99");
    assertFalse(tpotC16.pass());
    assertTrue(tpotC16.line().startsWith("FAIL c16      tpot.p99"), tpotC16.line());
    assertTrue(tpotC16.line().contains("(+6.7% over the limit)"), tpotC16.line());
    assertTrue(find(results, "c8", "tpot.p99").pass());
    GateResult outC8 = find(results, "c8", "output_throughput.min"); // 95 >= 100 x 0.9
    assertTrue(outC8.pass());
    assertEquals(90.0, outC8.limit(), 1e-9);
    GateResult outC16 = find(results, "c16", "output_throughput.min"); // 170 < 180
    assertFalse(outC16.pass());
    assertEquals(180.0, outC16.limit(), 1e-9);
  }

  @Test
  void aFigureTheRunDidNotProduceFails() {
    GateSet set = GateSet.parse(Map.of("c64.tpot.p99", "300"), "");
    List<GateResult> results =
        GateCheck.check(set, run(Map.of("c8", figures(1, 0, 1))), RunFigures.NONE);
    assertEquals(1, results.size());
    assertFalse(results.get(0).pass());
    assertTrue(results.get(0).line().contains("not measured"));
  }

  @Test
  void goodputAsVllmDefinesIt() {
    GoodputSpec spec =
        GateSet.parse(Map.of("goodput", "ttft:100 tpot:10"), "").goodput().orElseThrow();
    RequestRecord good = TestRecords.ok("c1").ttft(90).tpot(9).outputTokens(10).build();
    RequestRecord slowFirst = TestRecords.ok("c1").ttft(120).tpot(9).outputTokens(10).build();
    RequestRecord oneToken = TestRecords.ok("c1").ttft(50).outputTokens(1).build();
    RequestRecord failed = TestRecords.failed("c1", "HTTP 500").status(500).build();
    assertEquals(2, spec.goodCount(List.of(good, slowFirst, oneToken, failed)));
  }

  @Test
  void junitXmlParsesAndCounts() throws Exception {
    GateSet set = GateSet.parse(Map.of("tpot.p99", "300", "failed.pct", "1"), "");
    List<GateResult> results =
        GateCheck.check(set, run(Map.of("c<8>", figures(320, 0, 1))), RunFigures.NONE);
    String xml = GatesXml.of(results, "gates & co");
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    var suite = doc.getDocumentElement();
    assertEquals("testsuite", suite.getTagName());
    assertEquals("gates & co", suite.getAttribute("name"));
    assertEquals("2", suite.getAttribute("tests"));
    assertEquals("1", suite.getAttribute("failures"));
    assertEquals(2, doc.getElementsByTagName("testcase").getLength());
    assertEquals(1, doc.getElementsByTagName("failure").getLength());
  }

  private static GateResult find(List<GateResult> results, String level, String metric) {
    return results.stream()
        .filter(r -> r.level().equals(level) && r.gate().metric().key().equals(metric))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void serverFiguresAreGatesToo() {
    GateSet set =
        GateSet.parse(
            Map.of(
                "server.preemptions",
                "0",
                "c8.server.waiting_mean",
                "0.5",
                "server.ttft_mean_ms",
                "+10%"),
            "-Dgate.");
    assertEquals(3, set.gates().size());
    Gate preemptions =
        set.gates().stream()
            .filter(g -> g.metric().equals(new GateMetric.Server(CommonServerFigures.PREEMPTIONS)))
            .findFirst()
            .orElseThrow();
    assertTrue(preemptions.upperBound());
    assertEquals("", preemptions.unit());
    Gate ttft =
        set.gates().stream()
            .filter(g -> g.metric().equals(new GateMetric.Server(CommonServerFigures.TTFT_MEAN_MS)))
            .findFirst()
            .orElseThrow();
    assertEquals("ms", ttft.unit());
    assertTrue(ttft.limit().relative());
    String unknown =
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("server.queue", "1"), "-Dgate."))
            .getMessage();
    assertTrue(
        unknown.startsWith("Unknown gate -Dgate.server.queue=1")
            && unknown.contains("server.waiting_mean"),
        unknown);
    // a figure the server does not report fails its gate as not measured, never passes as 0
    RunFigures notReported =
        run(
            Map.of(
                "c8",
                new LevelFigures(
                    Map.of(new GateMetric.Server(CommonServerFigures.PREEMPTIONS), Double.NaN))));
    GateResult r = GateCheck.check(set, notReported, RunFigures.NONE).get(0);
    assertFalse(r.pass());
    assertTrue(r.line().endsWith("measured not measured"), r.line());
  }

  @Test
  void gatePowerAndFamilyAreParsedWithOneLineErrors() {
    assertEquals(
        "Invalid gate -Dgate.power=1.2: expected a number above 0.5 and below 1, e.g. 0.9",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("power", "1.2"), "-Dgate."))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> GateSet.parse(Map.of("power", "0.5"), "-Dgate."));
    assertThrows(
        IllegalArgumentException.class, () -> GateSet.parse(Map.of("power", "high"), "-Dgate."));
    assertEquals(
        "Invalid gate -Dgate.family=holm: expected bonferroni or none",
        assertThrows(
                IllegalArgumentException.class,
                () -> GateSet.parse(Map.of("family", "holm"), "-Dgate."))
            .getMessage());
    GateSet set = GateSet.parse(Map.of("power", "0.8", "family", "bonferroni"), "-Dgate.");
    assertEquals(new GateSet.Judging(0.95, true, 0.8, true), set.judging());
    assertEquals(0.9, GateSet.parse(Map.of(), "-Dgate.").judging().power());
    // the power changes the verdict: at 80% the same noise decides what 99% leaves open
    LevelFigures base = trials(10.0, 10.4, 9.7, 10.1, 9.9);
    LevelFigures now = trials(10.3, 10.6, 10.0, 10.5, 10.2);
    GateNoise quiet = GateNoise.declared(0.005);
    GateResult low = checkOne(Map.of("tpot.p99", "+5%", "power", "0.8"), now, base, quiet);
    GateResult high = checkOne(Map.of("tpot.p99", "+5%", "power", "0.99"), now, base, quiet);
    assertTrue(low.line().contains("a +5.0% change passes at most 20%"), low.line());
    assertTrue(high.line().contains("a +5.0% change passes at most 1%"), high.line());
    assertTrue(
        low.verdict() != high.verdict() || low.line().contains("smallest regression"),
        low.line() + "\n" + high.line());
  }

  @Test
  void aRunOfManyGatesSaysItsFamilyWiseFalseAlarmOrControlsIt() {
    LevelFigures base = trials(10.0, 10.4, 9.7, 10.1, 9.9);
    LevelFigures now = trials(10.2, 9.8, 10.0, 10.3, 9.9);
    Map<String, LevelFigures> levels = Map.of("c8", now, "c16", now, "c32", now);
    Map<String, LevelFigures> baseLevels = Map.of("c8", base, "c16", base, "c32", base);
    GateNoise declared = GateNoise.declared(0.02);
    // without a run-to-run noise the gates' false alarms are unknown: no family-wise figure
    List<GateResult> blind =
        GateCheck.check(
            GateSet.parse(Map.of("tpot.p99", "+20%"), "-Dgate."), run(levels), run(baseLevels));
    assertTrue(GateCheck.familyLine(blind).isEmpty(), blind.toString());
    String uncalibrated = GateCheck.uncalibratedLine(blind).orElseThrow();
    assertTrue(uncalibrated.startsWith("Uncalibrated: 3 relative gates x levels"), uncalibrated);
    assertFalse(uncalibrated.contains("false alarm"), uncalibrated);
    assertTrue(GatesXml.of(blind, "gates").contains("<property name=\"uncalibrated\""));
    List<GateResult> plain =
        GateCheck.check(
            GateSet.parse(Map.of("tpot.p99", "+20%"), "-Dgate."),
            run(levels),
            run(baseLevels),
            declared);
    assertTrue(GateCheck.uncalibratedLine(plain).isEmpty(), plain.toString());
    String line = GateCheck.familyLine(plain).orElseThrow();
    // 3 levels at 5%: 1 - 0.95^3 = 14.3%, Bonferroni 15%
    assertTrue(line.contains("3 gates x levels"), line);
    assertTrue(line.contains("14.3%"), line);
    assertTrue(line.contains("15%"), line);
    assertEquals(0.95, plain.get(0).judgement().confidence(), 1e-12);
    List<GateResult> held =
        GateCheck.check(
            GateSet.parse(Map.of("tpot.p99", "+20%", "family", "bonferroni"), "-Dgate."),
            run(levels),
            run(baseLevels),
            declared);
    assertEquals(1 - 0.05 / 3, held.get(0).judgement().confidence(), 1e-12);
    assertTrue(held.get(0).line().contains("false alarm 1.67%"), held.get(0).line());
    assertTrue(GateCheck.familyLine(held).orElseThrow().contains("at most 5%"));
    assertTrue(GatesXml.of(held, "gates").contains("<property name=\"family-wise\""));
    // one gate at one level: no family line
    assertTrue(
        GateCheck.familyLine(
                GateCheck.check(
                    GateSet.parse(Map.of("c8.tpot.p99", "+20%"), "-Dgate."),
                    run(levels),
                    run(baseLevels),
                    declared))
            .isEmpty());
  }

  @Test
  void aNoiseFromHistoryJudgesOneRunASideAndTheGateSaysWhereItCameFrom() {
    LevelFigures base = trials(10.0);
    LevelFigures slower = trials(12.0);
    Map<String, String> gate = Map.of("tpot.p99", "+10%");
    // no noise known: the ratio's value decides, and the line says why
    GateResult value =
        GateCheck.check(
                GateSet.parse(gate, "-Dgate."), run(Map.of("c8", slower)), run(Map.of("c8", base)))
            .get(0);
    assertEquals(GateVerdict.FAIL, value.verdict());
    assertTrue(
        value.line().contains("one trial a side, judged on the ratio's value"), value.line());
    assertTrue(
        value.line().contains("error rates unknown: run-to-run noise unknown"), value.line());
    assertTrue(
        !value.line().contains("passes at most"), "a value has no error rates: " + value.line());
    assertFalse(value.line().contains("false alarm"), value.line());
    // history: 30 runs of log sd 0.02 between runs and 0.03 between trials
    Noise history = new Noise(Noise.Source.HISTORY, 0.0004, 0.0009, 60, 30, 90);
    GateNoise known = GateNoise.of(Map.of(GateNoise.key("c8", TPOT_P99), history));
    GateResult judged =
        GateCheck.check(
                GateSet.parse(gate, "-Dgate."),
                run(Map.of("c8", slower)),
                run(Map.of("c8", base)),
                known)
            .get(0);
    assertEquals(GateVerdict.FAIL, judged.verdict(), judged.line());
    assertTrue(judged.line().contains("noise: history: 30 runs, 90 trials, df 60"), judged.line());
    GateResult same =
        GateCheck.check(
                GateSet.parse(gate, "-Dgate."),
                run(Map.of("c8", trials(10.1))),
                run(Map.of("c8", base)),
                known)
            .get(0);
    assertEquals(GateVerdict.PASS, same.verdict(), same.line());
  }

  @Test
  void beforeTheLoadEachRelativeGateSaysWhetherThePlannedTrialsCanDecideIt() {
    Map<String, String> gates = Map.of("tpot.p99", "+10%");
    LevelFigures steady = trials(10.0, 10.1, 9.95, 10.05, 10.0);
    RunGates quiet =
        new RunGates(
            GateSet.parse(gates, "-Dgate."),
            Optional.of("base"),
            run(Map.of("c8", steady)),
            GateNoise.declared(0.01));
    String can = quiet.plan(5).get(0);
    assertTrue(can.startsWith("c8 tpot.p99 +10.0%: 5 trials against the baseline's 5 can"), can);
    assertTrue(can.contains("(false alarm 5%, a +10.0% change passes at most 10%)"), can);
    assertTrue(can.contains("); smallest regression caught with power 90%: +"), can);
    assertTrue(
        can.contains(
            "noise: run-to-run noise declared by -Dgate.run.noise=0.010, not measured by the kit;"
                + " log sd 0.00"),
        can);
    assertTrue(can.contains("warning: a relative gate on a percentile under 20%"), can);
    // the baseline's own trials alone: no error rate planned, and the line says what is missing
    RunGates blind =
        new RunGates(
            GateSet.parse(gates, "-Dgate."),
            Optional.of("base"),
            run(Map.of("c8", steady)),
            GateNoise.NONE);
    String unknown = blind.plan(5).get(0);
    assertTrue(
        unknown.startsWith(
            "c8 tpot.p99 +10.0%: 5 trials against the baseline's 5: run-to-run noise unknown:"
                + " trials measure a run's own spread, not how far two runs differ"),
        unknown);
    StoredBaselineRunNoiseTest.assertSaysRunNoiseUnknown(unknown);
    RunGates noisy =
        new RunGates(
            GateSet.parse(gates, "-Dgate."),
            Optional.of("base"),
            run(Map.of("c8", trials(10.0, 12.0, 8.5, 11.0, 9.0))),
            GateNoise.declared(0.05));
    String cannot = noisy.plan(3).get(0);
    assertTrue(cannot.contains("3 trials against the baseline's 5 cannot decide it"), cannot);
    // the run-to-run term does not shrink with trials: none up to the cap would decide
    assertTrue(cannot.contains("no number of trials a side up to 100"), cannot);
    RunGates oneRun =
        new RunGates(
            GateSet.parse(gates, "-Dgate."),
            Optional.of("base"),
            run(Map.of("c8", trials(10.0))),
            GateNoise.NONE);
    assertTrue(
        oneRun.plan(1).get(0).contains("the gate can't be planned"), oneRun.plan(1).toString());
    assertTrue(oneRun.plan(5).get(0).contains("the bases differ"), oneRun.plan(5).toString());
    oneRun.plan(1).forEach(l -> assertFalse(l.contains("false alarm"), l));
    oneRun.plan(5).forEach(l -> assertFalse(l.contains("false alarm"), l));
    assertTrue(
        new RunGates(
                GateSet.parse(Map.of("tpot.p99", "300"), "-Dgate."),
                Optional.empty(),
                RunFigures.NONE,
                GateNoise.NONE)
            .plan(5)
            .isEmpty(),
        "no relative gate, nothing to plan");
  }
}
