package io.github.llmbench.analysis;

import java.util.List;
import java.util.Optional;

/**
 * A figure's noise learned from earlier runs of the same workload on the same testbed: a one-way
 * random-effects analysis of variance on the logs of the runs' per-trial figures, which separates
 * how much one trial strays from its run's mean (averaged out by more trials) from how much a run's
 * mean strays beyond that (averaged out only by more runs). Pure.
 */
public final class NoiseModel {
  private NoiseModel() {}

  /**
   * The noise of these runs, or empty with fewer than {@code minRuns} runs.
   *
   * <p>The trial variance is the pooled variance of the trials around their run's mean (degrees of
   * freedom: trials minus runs); the run variance is the variance of the runs' means less what the
   * trial variance explains of it ({@code sigma_t^2} times the mean of {@code 1/n_r}), floored at
   * 0. When no run has two trials the two cannot be told apart, and all of the runs' spread counts
   * as run variance (the conservative reading for a comparison of several trials). The degrees of
   * freedom are Satterthwaite's for the variance of a log ratio of two runs of the typical number
   * of trials, the quantity a gate judges.
   *
   * @param runsTrialValues each run's per-trial figures, each positive and finite
   * @param minRuns the fewest runs to learn from, at least 2
   */
  public static Optional<Noise> fromRuns(List<double[]> runsTrialValues, int minRuns) {
    if (minRuns < 2) {
      throw new IllegalArgumentException("noise needs at least 2 runs: " + minRuns);
    }
    int runs = 0;
    int trials = 0;
    for (double[] run : runsTrialValues) {
      if (run.length > 0) {
        runs++;
        trials += run.length;
        for (double v : run) {
          if (!(v > 0.0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("a figure must be positive and finite: " + v);
          }
        }
      }
    }
    if (runs < minRuns) {
      return Optional.empty();
    }
    double[] means = new double[runs];
    double withinSs = 0.0;
    double inverseTrials = 0.0;
    int r = 0;
    for (double[] run : runsTrialValues) {
      if (run.length == 0) {
        continue;
      }
      double[] logs = logs(run);
      means[r] = LogScale.mean(logs);
      for (double x : logs) {
        withinSs += (x - means[r]) * (x - means[r]);
      }
      inverseTrials += 1.0 / run.length;
      r++;
    }
    int withinDf = trials - runs;
    double meansVariance = variance(means);
    double meanInverseTrials = inverseTrials / runs;
    if (withinDf == 0) {
      return Optional.of(
          new Noise(Noise.Source.HISTORY, meansVariance, 0.0, runs - 1.0, runs, trials));
    }
    double trialVariance = withinSs / withinDf;
    double runVariance = Math.max(0.0, meansVariance - trialVariance * meanInverseTrials);
    // the variance of log(B/A) for two new runs of n trials each, from the two mean squares:
    // 2 * meansVariance + trialVariance * (2/n - 2 * meanInverseTrials)
    double n = Math.max(1.0, Math.round((double) trials / runs));
    double betweenPart = 2.0 * meansVariance;
    double withinPart = trialVariance * (2.0 / n - 2.0 * meanInverseTrials);
    double total = betweenPart + withinPart;
    double df =
        total > 0.0
            ? total
                * total
                / (betweenPart * betweenPart / (runs - 1.0) + withinPart * withinPart / withinDf)
            : runs - 1.0;
    df = Math.max(1.0, Math.min(df, runs - 1.0 + withinDf));
    return Optional.of(
        new Noise(Noise.Source.HISTORY, runVariance, trialVariance, df, runs, trials));
  }

  private static double[] logs(double[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Math.log(values[i]);
    }
    return out;
  }

  private static double variance(double[] x) {
    double m = LogScale.mean(x);
    double ss = 0.0;
    for (double v : x) {
      ss += (v - m) * (v - m);
    }
    return ss / (x.length - 1);
  }
}
