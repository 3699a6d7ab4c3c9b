package io.github.llmbench.analysis;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A group-sequential test of interleaved A/B pairs: after each pair, has the candidate regressed by
 * the gate's threshold, is it within it, or must another pair be run? Pure.
 *
 * <p><b>The model.</b> Pair i gives one log ratio {@code d_i}, oriented so that positive means the
 * candidate is worse. Interleaving puts both sides of a pair under the same drift, so the {@code
 * d_i} are taken as independent and normal with an unknown mean {@code mu} and unknown spread. Two
 * hypotheses, as every relative gate states them: no change ({@code mu = 0}), which must PASS with
 * a false alarm rate at most {@code alpha}, and a regression of the threshold ({@code mu = delta =
 * log(1 + threshold)}), which must not PASS: it PASSes with probability at most {@code 1 - power}
 * (the rest FAILs, or is INCONCLUSIVE when the pairs run out first).
 *
 * <p><b>The rule.</b> At each look from {@code minPairs} on, with the mean {@code m} and standard
 * deviation {@code s} of the n log ratios so far: FAIL when {@code t0 = m / (s / sqrt n)} reaches
 * the fail boundary {@code a_n}; PASS when {@code t1 = (m - delta) / (s / sqrt n)} falls to {@code
 * -b_n}; INCONCLUSIVE when neither has happened by {@code maxPairs}; else another pair. When both
 * happen at once (a change the data shows, smaller than the threshold) the mean decides: FAIL when
 * it is beyond {@code delta * a_n / (a_n + b_n)}.
 *
 * <p><b>Why this design and not Wald's SPRT.</b> The SPRT's boundaries are in terms of the
 * likelihood ratio, which needs the spread of the pairs; estimating it from the same few pairs
 * inflates the error rates by an amount that depends on the unknown spread. Here each statistic is
 * a t statistic, pivotal under its own hypothesis: {@code t0} has the same distribution under
 * {@code mu = 0} whatever the spread, and {@code t1} under {@code mu = delta}. So the boundaries
 * are found once by simulating standard normal pairs, spending {@code alpha} (for {@code a_n}) and
 * {@code beta = 1 - power} (for {@code b_n}) over the looks with the Lan-DeMets Pocock-type
 * function {@code alpha * ln(1 + (e - 1) * n / maxPairs)}, which spends early enough to stop after
 * a few pairs when the answer is clear. Each boundary ignores the other's stopping (non-binding),
 * so each error rate is at most its target, whatever the spread.
 */
public final class SequentialTest {

  /**
   * A sequential test's plan.
   *
   * @param alpha the false alarm rate at no change, in (0, 0.5)
   * @param power one minus the most a regression of the threshold may PASS, in (0.5, 1)
   * @param threshold the regression the gate must catch, as a fraction above 0 ({@code 0.10}: 10%
   *     worse)
   * @param minPairs the pairs at the first look, at least 3
   * @param maxPairs the most pairs, at least {@code minPairs}
   */
  public record Design(double alpha, double power, double threshold, int minPairs, int maxPairs) {
    public Design {
      if (!(alpha > 0.0 && alpha < 0.5)) {
        throw new IllegalArgumentException("alpha must be in (0, 0.5): " + alpha);
      }
      if (!(power > 0.5 && power < 1.0)) {
        throw new IllegalArgumentException("power must be in (0.5, 1): " + power);
      }
      if (!(threshold > 0.0) || Double.isInfinite(threshold)) {
        throw new IllegalArgumentException("the threshold must be above 0: " + threshold);
      }
      if (minPairs < MIN_PAIRS || maxPairs < minPairs || maxPairs > MAX_PAIRS) {
        throw new IllegalArgumentException(
            "pairs: the first look needs at least "
                + MIN_PAIRS
                + " and the most may be "
                + MAX_PAIRS
                + ": "
                + minPairs
                + " to "
                + maxPairs);
      }
    }

    /** The log ratio of a regression of the threshold. */
    public double delta() {
      return Math.log1p(threshold);
    }
  }

  /** What a look concluded. */
  public enum Decision {
    /** Run another pair. */
    CONTINUE,
    /** A regression: the candidate is worse than the baseline. */
    FAIL,
    /** Within the threshold. */
    PASS,
    /** Neither by the most pairs. */
    INCONCLUSIVE;

    /** Whether the test has stopped. */
    public boolean decided() {
      return this != CONTINUE;
    }
  }

