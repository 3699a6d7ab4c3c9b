package io.github.llmbench.analysis;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

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

  /**
   * Where a noise figure was learned, and so whether it knows how far two runs differ: a test on
   * two runs holds its error rates only when it does ({@link #knowsRunNoise}).
   */
  public enum Source {
    /**
     * The two compared runs' own trials: few degrees of freedom, and blind to run offsets (a run's
     * trials share its offset, so their spread says nothing of how far two runs differ).
     */
    OWN_TRIALS("the runs' own trials", false),
    /** Earlier runs of the same workload and testbed ({@code -Dhistory}). */
    HISTORY("history", true),
    /**
     * The run-to-run part declared by the user ({@code -Dgate.run.noise}), the trial part measured
     * on the compared runs' own trials.
     */
    DECLARED("declared", true),
    /** Interleaved pairs of trials of A and B ({@code -Dcandidate.url}): run offsets cancel. */
    PAIRS("interleaved pairs", true),
    /** No noise at all: one trial a side and nothing known beyond the two runs. */
    NONE("none", false);

    private final String label;
    private final boolean knowsRunNoise;

    Source(String label, boolean knowsRunNoise) {
      this.label = label;
      this.knowsRunNoise = knowsRunNoise;
    }

    public String label() {
      return label;
    }

    /**
     * Whether a noise from here holds the run-to-run term, so that a test on it holds the error
     * rates it states; without it a gate's false alarm and power are unknown, and it says so.
     */
    public boolean knowsRunNoise() {
      return knowsRunNoise;
    }
  }

  /**
   * A run-to-run noise declared by the user ({@code -Dgate.run.noise}): a run's log standard
   * deviation beyond its trials' spread, taken as known (infinite degrees of freedom); its trial
   * part is measured on the compared runs' trials ({@link #atRuns}).
   *
   * @param runSd the declared log standard deviation, in (0, 1)
   */
  public static Noise declared(double runSd) {
    if (!(runSd > 0.0 && runSd < 1.0)) {
      throw new IllegalArgumentException("a declared run noise must be in (0, 1): " + runSd);
    }
    return new Noise(Source.DECLARED, runSd * runSd, 0.0, Double.POSITIVE_INFINITY, 0, 0);
  }

  /**
   * This noise at two compared runs, with what their own trials add ({@code runsTrials}: their
   * pooled log variance, its degrees of freedom and trial count; empty with one trial a side): a
   * noise learned from history has its own trial part and is itself; a declared one takes its trial
   * part from the runs, its degrees of freedom Satterthwaite's for the log ratio at these trial
   * counts (only the trial part is estimated), and without trials to measure it is taken as a run's
   * whole spread.
   */
  public Noise atRuns(Optional<Noise> runsTrials, int baselineTrials, int candidateTrials) {
    if (source != Source.DECLARED || runsTrials.isEmpty()) {
      return this;
    }
    Noise m = runsTrials.get();
    double trialPart = m.trialVariance() * (1.0 / baselineTrials + 1.0 / candidateTrials);
    // two compared runs, one a side (the baseline of -Dbaseline is one run's folder): each run's
    // offset whole, as seOfLogRatio's one-run case
    double total = 2 * runVariance + trialPart;
    double satterthwaite =
        trialPart > 0.0
            ? total * total / (trialPart * trialPart / m.df())
            : Double.POSITIVE_INFINITY;
    return new Noise(Source.DECLARED, runVariance, m.trialVariance(), satterthwaite, 2, m.trials());
  }

  /**
   * The trial-level noise of runs' own trials: the pooled log variance of the runs with two trials
   * or more, on their degrees of freedom; no run-level part, as a run's trials share its offset and
   * cannot see it. Empty when no run has two trials.
   */
  public static Optional<Noise> ofTrials(List<TrialValues> runs) {
    double ss = 0.0;
    int df = 0;
    int withTrials = 0;
    int trials = 0;
    for (TrialValues run : runs) {
      if (run.n() >= 2) {
        LogScale l = LogScale.of(run);
        ss += (run.n() - 1) * l.sdLog() * l.sdLog();
        df += run.n() - 1;
        withTrials++;
        trials += run.n();
      }
    }
    return df == 0
        ? Optional.empty()
        : Optional.of(new Noise(Source.OWN_TRIALS, 0.0, ss / df, df, withTrials, trials));
  }

  /** What a gate without run-to-run noise cannot know, for its lines. */
  public static final String RUN_NOISE_UNKNOWN =
      "run-to-run noise unknown: trials measure a run's own spread, not how far two runs differ";

  /** What gives a gate its run-to-run noise, for its lines. */
  public static final String RUN_NOISE_NEEDED =
      "-Dhistory=DIR or -Dgate.run.noise=SD give it known error rates";

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
   * one other run: each run brings its own offset and its trials' average. One baseline run is what
   * every caller has today: {@code -Dbaseline} names one run's folder, {@code compare} compares
   * runs two at a time, and a plan is for one run against one; a baseline pooled over several runs
   * takes {@link #seOfLogRatio(int, int, int)}.
   */
  public double seOfLogRatio(int baselineTrials, int candidateTrials) {
    return seOfLogRatio(1, baselineTrials, candidateTrials);
  }

  /**
   * The standard error of {@code log(B/A)}, the candidate's mean log figure over {@code
   * candidateTrials} trials of one run against a baseline pooled over {@code baselineRuns} runs of
   * {@code baselineTrials} trials in all, its mean log figure the mean of its runs' (runs of equal
   * trials): {@code sqrt(r (1 + 1/R) + t (1/T_a + 1/n_b))}. The candidate's run offset stays whole
   * however many runs the baseline pools; the baseline's shrinks with them.
   *
   * @param baselineRuns the runs the baseline pools, 1 or more
   * @param baselineTrials their trials in all, at least one a run
   */
  public double seOfLogRatio(int baselineRuns, int baselineTrials, int candidateTrials) {
    if (baselineRuns < 1 || baselineTrials < baselineRuns || candidateTrials < 1) {
      throw new IllegalArgumentException(
          "each run needs a trial: a baseline of "
              + baselineRuns
              + " runs and "
              + baselineTrials
              + " trials, a candidate of "
              + candidateTrials);
    }
    return Math.sqrt(
        variance(runVariance, trialVariance, baselineRuns, baselineTrials, candidateTrials));
  }

  private static double variance(
      double run, double trial, int baselineRuns, int baselineTrials, int candidateTrials) {
    return run * (1.0 + 1.0 / baselineRuns)
        + trial * (1.0 / baselineTrials + 1.0 / candidateTrials);
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
    if (source == Source.DECLARED) {
      String trialsPart =
          trials == 0
              ? "no trials' spread measured (neither side had two trials or more), so it is taken"
                  + " as inside the declared noise"
              : String.format(
                  Locale.ROOT,
                  "log sd %.3f between trials, from the runs' own %d trials; df %s",
                  trialSd(),
                  trials,
                  dfText(df, "%.1f"));
      return String.format(
          Locale.ROOT,
          "run-to-run noise declared by -Dgate.run.noise=%.3f, not measured by the kit; %s",
          runSd(),
          trialsPart);
    }
    return String.format(
        Locale.ROOT,
        "%s: %d runs, %d trials, df %s, log sd %.3f between runs and %.3f between trials",
        source.label(),
        runs,
        trials,
        dfText(df, "%.0f"),
        runSd(),
        trialSd());
  }

  /**
   * Degrees of freedom as a line shows them: past a thousand the t quantile is the normal's to the
   * third decimal, so {@code inf} rather than Satterthwaite's eight digits (a declared noise far
   * above the trials' spread makes them huge).
   */
  private static String dfText(double df, String format) {
    return df > 1000 ? "inf" : String.format(Locale.ROOT, format, df);
  }
}
