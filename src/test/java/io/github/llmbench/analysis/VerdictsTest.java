package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class VerdictsTest {

  private static final int PAIRS = 2000;

  /** n log-normal trial figures around {@code median} with coefficient of variation cv. */
  private static TrialValues trials(Random random, int n, double median, double cv) {
    double sigma = Math.sqrt(Math.log1p(cv * cv));
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = median * Math.exp(sigma * random.nextGaussian());
    }
    return TrialValues.of(x);
  }

  @Test
  void aaPairsRarelyFailAPlusTenPercentGate() {
    Random random = new Random(2026);
    int failed = 0;
    int worse = 0;
    int better = 0;
    int throughputFailed = 0;
    for (int i = 0; i < PAIRS; i++) {
      TrialValues a = trials(random, 5, 1.3, 0.10);
      TrialValues b = trials(random, 5, 1.3, 0.10);
      if (Verdicts.relativeGate(a, b, 0.10, false, 0.95).verdict() == GateVerdict.FAIL) {
        failed++;
      }
      Change change = Verdicts.compare(a, b, false, 0.95).change();
      if (change == Change.WORSE) {
        worse++;
      } else if (change == Change.BETTER) {
        better++;
      }
      if (Verdicts.relativeGate(a, b, -0.10, true, 0.95).verdict() == GateVerdict.FAIL) {
        throughputFailed++;
      }
    }
    double failRate = failed / (double) PAIRS;
    double worseRate = worse / (double) PAIRS;
    double betterRate = better / (double) PAIRS;
    assertTrue(failRate <= 0.05, "A/A +10% gate failures " + failRate);
    assertTrue(throughputFailed / (double) PAIRS <= 0.05, "A/A -10% gate " + throughputFailed);
    // two-sided 95%: about 2.5% on each side
    assertTrue(worseRate >= 0.01 && worseRate <= 0.04, "A/A WORSE " + worseRate);
    assertTrue(betterRate >= 0.01 && betterRate <= 0.04, "A/A BETTER " + betterRate);
  }

  @Test
  void aTenPercentSlowdownFailsAFivePercentGate() {
    // The log difference's standard error is sigma * sqrt(2/5); the gate fails when b is worse
    // than a with 95% confidence (the log difference above t_{0.95, ~8} standard errors) and the
    // estimate is above 1.05: at a true 1.10 both hold nearly always at a per-trial CV of 3%
    // (se 0.019: 5 se above 0, 2.4 above log 1.05); at 6% (se 0.038) the estimate still is, the
    // significance about 2.5 se: ~75%.
    assertTrue(detection(0.02) >= 0.95, "detection at CV 2%: " + detection(0.02));
    assertTrue(detection(0.03) >= 0.95, "detection at CV 3%: " + detection(0.03));
    double atSix = detection(0.06);
    assertTrue(atSix >= 0.55 && atSix <= 0.90, "detection at CV 6%: " + atSix);
  }

  private static double detection(double cv) {
    Random random = new Random(110);
    int failed = 0;
    for (int i = 0; i < PAIRS; i++) {
      TrialValues a = trials(random, 5, 1.0, cv);
      TrialValues b = trials(random, 5, 1.10, cv);
      if (Verdicts.relativeGate(a, b, 0.05, false, 0.95).verdict() == GateVerdict.FAIL) {
        failed++;
      }
    }
    return failed / (double) PAIRS;
  }

  @Test
  void twoNoisyTrialsNearTheThresholdAreInconclusive() {
    // CV ~10%, true ratio 1.08 against a +10% gate
    TrialValues a = TrialValues.of(95, 105);
    TrialValues b = TrialValues.of(95 * 1.08, 105 * 1.08);
    GateJudgement g = Verdicts.relativeGate(a, b, 0.10, false, 0.95);
    assertEquals(GateVerdict.INCONCLUSIVE, g.verdict());
    assertEquals(1.08, g.bounds().estimate(), 1e-9);
    assertTrue(g.bounds().low() < 1.10 && g.bounds().high() > 1.10, g.toString());
    assertEquals(0.90, g.bounds().confidence(), 1e-12);
    assertEquals(1.10, g.limit(), 1e-12);
    assertTrue(
        g.trialsNeeded() > 2 && g.trialsNeeded() <= Verdicts.MAX_TRIALS_NEEDED, g.toString());
    assertEquals(Change.NO_DETECTABLE_DIFFERENCE, Verdicts.compare(a, b, false, 0.95).change());

    // and on random draws: mostly inconclusive, never with fewer than 3 trials needed
    Random random = new Random(8);
    int inconclusive = 0;
    for (int i = 0; i < 200; i++) {
      GateJudgement r =
          Verdicts.relativeGate(
              trials(random, 2, 1.0, 0.10), trials(random, 2, 1.08, 0.10), 0.10, false, 0.95);
      if (r.verdict() == GateVerdict.INCONCLUSIVE) {
        inconclusive++;
        assertTrue(r.trialsNeeded() > 2, r.toString());
      } else {
        assertEquals(0, r.trialsNeeded());
      }
    }
    assertTrue(inconclusive >= 150, "inconclusive " + inconclusive);
  }

  @Test
  void ratioIsTheRatioOfGeometricMeansWithAWelchInterval() {
    TrialValues a = TrialValues.of(100, 110, 121);
    TrialValues b = TrialValues.of(200, 220, 242, 200 * 1.1 * 1.1 * 1.1);
    Interval r = Verdicts.ratio(a, b, 0.95);
    double gb = Math.exp((Math.log(200) * 4 + Math.log(1.1) * 6) / 4);
    assertEquals(gb / 110.0, r.estimate(), 1e-9);
    assertEquals(Interval.Basis.TRIALS, r.basis());
    assertTrue(r.low() < r.estimate() && r.estimate() < r.high());
    Comparison c = Verdicts.compare(a, b, false, 0.95);
    assertEquals(Change.WORSE, c.change());
    assertEquals(Change.BETTER, Verdicts.compare(a, b, true, 0.95).change());
    assertTrue(c.minimumDetectableRatio() > 1.0, c.toString());
    assertEquals(Change.BETTER, Verdicts.compare(b, a, false, 0.95).change());
  }

  @Test
  void identicalTrialsGiveSaneVerdicts() {
    TrialValues a = TrialValues.of(100, 100, 100);
    Comparison same = Verdicts.compare(a, TrialValues.of(100, 100, 100), false, 0.95);
    assertEquals(1.0, same.ratio().low(), 1e-12);
    assertEquals(1.0, same.ratio().high(), 1e-12);
    assertEquals(Change.NO_DETECTABLE_DIFFERENCE, same.change());
    assertEquals(1.0, same.minimumDetectableRatio(), 1e-12);
    TrialValues slower = TrialValues.of(120, 120, 120);
    assertEquals(Change.WORSE, Verdicts.compare(a, slower, false, 0.95).change());
    GateJudgement fail = Verdicts.relativeGate(a, slower, 0.10, false, 0.95);
    assertEquals(GateVerdict.FAIL, fail.verdict());
    assertEquals(0, fail.trialsNeeded());
    assertEquals(
        GateVerdict.PASS,
        Verdicts.relativeGate(a, TrialValues.of(105, 105, 105), 0.10, false, 0.95).verdict());
    assertEquals( // exactly at the limit: within it
        GateVerdict.PASS,
        Verdicts.relativeGate(a, TrialValues.of(110, 110, 110), 0.10, false, 0.95).verdict());
    assertEquals(GateVerdict.PASS, Verdicts.absoluteGate(a, 100.0, false, 0.95).verdict());
    assertEquals(GateVerdict.FAIL, Verdicts.absoluteGate(a, 99.0, false, 0.95).verdict());
  }

  @Test
  void oneTrialWithoutWithinRunDataIsNotJudged() {
    TrialValues one = TrialValues.of(100);
    TrialValues five = TrialValues.of(100, 101, 99, 100, 102);
    Interval r = Verdicts.ratio(one, five, 0.95);
    assertEquals(Interval.Basis.NONE, r.basis());
    assertTrue(r.estimate() > 1.0 && r.estimate() < 1.01);
    Comparison c = Verdicts.compare(one, five, false, 0.95);
    assertEquals(Change.NO_DETECTABLE_DIFFERENCE, c.change());
    assertTrue(Double.isNaN(c.minimumDetectableRatio()));
    GateJudgement g = Verdicts.relativeGate(five, one, 0.10, false, 0.95);
    assertEquals(GateVerdict.INCONCLUSIVE, g.verdict());
    assertEquals(Interval.Basis.NONE, g.bounds().basis());
    assertEquals(0, g.trialsNeeded());
    assertEquals(GateVerdict.INCONCLUSIVE, Verdicts.absoluteGate(one, 50, false, 0.95).verdict());
  }

  @Test
  void oneTrialRunsAreJudgedOnTheirWithinRunIntervals() {
    Random random = new Random(3);
    double[] runA = new double[5000];
    double[] runB = new double[5000];
    for (int i = 0; i < runA.length; i++) {
      runA[i] = Math.exp(3.0 + 0.3 * random.nextGaussian());
      runB[i] = 1.3 * Math.exp(3.0 + 0.3 * random.nextGaussian());
    }
    Interval pa = Intervals.percentile(runA, 0.99, 0.95);
    Interval pb = Intervals.percentile(runB, 0.99, 0.95);
    TrialValues a = TrialValues.single(pa.estimate(), pa);
    TrialValues b = TrialValues.single(pb.estimate(), pb);
    Comparison c = Verdicts.compare(a, b, false, 0.95);
    assertEquals(Interval.Basis.WITHIN_RUN, c.ratio().basis());
    assertEquals(Change.WORSE, c.change(), c.toString());
    assertTrue(c.ratio().contains(1.3), c.toString());
    assertTrue(c.minimumDetectableRatio() > 1.0 && c.minimumDetectableRatio() < 1.3, c.toString());
    assertEquals(
        GateVerdict.FAIL, Verdicts.relativeGate(a, b, 0.10, false, 0.95).verdict(), c.toString());
    // a limit just above the estimate: within it, but not with 95% confidence
    double justAbove = c.ratio().estimate() * 1.005 - 1;
    GateJudgement within = Verdicts.relativeGate(a, b, justAbove, false, 0.95);
    assertEquals(GateVerdict.INCONCLUSIVE, within.verdict(), within.toString());
    assertEquals(0, within.trialsNeeded()); // no trial spread to estimate from

    // a P99 of too few requests: no upper bound, so it can fail a gate but never pass one
    double[] few = new double[200];
    for (int i = 0; i < few.length; i++) {
      few[i] = 300 + i;
    }
    Interval open = Intervals.percentile(few, 0.99, 0.95);
    TrialValues thin = TrialValues.single(open.estimate(), open);
    assertEquals(GateVerdict.FAIL, Verdicts.absoluteGate(thin, 250, false, 0.95).verdict());
    assertEquals(
        GateVerdict.INCONCLUSIVE, Verdicts.absoluteGate(thin, 10_000, false, 0.95).verdict());
    Comparison vsOpen = Verdicts.compare(thin, thin, false, 0.95);
    assertEquals(Double.POSITIVE_INFINITY, vsOpen.ratio().high());
    assertEquals(Double.POSITIVE_INFINITY, vsOpen.minimumDetectableRatio());
  }

  @Test
  void absoluteGateJudgesTheIntervalAndEstimatesTrials() {
    TrialValues tpot = TrialValues.of(290, 295, 300, 305, 310);
    assertEquals(GateVerdict.PASS, Verdicts.absoluteGate(tpot, 400, false, 0.95).verdict());
    assertEquals(GateVerdict.FAIL, Verdicts.absoluteGate(tpot, 250, false, 0.95).verdict());
    GateJudgement close = Verdicts.absoluteGate(tpot, 305, false, 0.95);
    assertEquals(GateVerdict.INCONCLUSIVE, close.verdict());
    assertTrue(close.trialsNeeded() > 5 && close.trialsNeeded() < Verdicts.MAX_TRIALS_NEEDED);
    GateJudgement atLimit = Verdicts.absoluteGate(TrialValues.of(290, 310), 300, false, 0.95);
    assertEquals(Verdicts.MAX_TRIALS_NEEDED, atLimit.trialsNeeded()); // the estimate sits on it
    // throughput: higher is better, the limit is a minimum
    TrialValues tokS = TrialValues.of(4095, 4288, 4107, 4652, 4545, 4768);
    assertEquals(GateVerdict.PASS, Verdicts.absoluteGate(tokS, 3500, true, 0.95).verdict());
    assertEquals(GateVerdict.FAIL, Verdicts.absoluteGate(tokS, 5500, true, 0.95).verdict());
    assertEquals(GateVerdict.INCONCLUSIVE, Verdicts.absoluteGate(tokS, 4400, true, 0.95).verdict());
    assertThrows(
        IllegalArgumentException.class, () -> Verdicts.absoluteGate(tpot, 300, false, 0.5));
    assertThrows(
        IllegalArgumentException.class, () -> Verdicts.relativeGate(tpot, tpot, -1.0, true, 0.95));
  }
}
