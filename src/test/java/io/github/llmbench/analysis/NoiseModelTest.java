package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NoiseModelTest {

  /** Runs of log-normal trials: each run offset by N(0, runSd), each trial by N(0, trialSd). */
  private static List<double[]> history(
      int runs, int trials, double runSd, double trialSd, long seed) {
    Random random = new Random(seed);
    List<double[]> out = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      double offset = runSd * random.nextGaussian();
      double[] t = new double[trials];
      for (int j = 0; j < trials; j++) {
        t[j] = 20.0 * Math.exp(offset + trialSd * random.nextGaussian());
      }
      out.add(t);
    }
    return out;
  }

  @Test
  void separatesTheRunOffsetFromTheTrialSpread() {
    Noise n = NoiseModel.fromRuns(history(200, 5, 0.05, 0.10, 1), 5).orElseThrow();
    assertEquals(0.10, n.trialSd(), 0.01);
    assertEquals(0.05, n.runSd(), 0.01);
    assertEquals(Noise.Source.HISTORY, n.source());
    assertEquals(200, n.runs());
    assertEquals(1000, n.trials());
    // a log ratio of two runs of five trials: 2 * 0.05^2 + 0.1^2 * (1/5 + 1/5)
    assertEquals(Math.sqrt(0.005 + 0.004), n.seOfLogRatio(5, 5), 0.012);
    assertTrue(n.df() > 100, "df " + n.df());
  }

  @Test
  void aBaselinePooledOverRunsShrinksItsOwnRunOffsetNotTheCandidates() {
    Noise n = new Noise(Noise.Source.HISTORY, 0.0049, 0.0056, Double.POSITIVE_INFINITY, 10, 50);
    // one run against one: 2 r + t (1/5 + 1/5)
    assertEquals(Math.sqrt(2 * 0.0049 + 0.0056 * 0.4), n.seOfLogRatio(1, 5, 5), 1e-12);
    assertEquals(n.seOfLogRatio(5, 5), n.seOfLogRatio(1, 5, 5), 1e-12);
    // 10 baseline runs of 5 trials against one run of 5: r (1 + 1/10) + t (1/50 + 1/5)
    assertEquals(
        Math.sqrt(0.0049 * 1.1 + 0.0056 * (1.0 / 50 + 1.0 / 5)), n.seOfLogRatio(10, 50, 5), 1e-12);
    // however many runs the baseline pools, the candidate's own run offset stays
    assertTrue(n.seOfLogRatio(1000, 5000, 5) > Math.sqrt(0.0049 + 0.0056 / 5) - 1e-6);
    assertTrue(n.seOfLogRatio(10, 50, 5) < n.seOfLogRatio(5, 5));
    assertThrows(IllegalArgumentException.class, () -> n.seOfLogRatio(3, 2, 5));
    assertThrows(IllegalArgumentException.class, () -> n.seOfLogRatio(0, 5, 5));
  }

  @Test
  void runsWithoutRunOffsetsHaveLittleRunVariance() {
    Noise n = NoiseModel.fromRuns(history(100, 4, 0.0, 0.08, 2), 5).orElseThrow();
    assertTrue(n.runSd() < 0.025, "run sd " + n.runSd());
    assertEquals(0.08, n.trialSd(), 0.008);
  }

  @Test
  void oneTrialRunsCountAllTheirSpreadAsRunVariance() {
    Noise n = NoiseModel.fromRuns(history(60, 1, 0.05, 0.05, 3), 5).orElseThrow();
    assertEquals(0.0, n.trialVariance());
    assertEquals(Math.sqrt(0.05 * 0.05 + 0.05 * 0.05), n.runSd(), 0.015);
    assertEquals(59.0, n.df());
  }

  @Test
  void tooFewRunsGiveNoNoise() {
    assertTrue(NoiseModel.fromRuns(history(4, 5, 0.05, 0.1, 4), 5).isEmpty());
    List<double[]> withEmpty = new ArrayList<>(history(4, 5, 0.05, 0.1, 4));
    withEmpty.add(new double[0]);
    assertTrue(NoiseModel.fromRuns(withEmpty, 5).isEmpty(), "an empty run is no run");
    assertTrue(NoiseModel.fromRuns(history(5, 5, 0.05, 0.1, 4), 5).isPresent());
  }

  @Test
  void badFiguresAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> NoiseModel.fromRuns(List.of(new double[] {1, 0}, new double[] {1, 2}), 2));
    assertThrows(IllegalArgumentException.class, () -> NoiseModel.fromRuns(List.of(), 1));
  }
}
