package io.github.llmbench.analysis;

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
 * <p><b>Gates</b> judge one-sided bounds at the gate's confidence c: a gate fails only when the
 * figure is beyond its limit with confidence c, passes when it is within it with confidence c, and
 * is otherwise inconclusive, with an estimate of the trials per side that would resolve it. With
 * nothing changed and a +10% gate on 5 trials a side of 10% noise, a failure is rare (the figure
 * would have to look 10% worse with 95% confidence), where one run against one baseline fails about
 * a third of the time.
 */
public final class Verdicts {

  private Verdicts() {}

  /** The power at which {@link Comparison#minimumDetectableRatio()} is given. */
  public static final double POWER = 0.8;

  /** The cap of {@link GateJudgement#trialsNeeded()}: that many or more. */
  public static final int MAX_TRIALS_NEEDED = 100;

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
    Change change = Change.NO_DETECTABLE_DIFFERENCE;
    if (r.low() > 1.0) {
      change = higherIsBetter ? Change.BETTER : Change.WORSE;
    } else if (r.high() < 1.0) {
      change = higherIsBetter ? Change.WORSE : Change.BETTER;
    }
    double se = Math.max(d.seLow(), d.seHigh());
    double df = Math.min(d.dfLow(), d.dfHigh());
    double mde =
        se == 0.0
            ? 1.0
            : Math.exp(
                (LogScale.quantile(0.5 + confidence / 2.0, df) + LogScale.quantile(POWER, df))
                    * se);
    return new Comparison(r, change, mde);
  }

  /**
   * A gate on b relative to the baseline a: the limit is {@code 1 + threshold} on the ratio b/a
   * ({@code +0.10} with {@code higherIsBetter = false}: fail when b is more than 10% above a;
   * {@code -0.10} with {@code higherIsBetter = true}: fail when b is more than 10% below a).
   *
   * <p>FAIL when b is worse than a with that confidence (the one-sided bound on the better side is
   * past no change) and the ratio's estimate is beyond the limit, or when even that bound is beyond
   * the limit; PASS when the bound on the worse side is within the limit (within the threshold with
   * that confidence); else INCONCLUSIVE with the trials per side that would resolve it: the n at
   * which the one-sided half-width {@code t_{c, df(n)} * sqrt((sd_a^2 + sd_b^2) / n)} falls below
   * {@code |log(ratio) - log(1 + threshold)|}, from the observed log spreads (one side's for both
   * when the other has a single trial).
   *
   * @param confidence the gate's confidence in (0.5, 1), e.g. 0.95
   */
  public static GateJudgement relativeGate(
      TrialValues a, TrialValues b, double threshold, boolean higherIsBetter, double confidence) {
    checkGateConfidence(confidence);
    if (!(threshold > -1.0) || Double.isInfinite(threshold)) {
      throw new IllegalArgumentException("a relative threshold must be above -100%: " + threshold);
    }
    double limit = 1.0 + threshold;
    LogScale d = difference(a, b);
    if (d == null) {
      return unjudged(pointRatio(a, b), limit, confidence);
    }
    double[] bounds = d.bounds(confidence);
    GateVerdict verdict = judge(bounds, limit, higherIsBetter);
    if (verdict == GateVerdict.INCONCLUSIVE
        && worseBeyond(d.center(), bounds, limit, higherIsBetter)) {
      verdict = GateVerdict.FAIL;
    }
    int needed = 0;
    if (verdict == GateVerdict.INCONCLUSIVE) {
      LogScale la = LogScale.of(a);
      LogScale lb = LogScale.of(b);
      double sa = la.n() >= 2 ? la.sdLog() : lb.sdLog();
      double sb = lb.n() >= 2 ? lb.sdLog() : la.sdLog();
      needed =
          trialsNeeded(
              sa, sb, Math.abs(d.center() - Math.log(limit)), confidence, Math.min(a.n(), b.n()));
    }
    return new GateJudgement(verdict, bounds(d, bounds, confidence), limit, confidence, needed);
  }

  /**
   * A gate with a fixed limit on a positive figure measured over trials (or one trial with its
   * within-run interval): FAIL when the one-sided bound at {@code confidence} on the better side is
   * beyond the limit ({@code higherIsBetter = false}: the lower bound above it), PASS when the
   * bound on the worse side is within it, else INCONCLUSIVE with the trials that would resolve it
   * (the n at which {@code t_{c, n-1} * sd(log x) / sqrt(n)} falls below {@code |log(estimate) -
   * log(limit)|}).
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
    int needed = 0;
    if (verdict == GateVerdict.INCONCLUSIVE && f.n() >= 2 && limit > 0.0) {
      needed =
          trialsNeeded(
              f.sdLog(), 0.0, Math.abs(f.center() - Math.log(limit)), confidence, figure.n());
    }
    return new GateJudgement(verdict, bounds(f, b, confidence), limit, confidence, needed);
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

  /**
   * Whether b is worse than a with the gate's confidence (the bound on the better side is still
   * past no change) and its estimate is beyond the limit: a regression the data shows, by more than
   * the threshold as far as it can tell.
   */
  private static boolean worseBeyond(
      double center, double[] b, double limit, boolean higherIsBetter) {
    if (!(limit > 0.0)) {
      return false;
    }
    double logLimit = Math.log(limit);
    return higherIsBetter
        ? center < logLimit - TIE && b[1] < -TIE
        : center > logLimit + TIE && b[0] > TIE;
  }

  /** The one-sided bounds at c as one interval at 2c - 1. */
  private static Interval bounds(LogScale x, double[] b, double confidence) {
    return new Interval(
        Math.exp(x.center()), Math.exp(b[0]), Math.exp(b[1]), 2.0 * confidence - 1.0, x.basis());
  }

  private static GateJudgement unjudged(double estimate, double limit, double confidence) {
    return new GateJudgement(
        GateVerdict.INCONCLUSIVE,
        Interval.none(estimate, 2.0 * confidence - 1.0),
        limit,
        confidence,
        0);
  }

  /**
   * The smallest n per side (more than {@code current}, at most {@link #MAX_TRIALS_NEEDED}) at
   * which the one-sided half-width of the log estimate, with these log spreads (sb = 0 for a single
   * figure), falls below {@code gap}; 0 when no spread is known.
   */
  static int trialsNeeded(double sa, double sb, double gap, double confidence, int current) {
    if (Double.isNaN(sa) || Double.isNaN(sb)) {
      return 0;
    }
    double va = sa * sa;
    double vb = sb * sb;
    double v = va + vb;
    // t > z, so the n that the normal quantile gives is a lower bound: start the search there
    double z = LogScale.quantile(confidence, Double.POSITIVE_INFINITY);
    double normalN = gap > 0.0 ? v * (z / gap) * (z / gap) : Double.POSITIVE_INFINITY;
    int start =
        (int) Math.max(Math.max(2, current + 1), Math.min(Math.floor(normalN), Integer.MAX_VALUE));
    for (int n = start; n <= MAX_TRIALS_NEEDED; n++) {
      double df = v == 0.0 ? n - 1 : v * v * (n - 1) / (va * va + vb * vb);
      double half = LogScale.quantile(confidence, df) * Math.sqrt(v / n);
      if (half < gap) {
        return n;
      }
    }
    return MAX_TRIALS_NEEDED;
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