  /**
   * One look at the pairs so far. Ratios are oriented as the log ratios given: above 1 is worse.
   *
   * @param pairs the pairs looked at
   * @param ratio {@code exp(mean log ratio)}
   * @param interval the ratio's two-sided interval at {@code 1 - 2 alpha} from the t distribution,
   *     not adjusted for the stopping (basis NONE before two pairs or with no spread)
   * @param failAt the ratio at which this look would have failed ({@code exp(a_n * s / sqrt n)}),
   *     NaN before the first look
   * @param passAt the ratio at or below which it would have passed ({@code exp(delta - b_n * s /
   *     sqrt n)}), NaN before the first look
   */
  public record Look(
      int pairs,
      Decision decision,
      double ratio,
      Interval interval,
      double failAt,
      double passAt) {}

  /**
   * What every A/B line and page says of the ratio and interval it prints. Labelled rather than
   * adjusted: a bias-adjusted estimate of a group-sequential t test (a median-unbiased one by the
   * stagewise ordering) needs the boundaries' joint distribution at the unknown spread, which this
   * design does not have in closed form; a test that stops early stops on the pairs that ran ahead,
   * so the plain ratio leans away from 1.
   */
  public static final String STOPPING_LOOK_RATIO =
      "at the stopping look, not adjusted for early stopping: it overstates the change when the"
          + " test stops early";

  /** The fewest pairs at a look: a t statistic needs a spread, and two pairs give it 1 df. */
  public static final int MIN_PAIRS = 3;

  /** The most pairs a design may plan. */
  public static final int MAX_PAIRS = 200;

  /** Simulated paths per boundary set: the spent rate is then within about 0.001 of its target. */
  static final int PATHS = 100_000;

  private static final long SEED = 41L;

  private static final Map<String, double[]> BOUNDARIES = new ConcurrentHashMap<>();

  private final Design design;
  private final double[] failBoundary;
  private final double[] passBoundary;

  private SequentialTest(Design design) {
    this.design = design;
    this.failBoundary = boundaries(design.alpha(), design.minPairs(), design.maxPairs());
    this.passBoundary = boundaries(1.0 - design.power(), design.minPairs(), design.maxPairs());
  }

  /** The test of this plan; its boundaries are simulated once per plan and kept. */
  public static SequentialTest of(Design design) {
    return new SequentialTest(design);
  }

  public Design design() {
    return design;
  }

  /** The fail boundary {@code a_n} on {@code t0} at n pairs; +Infinity before the first look. */
  public double failBoundary(int pairs) {
    return pairs < design.minPairs() ? Double.POSITIVE_INFINITY : failBoundary[pairs - 1];
  }

  /** The pass boundary {@code b_n} ({@code t1 <= -b_n} passes); +Infinity before the first look. */
  public double passBoundary(int pairs) {
    return pairs < design.minPairs() ? Double.POSITIVE_INFINITY : passBoundary[pairs - 1];
  }

  /**
   * The smallest regression (log scale, oriented worse) the design catches with its power when the
   * pairs' log ratios spread by {@code pairSd}: {@code (a_N + b_N) pairSd / sqrt N} at its planned
   * most pairs {@code N}, where its last look FAILs such a change with about the power (a PASS on
   * the way is at most {@code 1 - power}). The design's, not a look's: a look's {@code (a_n + b_n)
   * s / sqrt n} at the pairs it stopped at is larger, and says only what those pairs could tell.
   */
  public double smallestCaughtLog(double pairSd) {
    int most = design.maxPairs();
    return (failBoundary(most) + passBoundary(most)) * pairSd / Math.sqrt(most);
  }

