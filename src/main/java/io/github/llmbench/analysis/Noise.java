package io.github.llmbench.analysis;

import java.util.Locale;

/**
 * The noise a comparison of one figure is judged with, on the log scale, and where it was learned.
 * Two parts, because they shrink differently: repeating trials within a run averages out the
 * trial-to-trial part, but every run carries its own offset (a server restart, a warmer cache, the
 * machine's day), which only more runs average out.
 *
 * @param source where the figures came from
 * @param runVariance the variance of a run's mean log figure beyond what its trials explain (0 when
 *     unknown or not separable)
 * @param trialVariance the variance of one trial's log figure around its run's mean
 * @param df the degrees of freedom of the variance estimate (infinite for a known one)
 * @param runs how many runs it was learned from
 * @param trials how many trials it was learned from
 */
public record Noise(
    Source source, double runVariance, double trialVariance, double df, int runs, int trials) {

  /** Where a noise figure was learned. */
  public enum Source {
    /** The two compared runs' own trials: few degrees of freedom, run offsets not separable. */
    OWN_TRIALS("the runs' own trials"),
    /** Earlier runs of the same workload and testbed ({@code -Dhistory}). */
    HISTORY("history"),
    /** Interleaved pairs of trials of A and B ({@code -Dcandidate.url}): run offsets cancel. */
    PAIRS("interleaved pairs");

    private final String label;

    Source(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  public Noise {
    if (!(runVariance >= 0.0) || !(trialVariance >= 0.0)) {
      throw new IllegalArgumentException(
          "variances must be 0 or more: run " + runVariance + ", trial " + trialVariance);
    }
    if (!(df > 0.0)) {
      throw new IllegalArgumentException("degrees of freedom must be above 0: " + df);
    }
  }

  /**
   * The standard error of {@code log(B/A)}, the candidate's mean log figure over {@code
   * candidateTrials} trials of one run against the baseline's over {@code baselineTrials} trials of
   * another: each run brings its own offset and its trials' average.
   */
  public double seOfLogRatio(int baselineTrials, int candidateTrials) {
    if (baselineTrials < 1 || candidateTrials < 1) {
      throw new IllegalArgumentException(
          "each side needs a trial: " + baselineTrials + " and " + candidateTrials);
    }
    return Math.sqrt(
        2.0 * runVariance + trialVariance * (1.0 / baselineTrials + 1.0 / candidateTrials));
  }

  /** One trial's log standard deviation around its run's mean. */
  public double trialSd() {
    return Math.sqrt(trialVariance);
  }

  /** A run's log standard deviation beyond its trials. */
  public double runSd() {
    return Math.sqrt(runVariance);
  }

  /**
   * {@code history: 14 runs, 62 trials, df 48, log sd 0.031 between runs and 0.080 between trials},
   * for a gate line.
   */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%s: %d runs, %d trials, df %s, log sd %.3f between runs and %.3f between trials",
        source.label(),
        runs,
        trials,
        Double.isInfinite(df) ? "inf" : String.format(Locale.ROOT, "%.0f", df),
        runSd(),
        trialSd());
  }
}
