package io.github.llmbench.analysis;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * Confidence intervals for a level's figures: across repeated trials, and within one run over its
 * requests. Pure functions.
 *
 * <p><b>Across trials</b> ({@link #acrossTrials}): each trial gives one positive figure x_i; the
 * point is the geometric mean and the interval {@code exp(mean(log x) ± t_{(1+c)/2, n-1} * sd(log
 * x) / sqrt(n))}. Latency and throughput figures are positive and vary multiplicatively (a slower
 * run is slower by a factor, not by a fixed number of ms), so their logs are close to normal and
 * the log-t interval keeps its coverage on small n where a plain t-interval on skewed data does
 * not; for log-normal data the geometric mean estimates the median. Its ratio form is also exactly
 * what a relative gate (+10%) asks about: a difference of logs is the log of a ratio.
 *
 * <p><b>Within one run</b> ({@link #batchMean}, {@link #percentile}): over the run's requests only,
 * marked {@link Interval.Basis#WITHIN_RUN}: it ignores run-to-run drift, which is often the larger
 * noise, so it is what a one-trial run has, not a substitute for trials. A run's requests are not
 * independent (they share decode steps, and the server drifts), so the mean's interval is made from
 * time-block (batch) means; a percentile's order-statistic interval assumes independence, so it is
 * shown but no gate is judged on it.
 */
public final class Intervals {

  private Intervals() {}

  /**
   * Requests below which a P99 is flagged as unstable: the 99th percentile of 100 requests sits
   * between two of them, so on fewer one request decides it (the capacity search's probes use the
   * same number).
   */
  public static final int STABLE_P99_REQUESTS = 100;

  /** {@link #acrossTrials(TrialValues, double)} of trials without a within-run interval. */
  public static Interval acrossTrials(double[] figures, double confidence) {
    return acrossTrials(TrialValues.of(figures), confidence);
  }

  /**
   * The trials' geometric mean with its log-t interval ({@link Interval.Basis#TRIALS}) for two
   * trials or more. One trial gives its within-run interval as it is (its own confidence and
   * basis), or without one {@link Interval.Basis#NONE} with the trial's figure as the estimate.
   */
  public static Interval acrossTrials(TrialValues trials, double confidence) {
    checkConfidence(confidence);
    if (trials.n() == 1) {
      Interval w = trials.withinRun();
      return w != null && w.isKnown() ? w : Interval.none(trials.values()[0], confidence);
    }
    return LogScale.of(trials).interval(confidence);
  }

  /**
   * The mean of independent values with its t-interval {@code mean ± t_{(1+c)/2, n-1} * sd /
   * sqrt(n)}, {@link Interval.Basis#WITHIN_RUN}; {@link Interval.Basis#NONE} for fewer than two
   * values (the estimate is NaN for none). A run's requests are not independent: their mean's
   * interval is {@link #batchMean}.
   */
  public static Interval mean(double[] values, double confidence) {
    checkConfidence(confidence);
    checkFinite(values);
    int n = values.length;
    if (n == 0) {
      return Interval.none(Double.NaN, confidence);
    }
    double mean = LogScale.mean(values);
    if (n == 1) {
      return Interval.none(mean, confidence);
    }
    double half =
        LogScale.quantile(0.5 + confidence / 2.0, n - 1) * LogScale.sd(values, mean) / Math.sqrt(n);
    return new Interval(mean, mean - half, mean + half, confidence, Interval.Basis.WITHIN_RUN);
  }

  /** The most blocks {@link #batchMean} splits a run into. */
  public static final int BATCHES = 10;

  /** The fewest values a block of {@link #batchMean} holds. */
  public static final int MIN_PER_BATCH = 5;

  /**
   * The mean of one run's values in the order the requests finished, with an interval from
   * time-block (batch) means, {@link Interval.Basis#WITHIN_RUN}: the values are split in finish
   * order into {@code b = min(}{@value #BATCHES}{@code , n / }{@value #MIN_PER_BATCH}{@code )}
   * consecutive blocks of near-equal size, and the interval is {@code mean ± t_{(1+c)/2, b-1} *
   * sd(block means) / sqrt(b)}. Requests close in time share decode steps and the server's drift,
   * so their values are correlated and a t-interval over the requests as independent values is too
   * narrow; block means of long enough blocks are close to independent, so theirs is not. {@link
   * Interval.Basis#NONE} with fewer than two blocks (the estimate is still the mean, NaN for none).
   */
  public static Interval batchMean(double[] valuesInFinishOrder, double confidence) {
    checkConfidence(confidence);
    checkFinite(valuesInFinishOrder);
    int n = valuesInFinishOrder.length;
    if (n == 0) {
      return Interval.none(Double.NaN, confidence);
    }
    double mean = LogScale.mean(valuesInFinishOrder);
    int b = Math.min(BATCHES, n / MIN_PER_BATCH);
    if (b < 2) {
      return Interval.none(mean, confidence);
    }
    double[] means = new double[b];
    for (int k = 0; k < b; k++) {
      int from = (int) ((long) n * k / b);
      int to = (int) ((long) n * (k + 1) / b);
      means[k] = LogScale.mean(Arrays.copyOfRange(valuesInFinishOrder, from, to));
    }
    double half =
        LogScale.quantile(0.5 + confidence / 2.0, b - 1)
            * LogScale.sd(means, LogScale.mean(means))
            / Math.sqrt(b);
    return new Interval(mean, mean - half, mean + half, confidence, Interval.Basis.WITHIN_RUN);
  }

  /**
   * The p-quantile (0 &lt; p &lt; 1, e.g. 0.99 for P99) of one run's values with its
   * distribution-free order-statistic interval, {@link Interval.Basis#WITHIN_RUN}.
   *
   * <p>The point estimate is the kit's percentile ({@link Percentiles}: numpy's linear
   * interpolation). The bounds are the order statistics x_(l) and x_(u) (1-based ranks of the
   * sorted values) chosen from Binomial(n, p) quantiles, the number of values below the true
   * quantile, so that each tail holds at most (1 - c)/2: {@code P(x_(l) <= q <= x_(u)) >= c}
   * whatever the distribution. No normality, no spread estimate.
   *
   * <p>When n is too small for a rank to exist at that confidence the bound is open: {@code high =
   * +Infinity} when no upper rank exists (a P99 at 95% needs {@link #requestsForUpperBound} = 368
   * requests for one), {@code low = -Infinity} when no lower rank does (a low percentile on few
   * values); the other bound still holds, so a gate can still fail on it. When neither exists the
   * interval is {@link Interval.Basis#NONE}.
   */
  public static Interval percentile(double[] values, double p, double confidence) {
    checkConfidence(confidence);
    if (!(p > 0.0 && p < 1.0)) {
      throw new IllegalArgumentException("quantile must be in (0, 1): " + p);
    }
    checkFinite(values);
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double estimate = Percentiles.percentileOfSorted(sorted, p * 100.0);
    if (n == 0) {
      return Interval.none(estimate, confidence);
    }
    double tail = (1.0 - confidence) / 2.0;
    BinomialDistribution below = BinomialDistribution.of(n, p);
    // lower rank l: the largest with P(B <= l - 1) <= tail, so P(x_(l) <= q) = P(B >= l) >= 1 -
    // tail
    int k = below.inverseCumulativeProbability(tail);
    int l = below.cumulativeProbability(k) <= tail ? k + 1 : k;
    // upper rank u: the smallest with P(B >= u) <= tail, so P(x_(u) >= q) = P(B <= u - 1) >= 1 -
    // tail
    int u = below.inverseSurvivalProbability(tail) + 1;
    boolean hasLow = l >= 1;
    boolean hasHigh = u <= n;
    if (!hasLow && !hasHigh) {
      return Interval.none(estimate, confidence);
    }
    double low = hasLow ? sorted[l - 1] : Double.NEGATIVE_INFINITY;
    double high = hasHigh ? sorted[u - 1] : Double.POSITIVE_INFINITY;
    return new Interval(estimate, low, high, confidence, Interval.Basis.WITHIN_RUN);
  }

  /**
   * The fewest values for which {@link #percentile} has an upper bound for the p-quantile at this
   * confidence: the smallest n with {@code p^n <= (1 - c)/2} (368 for P99 at 95%, 299 at 90%).
   */
  public static int requestsForUpperBound(double p, double confidence) {
    checkConfidence(confidence);
    if (!(p > 0.0 && p < 1.0)) {
      throw new IllegalArgumentException("quantile must be in (0, 1): " + p);
    }
    double tail = (1.0 - confidence) / 2.0;
    int n = (int) Math.ceil(Math.log(tail) / Math.log(p));
    while (n > 1 && Math.pow(p, n - 1) <= tail) {
      n--;
    }
    while (Math.pow(p, n) > tail) {
      n++;
    }
    return Math.max(n, 1);
  }

  static void checkConfidence(double confidence) {
    if (!(confidence > 0.0 && confidence < 1.0)) {
      throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
    }
  }

  private static void checkFinite(double[] values) {
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        throw new IllegalArgumentException(
            "values must be finite: " + values[i] + " (value " + (i + 1) + ")");
      }
    }
  }
}
