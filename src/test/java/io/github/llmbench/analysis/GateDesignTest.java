package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GateDesignTest {

  private static final GateDesign.ErrorRates RATES = GateDesign.ErrorRates.of(0.95, 0.9);
  private static final GateDesign TEN_PCT = GateDesign.of(RATES, 0.10, false);
  private static final double INF = Double.POSITIVE_INFINITY;
  private static final double Z95 = 1.6448536269514722;
  private static final double Z90 = 1.2815515655446004;

  @Test
  void theDecisiveCaseSplitsAtOnePointThatHoldsBothRates() {
    double delta = Math.log(1.10);
    assertEquals(delta, TEN_PCT.delta(), 1e-15);
    double se = delta / (Z95 + Z90); // exactly decisive
    assertTrue(TEN_PCT.decisive(se, INF));
    double c = delta * Z95 / (Z95 + Z90);
    GateDesign.Outcome below = TEN_PCT.judge(c - 1e-6, se, INF);
    GateDesign.Outcome above = TEN_PCT.judge(c + 1e-6, se, INF);
    assertEquals(GateVerdict.PASS, below.verdict());
    assertEquals(GateVerdict.FAIL, above.verdict());
    assertTrue(above.decisive());
    assertEquals(c, above.failAbove(), 1e-12);
    // at the boundary c = q_a se: the false alarm is exactly alpha, the power exactly 0.9
    assertEquals(Z95 * se, c, 1e-12);
    assertEquals(delta - Z90 * se, c, 1e-12);
  }

  @Test
  void theUndecisiveCaseHoldsTheFalseAlarmFirstAndLeavesAZone() {
    double se = 0.05; // (q_a + q_b) se = 0.146 > log 1.10 = 0.095
    assertFalse(TEN_PCT.decisive(se, INF));
    GateDesign.Outcome zone = TEN_PCT.judge(0.05, se, INF);
    assertEquals(GateVerdict.INCONCLUSIVE, zone.verdict());
    assertEquals(Z95 * se, zone.failAbove(), 1e-12);
    assertEquals(Math.log(1.10) - Z90 * se, zone.passBelow(), 1e-12);
    assertEquals(GateVerdict.FAIL, TEN_PCT.judge(Z95 * se + 1e-6, se, INF).verdict());
    assertEquals(GateVerdict.PASS, TEN_PCT.judge(-0.01, se, INF).verdict());
    // the smallest regression caught with 90% power at this se: exp((z_.95 + z_.90) se) - 1
    assertEquals((Z95 + Z90) * se, zone.smallestCaught(), 1e-12);
    assertEquals("+15.8%", GateDesign.change(zone.smallestCaught(), false));
    assertEquals("-13.6%", GateDesign.change(zone.smallestCaught(), true));
  }

  @Test
  void aThroughputsThresholdIsOrientedWorse() {
    GateDesign drop = GateDesign.of(RATES, -0.10, true);
    assertEquals(-Math.log(0.90), drop.delta(), 1e-15);
    // a gate that demands an improvement keeps the one-sided-bounds rule
    GateDesign better = GateDesign.of(RATES, -0.05, false);
    assertTrue(better.delta() < 0);
    assertEquals(GateVerdict.FAIL, better.judge(0.0, 0.01, INF).verdict());
    assertEquals(GateVerdict.PASS, better.judge(-0.10, 0.01, INF).verdict());
    assertEquals(GateVerdict.INCONCLUSIVE, better.judge(-0.05, 0.01, INF).verdict());
  }

  @Test
  void ratesAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> GateDesign.ErrorRates.of(0.95, 0.5));
    assertThrows(IllegalArgumentException.class, () -> GateDesign.ErrorRates.of(0.95, 1.0));
    assertThrows(IllegalArgumentException.class, () -> GateDesign.ErrorRates.of(0.4, 0.9));
    assertThrows(IllegalArgumentException.class, () -> GateDesign.of(RATES, -1.0, false));
  }

  @Test
  void theRatesSayWhatTheDesignGuaranteesAtTheThreshold() {
    // a change of the threshold PASSes at most 1 - power whatever the noise; it FAILs with the
    // power only where the noise is decisive, so the words are not "power 90% at the threshold"
    assertEquals(
        "false alarm 5%, a +10.0% change passes at most 10%",
        GateDesign.of(RATES, 0.10, false).describeRates(false));
    assertEquals(
        "false alarm 5%, a -10.0% change passes at most 10%",
        GateDesign.of(RATES, -0.10, true).describeRates(true));
    assertEquals(
        "false alarm 2.5%, a +5.0% change passes at most 20%",
        GateDesign.of(GateDesign.ErrorRates.of(0.975, 0.8), 0.05, false).describeRates(false));
    assertEquals(
        "false alarm 5% at the threshold (-5.0%: an improvement asked, no power)",
        GateDesign.of(RATES, -0.05, false).describeRates(false));
  }

  @Test
  void aChangeOfTheThresholdPassesAtMostOneMinusPowerWhereTheNoiseLeavesAZone() {
    // se twice the decisive one: the threshold's change FAILs far less than 90%, but PASSes <= 10%
    GateDesign d = GateDesign.of(RATES, 0.10, false);
    double se = 2 * Math.log(1.10) / (d.qAlpha(INF) + d.qPower(INF));
    Random r = new Random(5);
    int pairs = 4000;
    int fail = 0;
    int pass = 0;
    for (int i = 0; i < pairs; i++) {
      GateVerdict v = d.judge(Math.log(1.10) + se * r.nextGaussian(), se, INF).verdict();
      fail += v == GateVerdict.FAIL ? 1 : 0;
      pass += v == GateVerdict.PASS ? 1 : 0;
    }
    double slack = 3 * Math.sqrt(0.1 * 0.9 / pairs);
    assertTrue(pass / (double) pairs <= 0.10 + slack, "passes " + pass);
    assertTrue(fail / (double) pairs < 0.80, "fails far less than the power: " + fail);
  }

  @Test
  void trialsToDecidePlansFromTheNoiseAndKnowsWhenRunOffsetsForbidIt() {
    // trial log sd 0.10, no run offset: n with (q_a + q_b) * 0.10 * sqrt(2/n) <= log 1.10
    Noise trials = new Noise(Noise.Source.HISTORY, 0.0, 0.01, INF, 20, 100);
    OptionalInt n = TEN_PCT.trialsToDecide(trials, 100);
    double needed = 2 * Math.pow((Z95 + Z90) * 0.10 / Math.log(1.10), 2);
    assertEquals((int) Math.ceil(needed), n.getAsInt());
    // a run offset of log sd 0.05 alone gives se >= 0.0707: (q_a + q_b) 0.0707 = 0.207 > 0.095
    Noise offsets = new Noise(Noise.Source.HISTORY, 0.0025, 0.01, INF, 20, 100);
    assertTrue(TEN_PCT.trialsToDecide(offsets, 100).isEmpty());
    // the runs' own trials: their degrees of freedom grow with n, so more trials than with known
    // noise of the same size
    Noise own = new Noise(Noise.Source.OWN_TRIALS, 0.0, 0.01, 8, 2, 10);
    assertTrue(TEN_PCT.trialsToDecide(own, 100).getAsInt() > n.getAsInt());
  }

  /**
   * With a known noise (history: infinite degrees of freedom) at exactly the decisive standard
   * error, seeded simulation of the whole gate: A/A false alarms at alpha and a change of the
   * threshold caught at the power, each within three binomial standard errors of 4000 pairs.
   */
  @Test
  void theErrorRatesHoldInSimulationAtTheDecisiveNoise() {
    int pairs = 4000;
    int trials = 5;
    double se = Math.log(1.10) / (Z95 + Z90);
    // se = sqrt(trialVar * 2 / 5)
    double trialVar = se * se * trials / 2;
    Noise known = new Noise(Noise.Source.HISTORY, 0.0, trialVar, INF, 30, 150);
    Random random = new Random(4141);
    int falseAlarms = 0;
    int caught = 0;
    int inconclusive = 0;
    for (int i = 0; i < pairs; i++) {
      TrialValues a = lognormal(random, trials, 1.0, Math.sqrt(trialVar));
      TrialValues same = lognormal(random, trials, 1.0, Math.sqrt(trialVar));
      TrialValues slower = lognormal(random, trials, 1.10, Math.sqrt(trialVar));
      GateJudgement aa = Verdicts.relativeGate(a, same, 0.10, false, RATES, Optional.of(known));
      GateJudgement ab = Verdicts.relativeGate(a, slower, 0.10, false, RATES, Optional.of(known));
      falseAlarms += aa.verdict() == GateVerdict.FAIL ? 1 : 0;
      caught += ab.verdict() == GateVerdict.FAIL ? 1 : 0;
      inconclusive += aa.verdict() == GateVerdict.INCONCLUSIVE ? 1 : 0;
      inconclusive += ab.verdict() == GateVerdict.INCONCLUSIVE ? 1 : 0;
    }
    double alarm = falseAlarms / (double) pairs;
    double power = caught / (double) pairs;
    double slackA = 3 * Math.sqrt(0.05 * 0.95 / pairs);
    double slackP = 3 * Math.sqrt(0.9 * 0.1 / pairs);
    assertTrue(Math.abs(alarm - 0.05) <= slackA, "A/A false alarm " + alarm);
    assertTrue(Math.abs(power - 0.90) <= slackP, "power at the threshold " + power);
    assertEquals(0, inconclusive, "a decisive design leaves nothing inconclusive");
  }

  /** The same on the runs' own trials (Welch, few degrees of freedom): the rates still hold. */
  @Test
  void theErrorRatesHoldOnTheRunsOwnTrials() {
    int pairs = 4000;
    Random random = new Random(17);
    double sigma = 0.03; // 5 trials a side: se about 0.019, decisive in most pairs
    int falseAlarms = 0;
    int caught = 0;
    for (int i = 0; i < pairs; i++) {
      TrialValues a = lognormal(random, 5, 1.0, sigma);
      GateJudgement aa =
          Verdicts.relativeGate(
              a, lognormal(random, 5, 1.0, sigma), 0.10, false, RATES, Optional.empty());
      GateJudgement ab =
          Verdicts.relativeGate(
              a, lognormal(random, 5, 1.10, sigma), 0.10, false, RATES, Optional.empty());
      falseAlarms += aa.verdict() == GateVerdict.FAIL ? 1 : 0;
      caught += ab.verdict() == GateVerdict.FAIL ? 1 : 0;
    }
    assertTrue(
        falseAlarms / (double) pairs <= 0.05 + 3 * Math.sqrt(0.05 * 0.95 / pairs),
        "A/A " + falseAlarms);
    assertTrue(
        caught / (double) pairs >= 0.90 - 3 * Math.sqrt(0.9 * 0.1 / pairs), "power " + caught);
  }

  private static TrialValues lognormal(Random random, int n, double median, double sigma) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = median * Math.exp(sigma * random.nextGaussian());
    }
    return TrialValues.of(x);
  }

  @Test
  void anImprovementAskedStatesNoPowerOnlyARegressionToCatchDoes() {
    GateDesign improvement =
        GateDesign.of(GateDesign.ErrorRates.of(0.95, 0.9), -0.05, false); // 5% faster asked
    assertEquals("", improvement.powerClause(0.1, false));
    assertTrue(improvement.describeRates(false).contains("no power"));
    GateDesign regression = GateDesign.of(GateDesign.ErrorRates.of(0.95, 0.9), 0.10, false);
    assertEquals(
        "; smallest regression caught with power 90%: +10.5%",
        regression.powerClause(Math.log(1.105), false));
  }
}
