package io.github.llmbench.analysis;

import java.util.SplittableRandom;

/**
 * Synthetic run series for the change-point finder's tests and benchmark: a level of 10 (mean TPOT
 * in ms, say) times log-normal noise of a given log standard deviation, with steps.
 */
final class ChangePointSeries {
  private ChangePointSeries() {}

  /**
   * {@code n} runs, log sd {@code logSd}; from each step's run (counted from 1) on, the level is
   * {@code 1 + step} times the level before.
   *
   * @param stepsAt the runs where the steps start, counted from 1, ascending
   * @param steps each step's relative size (0.10: 10% higher)
   */
  static double[] of(long seed, int n, double logSd, int[] stepsAt, double[] steps) {
    // not java.util.Random: the first Gaussians of neighbouring seeds are correlated
    SplittableRandom random = new SplittableRandom(seed);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      double level = 10;
      for (int s = 0; s < stepsAt.length; s++) {
        if (i + 1 >= stepsAt[s]) {
          level *= 1 + steps[s];
        }
      }
      out[i] = level * Math.exp(logSd * gaussian(random));
    }
    return out;
  }

  /** A standard normal value (Box-Muller). */
  private static double gaussian(SplittableRandom random) {
    return Math.sqrt(-2 * Math.log(1 - random.nextDouble()))
        * Math.cos(2 * Math.PI * random.nextDouble());
  }

  /** One step of {@code step} at run {@code at}. */
  static double[] step(long seed, int n, double logSd, int at, double step) {
    return of(seed, n, logSd, new int[] {at}, new double[] {step});
  }

  /** No step. */
  static double[] flat(long seed, int n, double logSd) {
    return of(seed, n, logSd, new int[0], new double[0]);
  }
}