  /**
   * Looks at the log ratios so far, one per pair in order (positive: the candidate worse).
   *
   * @throws IllegalArgumentException with more pairs than the plan's most, or a value not finite
   */
  public Look look(double[] logRatiosWorse) {
    int n = logRatiosWorse.length;
    if (n > design.maxPairs()) {
      throw new IllegalArgumentException(
          "the plan has at most " + design.maxPairs() + " pairs: " + n);
    }
    for (double d : logRatiosWorse) {
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("a log ratio must be finite: " + d);
      }
    }
    if (n == 0) {
      return new Look(
          0, Decision.CONTINUE, Double.NaN, Interval.none(Double.NaN, 0.5), Double.NaN, Double.NaN);
    }
    double mean = LogScale.mean(logRatiosWorse);
    double sd = n >= 2 ? sd(logRatiosWorse, mean) : Double.NaN;
    Interval interval = interval(mean, sd, n);
    if (n < design.minPairs()) {
      return new Look(n, Decision.CONTINUE, Math.exp(mean), interval, Double.NaN, Double.NaN);
    }
    double a = failBoundary(n);
    double b = passBoundary(n);
    double se = sd / Math.sqrt(n);
    double delta = design.delta();
    boolean fails = se == 0.0 ? mean > 0.0 : mean / se >= a;
    boolean passes = se == 0.0 ? mean < delta : (mean - delta) / se <= -b;
    Decision decision;
    if (fails && passes) {
      decision = mean > delta * a / (a + b) ? Decision.FAIL : Decision.PASS;
    } else if (fails) {
      decision = Decision.FAIL;
    } else if (passes) {
      decision = Decision.PASS;
    } else {
      decision = n == design.maxPairs() ? Decision.INCONCLUSIVE : Decision.CONTINUE;
    }
    return new Look(
        n, decision, Math.exp(mean), interval, Math.exp(a * se), Math.exp(delta - b * se));
  }

  /** The t interval of the mean log ratio at {@code 1 - 2 alpha}, as a ratio. */
  private Interval interval(double mean, double sd, int n) {
    double confidence = 1.0 - 2.0 * design.alpha();
    if (n < 2 || !(sd > 0.0)) {
      return Interval.none(Math.exp(mean), confidence);
    }
    double half = LogScale.quantile(1.0 - design.alpha(), n - 1.0) * sd / Math.sqrt(n);
    return new Interval(
        Math.exp(mean),
        Math.exp(mean - half),
        Math.exp(mean + half),
        confidence,
        Interval.Basis.TRIALS);
  }

  /**
   * The boundaries {@code c_n} (index n - 1) of a one-sided group-sequential t test spending {@code
   * rate} over looks at {@code minPairs..maxPairs}: under the null, the chance that {@code t_n >=
   * c_n} at some look is {@code rate}. Found by simulating {@link #PATHS} standard normal paths
   * with a fixed seed: at each look, the boundary is the order statistic of the surviving paths' t
   * values that lets the look's share of the rate cross.
   */
  static double[] boundaries(double rate, int minPairs, int maxPairs) {
    String key = rate + "/" + minPairs + "/" + maxPairs;
    return BOUNDARIES.computeIfAbsent(key, k -> simulate(rate, minPairs, maxPairs)).clone();
  }

  private static double[] simulate(double rate, int minPairs, int maxPairs) {
    SplittableRandom random = new SplittableRandom(SEED);
    double[] sum = new double[PATHS];
    double[] sumSq = new double[PATHS];
    boolean[] stopped = new boolean[PATHS];
    double[] t = new double[PATHS];
    double[] out = new double[maxPairs];
    Arrays.fill(out, Double.POSITIVE_INFINITY);
    int crossed = 0;
    for (int n = 1; n <= maxPairs; n++) {
      for (int p = 0; p < PATHS; p++) {
        double x = gaussian(random);
        sum[p] += x;
        sumSq[p] += x * x;
      }
      if (n < minPairs) {
        continue;
      }
      int toCross = (int) Math.round(PATHS * spent(rate, n, maxPairs)) - crossed;
      if (toCross <= 0) {
        continue;
      }
      double[] alive = new double[PATHS - crossed];
      int i = 0;
      for (int p = 0; p < PATHS; p++) {
        if (!stopped[p]) {
          double mean = sum[p] / n;
          double var = Math.max(0.0, (sumSq[p] - n * mean * mean) / (n - 1));
          t[p] = mean / Math.sqrt(var / n);
          alive[i++] = t[p];
        }
      }
      Arrays.sort(alive);
      double c = alive[alive.length - toCross];
      out[n - 1] = c;
      for (int p = 0; p < PATHS; p++) {
        if (!stopped[p] && t[p] >= c) {
          stopped[p] = true;
          crossed++;
        }
      }
    }
    return out;
  }

  /** Lan-DeMets Pocock-type spending: the share of {@code rate} spent by look n of {@code max}. */
  static double spent(double rate, int n, int max) {
    return rate * Math.log(1.0 + (Math.E - 1.0) * n / max);
  }

  /** A standard normal draw (Marsaglia's polar method). */
  private static double gaussian(SplittableRandom random) {
    double u;
    double v;
    double s;
    do {
      u = 2.0 * random.nextDouble() - 1.0;
      v = 2.0 * random.nextDouble() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * Math.sqrt(-2.0 * Math.log(s) / s);
  }

  private static double sd(double[] x, double mean) {
    double ss = 0.0;
    for (double v : x) {
      ss += (v - mean) * (v - mean);
    }
    return Math.sqrt(ss / (x.length - 1));
  }
}
