package io.github.llmbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.Noise;
import io.github.llmbench.gates.GateMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistoryGateTest {

  @Test
  void rulesAreParsedWithTheirDirection() {
    HistoryGate g = HistoryGate.parse("tpot.mean:+10%, output_throughput.min:-5%");
    assertEquals(
        List.of(
            new HistoryGate.Rule(GateMetric.parse("tpot.mean").orElseThrow(), 10),
            new HistoryGate.Rule(GateMetric.OUTPUT_THROUGHPUT, -5)),
        g.rules());
  }

  @Test
  void badRulesAreOneLineNamingTheEntry() {
    assertEquals(
        "Invalid gate -Dgate.history=tpot.mean:-10%: entry 'tpot.mean:-10%': expected FIGURE:+N%"
            + " or FIGURE:-N% with a rise, +N% (N above 0): higher tpot.mean is worse",
        assertThrows(IllegalArgumentException.class, () -> HistoryGate.parse("tpot.mean:-10%"))
            .getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> HistoryGate.parse("tpot.p95:+10%"))
            .getMessage()
            .contains("FIGURE one of "));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> HistoryGate.parse("tpot.mean:10"))
            .getMessage()
            .contains("a change in percent after the colon"));
    assertThrows(
        IllegalArgumentException.class, () -> HistoryGate.parse("output_throughput.min:+10%"));
    assertThrows(IllegalArgumentException.class, () -> HistoryGate.parse(""));
  }

  /** Mean TPOTs of 20 ms with log sd 0.03, {@code regressed} runs at the end 20% slower. */
  private static double[] tpots(long seed, int runs, int regressed, double step) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] out = new double[runs];
    for (int i = 0; i < runs; i++) {
      double z =
          Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
      out[i] = 20 * Math.exp(0.03 * z) * (i >= runs - regressed ? 1 + step : 1);
    }
    return out;
  }

  private static HistoryGate.Verdict judge(double[] tpots) {
    return judge(tpots, "tpot.mean:+10%");
  }

  private static HistoryGate.Verdict judge(double[] tpots, String rule) {
    List<HistoryLine> runs = HistoryFixtures.runs(tpots);
    HistoryLine newest = runs.get(runs.size() - 1);
    List<HistoryGate.Verdict> v =
        HistoryGate.parse(rule).check(runs.subList(0, runs.size() - 1), newest);
    assertEquals(1, v.size());
    return v.get(0);
  }

  @Test
  void aRegressionFailsFromItsFirstRunWhichTheLineNames() {
    HistoryGate.Verdict v = judge(tpots(3, 20, 2, 0.20));
    assertTrue(v.judged());
    assertFalse(v.result().pass(), v.why());
    assertTrue(v.why().startsWith("c8 tpot.mean: a change of +"), v.why());
    assertTrue(
        v.why().contains("most likely started at run 19 of 20 (run-19, 2026-12-01T00:19:00Z)"),
        v.why());
    assertTrue(v.why().contains("against the run before it (run-18)"), v.why());
    assertTrue(v.why().contains("-Dcandidate.serve.cmd='<run-19's server>"), v.why());
    String confirm = judge(tpots(3, 20, 2, 0.20), "tpot.mean:+7.5%").why();
    assertTrue(confirm.endsWith(" -Dgate.tpot.mean=+7.5%"), "the rule's own threshold: " + confirm);
    assertTrue(v.result().measured() > v.result().limit(), v.result().line());
  }

  @Test
  void aStepBelowTheThresholdOrAnOldOneOrNoneAtAllPasses() {
    assertTrue(judge(tpots(3, 20, 2, 0.05)).result().pass(), "+5% is under +10%");
    assertTrue(judge(tpots(3, 20, 0, 0)).result().pass());
    assertTrue(judge(tpots(3, 20, 2, -0.20)).result().pass(), "faster is no regression");
  }

  @Test
  void aChangeThatHoldsGoesOnFailingUntilItBecomesTheReference() {
    HistoryGate.Verdict v = judge(tpots(3, 26, 6, 0.20));
    assertFalse(v.result().pass(), "the step is 6 runs old: " + v.why());
    assertTrue(v.why().contains("started at run 21 of 26"), v.why());
    assertTrue(v.why().contains("after 9 more run(s) at it"), v.why());
    HistoryGate.Verdict held = judge(tpots(3, 45, 25, 0.20));
    assertTrue(held.result().pass(), "25 runs at the new level: " + held.why());
    assertTrue(held.why().contains("reference: runs 21-"), held.why());
  }

  @Test
  void aShortSeriesIsNotJudged() {
    HistoryGate.Verdict v = judge(tpots(3, 5, 2, 0.5));
    assertFalse(v.judged());
    assertEquals(
        "c8 tpot.mean: 4 earlier run(s) at the current level, 15 needed: not judged", v.why());
  }

  @Test
  void otherKeysAreNotPartOfTheSeries() {
    List<HistoryLine> history = new ArrayList<>();
    java.util.Map<String, String> other = new java.util.HashMap<>(HistoryFixtures.SETTINGS);
    other.put("output.len", "512");
    for (int i = 0; i < 10; i++) {
      history.add(HistoryFixtures.line(i, HistoryFixtures.summary(other, "c8", 20)));
    }
    HistoryLine run =
        HistoryFixtures.line(11, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", 40));
    assertFalse(HistoryGate.parse("tpot.mean:+10%").check(history, run).get(0).judged());
  }

  @Test
  void theNoiseIsLearnedFromTheKeysRunsWithEnoughOfThem() {
    List<HistoryLine> lines = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 12; i++) {
      double run = Math.exp(0.05 * (r.nextDouble() - 0.5) * 3.46); // uniform, sd 0.05
      double[] trials = new double[5];
      for (int t = 0; t < 5; t++) {
        trials[t] = 20 * run * Math.exp(0.1 * (r.nextDouble() - 0.5) * 3.46);
      }
      lines.add(
          HistoryFixtures.line(i, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", trials)));
    }
    String key = lines.get(0).key();
    Optional<Noise> noise = HistoryNoise.of(lines, key, "c8", "tpot.mean");
    assertTrue(noise.isPresent());
    assertEquals(Noise.Source.HISTORY, noise.get().source());
    assertEquals(12, noise.get().runs());
    assertEquals(60, noise.get().trials());
    assertEquals(0.1, noise.get().trialSd(), 0.03);
    assertEquals(0.05, noise.get().runSd(), 0.04);
    assertEquals(Optional.empty(), HistoryNoise.of(lines.subList(0, 4), key, "c8", "tpot.mean"));
    assertEquals(Optional.empty(), HistoryNoise.of(lines, "another", "c8", "tpot.mean"));
    assertEquals(
        "history: 4 run(s) of this key that failed no gate, 5 needed to learn the noise; relative gates fall back to"
            + " -Dgate.run.noise where declared, else to the runs' own trials (their error rates"
            + " then unknown)",
        HistoryNoise.tooFew(lines.subList(0, 4), key));
  }

  /** Runs of 5 trials, the runs' level drifting with log sd 0.03, the trials' 0.05; then a step. */
  private static List<HistoryLine> stepHistory(int before, int after, double step, long seed) {
    List<HistoryLine> lines = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < before + after; i++) {
      double run = (i < before ? 1 : step) * Math.exp(0.03 * r.nextGaussian());
      double[] trials = new double[5];
      for (int t = 0; t < 5; t++) {
        trials[t] = 20 * run * Math.exp(0.05 * r.nextGaussian());
      }
      lines.add(
          HistoryFixtures.line(i, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", trials)));
    }
    return lines;
  }

  @Test
  void aPastStepDoesNotInflateTheNoiseOnlyTheRunsSinceItArePooled() {
    // 12 runs, then a +20% step and 8 runs at the new level: pooled over both, the step is noise
    List<HistoryLine> lines = stepHistory(12, 8, 1.2, 3);
    String key = lines.get(0).key();
    Noise noise = HistoryNoise.of(lines, key, "c8", "tpot.mean").orElseThrow();
    assertEquals(8, noise.runs(), "the runs since the step");
    assertTrue(noise.runSd() < 0.06, "the run-to-run sd of one level: " + noise.runSd());
    List<double[]> all = new ArrayList<>();
    lines.forEach(
        l ->
            all.add(
                l.trials("c8", "tpot.mean").stream().mapToDouble(Double::doubleValue).toArray()));
    double pooled = io.github.llmbench.analysis.NoiseModel.fromRuns(all, 5).orElseThrow().runSd();
    assertTrue(pooled > 0.08, "over the step the sd is the step's: " + pooled);
  }

  @Test
  void aRunThatFailedAGateIsKeptOutOfTheNoise() {
    List<HistoryLine> lines = new ArrayList<>(stepHistory(10, 0, 1, 4));
    String key = lines.get(0).key();
    int before = HistoryNoise.of(lines, key, "c8", "tpot.mean").orElseThrow().runs();
    // two runs 30% slower that failed their gates: too few to be a segment of their own
    for (HistoryLine l : stepHistory(0, 2, 1.3, 5)) {
      lines.add(l.withGatesFailed(true));
    }
    Noise noise = HistoryNoise.of(lines, key, "c8", "tpot.mean").orElseThrow();
    assertEquals(before, noise.runs(), "the failed runs left out");
    assertTrue(lines.get(11).failedGates());
    assertFalse(lines.get(0).failedGates(), "a line without the field passed");
  }
}
