package io.github.llmbench.analysis;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A/B comparisons and gates that judge intervals, not single runs, so that a gate neither flaps on
 * run-to-run noise nor misses a real change. Pure functions.
 *
 * <p><b>The ratio B/A</b> ({@link #ratio}): {@code exp(mean log b - mean log a)}, the ratio of the
 * geometric means, with a Welch t-interval on the difference of the mean logs: standard error
 * {@code sqrt(sd_a^2/n_a + sd_b^2/n_b)} of the logs, Welch–Satterthwaite degrees of freedom (the
 * sides may differ in spread and size). A side with one trial uses its within-run interval instead
 * (log-scale errors read back from the interval with normal quantiles, the two sides combined as
 * independent), and the result is marked {@link Interval.Basis#WITHIN_RUN}; a one-trial side
 * without one gives {@link Interval.Basis#NONE}.
 *
 * <p><b>Gates</b>: a relative gate ({@code +10%}) is a two-point test ({@link GateDesign}): no
 * change must pass with false alarm at most {@code 1 - c}, a change of the threshold must fail with
 * the power asked. An absolute gate judges one-sided bounds at c: it fails when the figure is
 * beyond its limit with confidence c, passes when it is within it with confidence c, and is
 * otherwise inconclusive.
 */
public final class Verdicts {

  private Verdicts() {}

  /** The power at which {@link Comparison#minimumDetectableRatio()} is given. */
  public static final double POWER = 0.8;

  /**
   * The ratio b/a (b the candidate, a the baseline) with its two-sided interval at {@code
   * confidence}; {@link Interval.Basis#NONE} (estimate still the ratio) when a one-trial side has
   * no within-run interval.
   */
  public static Interval ratio(TrialValues a, TrialValues b, double confidence) {
    Intervals.checkConfidence(confidence);
    LogScale d = difference(a, b);
    return d == null ? Interval.none(pointRatio(a, b), confidence) : d.interval(confidence);
  }

  /**
   * Whether b is worse, better, or not detectably different from a: worse or better when the
   * ratio's two-sided interval excludes 1 on that side ({@code higherIsBetter} says which side is
   * which: false for latency, true for throughput). Also the minimum detectable ratio, {@code
   * exp((t_{(1+c)/2, df} + t_{0.8, df}) * se)} with the log ratio's standard error (the wider side
   * for an asymmetric within-run error).
   */
  public static Comparison compare(
      TrialValues a, TrialValues b, boolean higherIsBetter, double confidence) {
    Intervals.checkConfidence(confidence);
    LogScale d = difference(a, b);
    if (d == null) {
      return new Comparison(
          Interval.none(pointRatio(a, b), confidence), Change.NO_DETECTABLE_DIFFERENCE, Double.NaN);
    }
    Interval r = d.interval(confidence);
    double se = Math.max(d.seLow(), d.seHigh());
    double df = Math.min(d.dfLow(), d.dfHigh());
    return new Comparison(r, change(r, higherIsBetter), detectable(se, df, confidence));
  }

  /**
   * As {@link #compare(TrialValues, TrialValues, boolean, double)}, the log ratio's standard error
   * and degrees of freedom taken from a noise learned elsewhere (history: {@link
   * Noise#seOfLogRatio} at the two trial counts and its df, as {@link #relativeGate} takes it), so
   * that single runs, or runs of different trial counts, are judged on run-to-run noise. The
   * interval is {@link Interval.Basis#TRIALS}: that noise holds the runs' drift.
   */
  public static Comparison compare(
      TrialValues a, TrialValues b, boolean higherIsBetter, double confidence, Noise known) {
    Intervals.checkConfidence(confidence);
    double center = meanLog(b) - meanLog(a);
    // a and b are one run's trials each: compare compares runs two at a time
    double se = known.seOfLogRatio(a.n(), b.n());
    double q = se == 0.0 ? 0.0 : LogScale.quantile(0.5 + confidence / 2.0, known.df());
    Interval r =
        new Interval(
            Math.exp(center),
            Math.exp(center - q * se),
            Math.exp(center + q * se),
            confidence,
            Interval.Basis.TRIALS);
    return new Comparison(r, change(r, higherIsBetter), detectable(se, known.df(), confidence));
  }

  /** Worse or better when the interval excludes 1 on that side. */
  private static Change change(Interval r, boolean higherIsBetter) {
    if (r.low() > 1.0) {
      return higherIsBetter ? Change.BETTER : Change.WORSE;
    }
    if (r.high() < 1.0) {
      return higherIsBetter ? Change.WORSE : Change.BETTER;
    }
    return Change.NO_DETECTABLE_DIFFERENCE;
  }

  /** The minimum detectable ratio at {@link #POWER} for this standard error of the log ratio. */
  private static double detectable(double se, double df, double confidence) {
    return se == 0.0
        ? 1.0
        : Math.exp(
            (LogScale.quantile(0.5 + confidence / 2.0, df) + LogScale.quantile(POWER, df)) * se);
  }

  /** The most trials a side a power statement plans for ({@link GateJudgement.Relative}). */
  public static final int MAX_TRIALS_PLANNED = 100;

  /**
   * A gate on b relative to the baseline a, judged by its two-point design ({@link GateDesign}): no
   * change must PASS (false alarm at most alpha), a change of the threshold must FAIL with the
   * power asked. The log ratio's standard error comes, in this order, from:
   *
   * <ol>
   *   <li>{@code known} noise: learned from history ({@link Noise#seOfLogRatio} at the two trial
   *       counts, its degrees of freedom), or declared ({@code -Dgate.run.noise}: the run part
   *       declared, the trial part from the two runs' trials, {@link Noise#atRuns});
   *   <li>the two runs' own trials when each has two or more: Welch on the logs (standard error
   *       {@code sqrt(sd_a^2/n_a + sd_b^2/n_b)}, Welch–Satterthwaite degrees of freedom);
   *   <li>one side's trials when the other has a single trial (the bases differ): that side's log
   *       spread taken for both, {@code sd * sqrt(1/n_a + 1/n_b)}, {@code n - 1} degrees of
   *       freedom, and the noise line says so;
   *   <li>none with one trial a side: the gate is judged on the ratio's value (FAIL beyond {@code 1
   *       + threshold}), and says so.
   * </ol>
   *
   * Only the first holds how far two runs differ ({@link Noise.Source#knowsRunNoise}); the others
   * are blind to it (a run's trials share its offset), so their verdicts keep the same rules but
   * state no error rate: the judgement carries that its error rates are unknown, and what would
   * give them.
   *
   * @param threshold the relative limit: {@code +0.10} with {@code higherIsBetter = false} (fail
   *     when b is 10% slower), {@code -0.10} with {@code higherIsBetter = true}
   * @param rates the false alarm and the power the gate is judged at
   * @param known a run-to-run noise learned ({@code -Dhistory}) or declared ({@code
   *     -Dgate.run.noise}), or empty
   */
  public static GateJudgement relativeGate(
      TrialValues a,
      TrialValues b,
      double threshold,
      boolean higherIsBetter,
      GateDesign.ErrorRates rates,
      Optional<Noise> known) {
    GateDesign design = GateDesign.of(rates, threshold, higherIsBetter);
    double confidence = 1.0 - rates.alpha();
    double limit = 1.0 + threshold;
    double center = meanLog(b) - meanLog(a);
    double orient = higherIsBetter ? -1.0 : 1.0;
    Optional<NoiseAt> noise = noiseOf(a, b, known);
    if (noise.isEmpty()) {
      double ratio = Math.exp(center);
      boolean fail =
          higherIsBetter ? ratio < limit * (1 - TIE) : ratio > limit * (1 + TIE) || limit <= 0;
      GateJudgement.Relative r =
          new GateJudgement.Relative(
              design,
              higherIsBetter,
              Optional.empty(),
              Noise.Source.NONE,
              "one trial a side, judged on the ratio's value (FAIL beyond 1 + the threshold)",
              OptionalInt.empty());
      return new GateJudgement(
          fail ? GateVerdict.FAIL : GateVerdict.PASS,
          Interval.none(ratio, 2.0 * confidence - 1.0),
          limit,
          confidence,
          Optional.of(r),
          GateJudgement.Family.alone(rates.alpha()));
    }
    NoiseAt n = noise.get();
    GateDesign.Outcome o = design.judge(orient * center, n.se(), n.df());
    double q = n.se() == 0.0 ? 0.0 : design.qAlpha(n.df());
    Interval bounds =
        new Interval(
            Math.exp(center),
            Math.exp(center - q * n.se()),
            Math.exp(center + q * n.se()),
            2.0 * confidence - 1.0,
            Interval.Basis.TRIALS);
    Noise.Source source = n.noise().source();
    // more trials plan nothing where the run-to-run term is unknown: it does not shrink with them
    OptionalInt plan =
        o.decisive() || !source.knowsRunNoise()
            ? OptionalInt.empty()
            : design.trialsToDecide(n.noise(), MAX_TRIALS_PLANNED);
    GateJudgement.Relative r =
        new GateJudgement.Relative(design, higherIsBetter, Optional.of(o), source, n.text(), plan);
    return new GateJudgement(
        o.verdict(),
        bounds,
        limit,
        confidence,
        Optional.of(r),
        GateJudgement.Family.alone(rates.alpha()));
  }

  /**
   * The noise a relative gate is judged with: its standard error and degrees of freedom at these
   * trial counts, the noise itself (its source; the planning figure) and what the line says of it.
   */
  private record NoiseAt(double se, double df, Noise noise, String text) {}

  private static Optional<NoiseAt> noiseOf(TrialValues a, TrialValues b, Optional<Noise> known) {
    int na = a.n();
    int nb = b.n();
    Optional<Noise> trials = Noise.ofTrials(List.of(a, b));
    if (known.isPresent()) {
      // a is the -Dbaseline run's trials, b this run's: one run a side
      Noise k = known.get().atRuns(trials, na, nb);
      return Optional.of(new NoiseAt(k.seOfLogRatio(na, nb), k.df(), k, k.describe()));
    }
    if (trials.isEmpty()) {
      return Optional.empty();
    }
    Noise own = trials.get();
    if (na >= 2 && nb >= 2) {
      LogScale d = LogScale.difference(LogScale.of(a), LogScale.of(b));
      return Optional.of(
          new NoiseAt(
              d.seLow(),
              d.dfLow(),
              own,
              String.format(
                  Locale.ROOT,
                  "the runs' own trials, %d and %d trials (Welch on the logs, df %.1f)",
                  na,
                  nb,
                  d.dfLow())));
    }
    return Optional.of(
        new NoiseAt(
            own.seOfLogRatio(na, nb),
            own.df(),
            own,
            String.format(
                Locale.ROOT,
                "the bases differ: the baseline has %d trial%s, this run %d; the spread of the"
                    + " %d trials of %s, taken for both sides (df %.0f)",
                na,
                na == 1 ? "" : "s",
                nb,
                own.trials(),
                na >= 2 ? "the baseline" : "this run",
                own.df())));
  }

  /**
   * A gate with a fixed limit on a positive figure measured over trials (or one trial with its
   * within-run interval): FAIL when the one-sided bound at {@code confidence} on the better side is
   * beyond the limit ({@code higherIsBetter = false}: the lower bound above it), PASS when the
   * bound on the worse side is within it, else INCONCLUSIVE.
   *
   * @param confidence the gate's confidence in (0.5, 1), e.g. 0.95
   */
  public static GateJudgement absoluteGate(
      TrialValues figure, double limit, boolean higherIsBetter, double confidence) {
    checkGateConfidence(confidence);
    if (!Double.isFinite(limit)) {
      throw new IllegalArgumentException("a gate's limit must be finite: " + limit);
    }
    LogScale f = LogScale.of(figure);
    if (f == null) {
      return unjudged(figure.values()[0], limit, confidence);
    }
    double[] b = f.bounds(confidence);
    GateVerdict verdict = judge(b, limit, higherIsBetter);
    return GateJudgement.absolute(verdict, bounds(f, b, confidence), limit, confidence);
  }

  /**
   * Rounding-level differences on the log scale (a figure exactly at its limit, identical trials)
   * count as within the limit.
   */
  private static final double TIE = 1e-12;

  /** The verdict of the one-sided bounds {@code b} (log scale) against the limit. */
  private static GateVerdict judge(double[] b, double limit, boolean higherIsBetter) {
    if (!(limit > 0.0)) {
      // positive figures are always above a limit of 0 or less
      return higherIsBetter ? GateVerdict.PASS : GateVerdict.FAIL;
    }
    double logLimit = Math.log(limit);
    double low = b[0];
    double high = b[1];
    if (higherIsBetter) {
      if (high < logLimit - TIE) {
        return GateVerdict.FAIL;
      }
      return low >= logLimit - TIE ? GateVerdict.PASS : GateVerdict.INCONCLUSIVE;
    }
    if (low > logLimit + TIE) {
      return GateVerdict.FAIL;
    }
    return high <= logLimit + TIE ? GateVerdict.PASS : GateVerdict.INCONCLUSIVE;
  }

  /** The one-sided bounds at c as one interval at 2c - 1. */
  private static Interval bounds(LogScale x, double[] b, double confidence) {
    return new Interval(
        Math.exp(x.center()), Math.exp(b[0]), Math.exp(b[1]), 2.0 * confidence - 1.0, x.basis());
  }

  private static GateJudgement unjudged(double estimate, double limit, double confidence) {
    return GateJudgement.absolute(
        GateVerdict.INCONCLUSIVE,
        Interval.none(estimate, 2.0 * confidence - 1.0),
        limit,
        confidence);
  }

  private static LogScale difference(TrialValues a, TrialValues b) {
    LogScale la = LogScale.of(a);
    LogScale lb = LogScale.of(b);
    return la == null || lb == null ? null : LogScale.difference(la, lb);
  }

  /** The ratio of the geometric means, whatever the number of trials. */
  private static double pointRatio(TrialValues a, TrialValues b) {
    return Math.exp(meanLog(b) - meanLog(a));
  }

  private static double meanLog(TrialValues t) {
    double sum = 0.0;
    for (double v : t.values()) {
      sum += Math.log(v);
    }
    return sum / t.n();
  }

  private static void checkGateConfidence(double confidence) {
    if (!(confidence > 0.5 && confidence < 1.0)) {
      throw new IllegalArgumentException("a gate's confidence must be in (0.5, 1): " + confidence);
    }
  }
}
