package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * E-divisive means on seeded synthetic series of 30 runs (issue 41's targets): a +10% step at run
 * 20 found at 20 +- 1 in at least 9 of 10 series, no change point in at least 9 of 10 series
 * without a step, two steps both found. Ten fixed seeds each: counts, not rates over many seeds
 * (those are {@link ChangePointsBenchmark}'s).
 */
class ChangePointsTest {
  private static final ChangePoints.Settings SETTINGS = ChangePoints.Settings.DEFAULT;

  /** How many of seeds 1..10 have exactly one change point, within {@code within} of run 20. */
  private static int stepsFound(double logSd, int within) {
    int found = 0;
    for (long seed = 1; seed <= 10; seed++) {
      List<ChangePoints.ChangePoint> cps =
          ChangePoints.find(ChangePointSeries.step(seed, 30, logSd, 20, 0.10), SETTINGS);
      if (cps.size() == 1 && Math.abs(cps.get(0).index() - 20) <= within) {
        found++;
      }
    }
    return found;
  }

  @Test
  void aTenPercentStepAtRun20IsFoundThereAtLlamaServersSpread() {
    assertTrue(stepsFound(0.03, 1) >= 9, "log sd 0.03: " + stepsFound(0.03, 1));
  }

  @Test
  void aTenPercentStepIsFoundNearRun20AtAWiderSpread() {
    // log sd 0.05: the step is found in 19 of 20 series, but within +-1 of run 20 in about 4 of 5
    // (least squares places it no better: the data's limit; docs/history.md)
    assertTrue(stepsFound(0.05, 30) >= 9, "log sd 0.05, anywhere: " + stepsFound(0.05, 30));
    assertTrue(stepsFound(0.05, 3) >= 8, "log sd 0.05, +-3: " + stepsFound(0.05, 3));
  }

  @Test
  void aTenPercentStepIsOftenFoundAtTheHarderSpread() {
    // log sd 0.08: the step is 1.2 sd; the benchmark measures the rate (docs/history.md)
    assertTrue(stepsFound(0.08, 3) >= 3, "log sd 0.08: " + stepsFound(0.08, 3));
  }

  @Test
  void aSeriesWithoutAStepHasNoChangePoint() {
    for (double sd : new double[] {0.03, 0.05, 0.08}) {
      int quiet = 0;
      for (long seed = 1; seed <= 10; seed++) {
        if (ChangePoints.find(ChangePointSeries.flat(seed, 30, sd), SETTINGS).isEmpty()) {
          quiet++;
        }
      }
      assertTrue(quiet >= 9, "log sd " + sd + ": " + quiet + " of 10 without a change point");
    }
  }

  @Test
  void twoStepsAreBothFound() {
    int both = 0;
    for (long seed = 1; seed <= 10; seed++) {
      double[] s =
          ChangePointSeries.of(seed, 30, 0.03, new int[] {10, 20}, new double[] {0.10, -0.15});
      List<Integer> at =
          ChangePoints.find(s, SETTINGS).stream().map(ChangePoints.ChangePoint::index).toList();
      if (at.size() == 2 && Math.abs(at.get(0) - 10) <= 1 && Math.abs(at.get(1) - 20) <= 1) {
        both++;
      }
    }
    assertTrue(both >= 9, both + " of 10 with both steps");
  }

  @Test
  void aChangePointSaysItsMagnitudeAndPValue() {
    double[] s = new double[20];
    for (int i = 0; i < 20; i++) {
      s[i] = (i < 12 ? 100 : 120) + (i % 2 == 0 ? 1 : -1);
    }
    List<ChangePoints.ChangePoint> cps = ChangePoints.find(s, SETTINGS);
    assertEquals(1, cps.size());
    ChangePoints.ChangePoint cp = cps.get(0);
    assertEquals(13, cp.index(), "the first run of the new level, counted from 1");
    assertEquals(0.20, cp.magnitude(), 0.005);
    assertEquals(1.0 / 500, cp.pValue(), 1e-12, "no shuffle reaches a clean step");
  }

  @Test
  void theSameSeriesAndSeedGiveTheSameAnswer() {
    double[] s = ChangePointSeries.step(3, 30, 0.08, 20, 0.10);
    assertEquals(ChangePoints.find(s, SETTINGS), ChangePoints.find(s, SETTINGS));
  }

  @Test
  void aStepTwoRunsBeforeTheEndIsFound() {
    // what gate.history needs: the newest run and the one before it are the new level; two runs
    // of 20 at an end reach p = 2/190 at best, so at the gate's 0.05, not at 0.01
    double[] s = ChangePointSeries.step(5, 20, 0.03, 19, 0.20);
    assertEquals(List.of(), ChangePoints.find(s, SETTINGS));
    List<ChangePoints.ChangePoint> cps = ChangePoints.find(s, SETTINGS.withPValue(0.05));
    assertEquals(List.of(19), cps.stream().map(ChangePoints.ChangePoint::index).toList());
  }

  @Test
  void aShortOrBrokenSeriesHasNoChangePointOrIsRefused() {
    assertEquals(List.of(), ChangePoints.find(new double[] {1, 2, 3}, SETTINGS));
    assertEquals(List.of(), ChangePoints.find(new double[0], SETTINGS));
    assertThrows(
        IllegalArgumentException.class,
        () -> ChangePoints.find(new double[] {1, Double.NaN, 3, 4}, SETTINGS));
  }
}
