package io.github.llmbench.analysis;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A positive figure, or a ratio of two, on the log scale: its centre, the standard error on each
 * side and the degrees of freedom of each side (infinite where a normal approximation is used).
 *
 * <p>Across trials both sides are the same ({@code sd(log x) / sqrt(n)}, {@code n - 1} degrees of
 * freedom). A within-run interval (one trial) gives each side its own error, read back from the
 * interval's log half-widths with normal quantiles, because a percentile's order-statistic interval
 * is not symmetric. {@code sdLog} and {@code n} are the trials' spread, for the trials-needed
 * estimate; NaN and 1 without trials.
 */
record LogScale(
    double center,
    double seLow,
    double seHigh,
    double dfLow,
    double dfHigh,
    Interval.Basis basis,
    double sdLog,
    int n) {

  private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0.0, 1.0);

  /**
   * The trials on the log scale; null when one trial comes without a usable within-run interval.
   */
  static LogScale of(TrialValues trials) {
    double[] x = trials.values();
    int n = x.length;
    if (n >= 2) {
      double[] logs = new double[n];
      for (int i = 0; i < n; i++) {
        logs[i] = Math.log(x[i]);
      }
      double mean = mean(logs);
      double sd = sd(logs, mean);
      double se = sd / Math.sqrt(n);
      return new LogScale(mean, se, se, n - 1, n - 1, Interval.Basis.TRIALS, sd, n);
    }
    Interval w = trials.withinRun();
    if (w == null || !w.isKnown() || !(w.estimate() > 0.0)) {
      return null;
    }
    double z = quantile(0.5 + w.confidence() / 2.0, Double.POSITIVE_INFINITY);
    double seLow = w.low() > 0.0 ? Math.log(w.estimate() / w.low()) / z : Double.POSITIVE_INFINITY;
    double seHigh = Math.log(w.high() / w.estimate()) / z;
    double inf = Double.POSITIVE_INFINITY;
    return new LogScale(
        Math.log(x[0]),
        Math.max(seLow, 0.0),
        Math.max(seHigh, 0.0),
        inf,
        inf,
        w.basis(),
        Double.NaN,
        1);
  }

  /** {@code b - a}: the log of the ratio b/a, the two errors combined as independent. */
  static LogScale difference(LogScale a, LogScale b) {
    // b's upper side and a's lower side make the ratio's upper side, and the other way round
    double seHigh = Math.hypot(b.seHigh, a.seLow);
    double seLow = Math.hypot(b.seLow, a.seHigh);
    Interval.Basis basis =
        a.basis == Interval.Basis.TRIALS && b.basis == Interval.Basis.TRIALS
            ? Interval.Basis.TRIALS
            : Interval.Basis.WITHIN_RUN;
    return new LogScale(
        b.center - a.center,
        seLow,
        seHigh,
        welch(b.seLow, b.dfLow, a.seHigh, a.dfHigh, a.n + b.n - 2),
        welch(b.seHigh, b.dfHigh, a.seLow, a.dfLow, a.n + b.n - 2),
        basis,
        Double.NaN,
        Math.min(a.n, b.n));
  }

  /**
   * Welch–Satterthwaite degrees of freedom of the sum of two independent variances {@code s1^2 +
   * s2^2}; a term with infinite degrees of freedom (a normal approximation) adds no uncertainty to
   * the variance estimate. {@code fallback} when both errors are 0 (the degrees of freedom then do
   * not matter).
   */
  static double welch(double s1, double df1, double s2, double df2, double fallback) {
    double v1 = s1 * s1;
    double v2 = s2 * s2;
    if (Double.isInfinite(v1) || Double.isInfinite(v2)) {
      return Double.POSITIVE_INFINITY;
    }
    double sum = v1 + v2;
    if (sum == 0.0) {
      return Math.max(fallback, 1.0);
    }
    double denominator =
        (Double.isInfinite(df1) ? 0.0 : v1 * v1 / df1)
            + (Double.isInfinite(df2) ? 0.0 : v2 * v2 / df2);
    return denominator == 0.0 ? Double.POSITIVE_INFINITY : sum * sum / denominator;
  }

  /**
   * The lower and upper bounds on the log scale, each with probability {@code p} (e.g. 0.975) on
   * its inner side; one t quantile when both sides have the same degrees of freedom.
   */
  double[] bounds(double p) {
    double qLow = seLow == 0.0 ? 0.0 : quantile(p, dfLow);
    double qHigh =
        seHigh == 0.0 ? 0.0 : dfHigh == dfLow && seLow != 0.0 ? qLow : quantile(p, dfHigh);
    return new double[] {
      seLow == 0.0 ? center : center - qLow * seLow,
      seHigh == 0.0 ? center : center + qHigh * seHigh
    };
  }

  /** The two-sided interval of {@code exp(this)} at the given confidence. */
  Interval interval(double confidence) {
    double[] b = bounds(0.5 + confidence / 2.0);
    return new Interval(Math.exp(center), Math.exp(b[0]), Math.exp(b[1]), confidence, basis);
  }

  /**
   * The p-quantile of Student's t with {@code df} degrees of freedom (Commons Statistics); the
   * standard normal's for infinite {@code df}.
   */
  static double quantile(double p, double df) {
    if (Double.isInfinite(df)) {
      return STANDARD_NORMAL.inverseCumulativeProbability(p);
    }
    return TDistribution.of(df).inverseCumulativeProbability(p);
  }

  /** The mean, summed as offsets from the first value so that equal values give it exactly. */
  static double mean(double[] x) {
    double sum = 0.0;
    for (double v : x) {
      sum += v - x[0];
    }
    return x[0] + sum / x.length;
  }

  /** The sample standard deviation (n - 1), two-pass. */
  static double sd(double[] x, double mean) {
    double ss = 0.0;
    for (double v : x) {
      double d = v - mean;
      ss += d * d;
    }
    return Math.sqrt(ss / (x.length - 1));
  }
}
