package io.github.llmbench.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Where a series of runs' figures changed level: E-divisive means (Matteson and James, "A
 * Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 2014), as
 * Apache Otava (MongoDB's signal processing) runs it on CI history. Pure: no I/O.
 *
 * <p>Recursive bisection: each segment's best split is the one that maximises the energy statistic
 * with alpha = 1, {@code q = m k / (m + k) * (2/(m k) sum|x - y| - mean|x - x'| - mean|y - y'|)}
 * over the split's left values x (m of them) and right values y (k). The segment with the largest
 * such statistic is split there when a permutation test finds a change in its mean: the segment's
 * values are shuffled {@link Settings#permutations} times (a seeded {@link Random}, so a series
 * always gets the same answer), and the p-value is {@code (j + 1) / (R + 1)} with j the shuffles
 * whose statistic ({@link #maxMeanShift}: the largest t between the means over every split) reaches
 * the segment's own. Splitting stops at the first best split whose p-value is not under {@link
 * Settings#pValue}: under no change the first test is the only one that can raise a false alarm, so
 * a series without a step shows a change point with probability about {@code pValue}.
 */
public final class ChangePoints {
  private ChangePoints() {}

  /**
   * How the series is searched.
   *
   * @param pValue a change point's p-value must be under it. 0.01 by default, not 0.05: a level has
   *     about twenty figures, each its own series, and at 0.05 one of them would show a false
   *     change point in most levels
   * @param permutations shuffles per test; 499 lets a p-value reach 0.002, well under 0.01
   * @param minSegment the fewest runs on each side of a split; 2 lets a step be found two runs
   *     after it starts (one run alone is an outlier: a shuffle puts it at either end, so its
   *     p-value cannot go under about 2/n)
   * @param seed the shuffles' seed
   */
  public record Settings(double pValue, int permutations, int minSegment, long seed) {
    public static final Settings DEFAULT = new Settings(0.01, 499, 2, 1);

    public Settings {
      if (!(pValue > 0 && pValue < 1)) {
        throw new IllegalArgumentException("p-value must be between 0 and 1: " + pValue);
      }
      if (permutations < 1 || minSegment < 1) {
        throw new IllegalArgumentException(
            "permutations and the segment size must be 1 or more: "
                + permutations
                + ", "
                + minSegment);
      }
    }

    public Settings withPValue(double p) {
      return new Settings(p, permutations, minSegment, seed);
    }

    public Settings withSeed(long s) {
      return new Settings(pValue, permutations, minSegment, s);
    }
  }

  /**
   * A change point.
   *
   * @param index the first point of the new level, counted from 1
   * @param before the mean of the segment before it
   * @param after the mean of the segment from it
   * @param pValue its permutation test's p-value
   */
  public record ChangePoint(int index, double before, double after, double pValue) {

    /** {@code after / before - 1}: +0.10 for a figure 10% higher from this point on. */
    public double magnitude() {
      return after / before - 1;
    }
  }

  /** A segment's best split: its first right-hand index (into the segment) and its statistic. */
  private record Split(int at, double q) {
    static final Split NONE = new Split(-1, Double.NEGATIVE_INFINITY);

    boolean exists() {
      return at >= 0;
    }
  }

  /** The change points of {@code series} (finite values), in series order. */
  public static List<ChangePoint> find(double[] series, Settings settings) {
    for (double v : series) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("a series needs finite values: " + v);
      }
    }
    Random random = new Random(settings.seed());
    List<Integer> cuts = new ArrayList<>(); // the starts of the segments after the first
    List<Double> pValues = new ArrayList<>();
    while (true) {
      List<int[]> segments = segments(cuts, series.length);
      int[] best = null;
      Split bestSplit = Split.NONE;
      for (int[] seg : segments) {
        Split s = bestSplit(slice(series, seg[0], seg[1]), settings.minSegment());
        if (s.exists() && s.q() > bestSplit.q()) {
          bestSplit = s;
          best = seg;
        }
      }
      if (best == null) {
        break;
      }
      double[] segment = slice(series, best[0], best[1]);
      double p = pValue(segment, maxMeanShift(segment, settings.minSegment()), settings, random);
      if (p >= settings.pValue()) {
        break;
      }
      cuts.add(best[0] + bestSplit.at());
      pValues.add(p);
    }
    return changePoints(series, cuts, pValues);
  }

  /** The segments {@code [start, end)} that the cuts leave, in order. */
  private static List<int[]> segments(List<Integer> cuts, int n) {
    List<Integer> sorted = new ArrayList<>(cuts);
    sorted.sort(Comparator.naturalOrder());
    List<int[]> out = new ArrayList<>();
    int start = 0;
    for (int c : sorted) {
      out.add(new int[] {start, c});
      start = c;
    }
    out.add(new int[] {start, n});
    return out;
  }

  private static List<ChangePoint> changePoints(
      double[] series, List<Integer> cuts, List<Double> pValues) {
    List<int[]> segments = segments(cuts, series.length);
    List<ChangePoint> out = new ArrayList<>();
    for (int i = 1; i < segments.size(); i++) {
      int[] left = segments.get(i - 1);
      int[] right = segments.get(i);
      out.add(
          new ChangePoint(
              right[0] + 1,
              mean(series, left[0], left[1]),
              mean(series, right[0], right[1]),
              pValues.get(cuts.indexOf(right[0]))));
    }
    return out;
  }

  /**
   * The share of shuffles whose best statistic reaches {@code observed}, counted as (j+1)/(R+1).
   */
  private static double pValue(double[] segment, double observed, Settings s, Random random) {
    double[] shuffled = segment.clone();
    int reached = 0;
    double tolerance = 1e-12 * Math.max(1, Math.abs(observed));
    for (int r = 0; r < s.permutations(); r++) {
      shuffle(shuffled, random);
      if (maxMeanShift(shuffled, s.minSegment()) >= observed - tolerance) {
        reached++;
      }
    }
    return (reached + 1.0) / (s.permutations() + 1.0);
  }

  /**
   * The permutation test's statistic: the largest Student's t (pooled variance, absolute value)
   * between the means of {@code x}'s two parts over every split with at least {@code minSegment}
   * values a side. O(n) with running sums. The location is E-divisive's; its significance is tested
   * on the means, as Otava tests its candidates with a t-test, because a mean shift is what a
   * regression is and the energy statistic's own test has much less power for one in a short series
   * (a +10% step at log sd 0.05 in 30 runs: found in about 2 of 3 series, against 19 of 20 with
   * this statistic; docs/history.md).
   */
  static double maxMeanShift(double[] x, int minSegment) {
    int n = x.length;
    double sum = 0;
    double squares = 0;
    for (double v : x) {
      sum += v;
      squares += v * v;
    }
    double leftSum = 0;
    double leftSquares = 0;
    double best = 0;
    for (int at = 1; at < n; at++) {
      leftSum += x[at - 1];
      leftSquares += x[at - 1] * x[at - 1];
      int m = at;
      int k = n - at;
      if (m < minSegment || k < minSegment) {
        continue;
      }
      double left = leftSum / m;
      double right = (sum - leftSum) / k;
      double within = (leftSquares - m * left * left) + (squares - leftSquares - k * right * right);
      double se = Math.sqrt(Math.max(within, 0) / (n - 2) * (1.0 / m + 1.0 / k));
      double t = se > 0 ? Math.abs(right - left) / se : right == left ? 0 : Double.MAX_VALUE;
      best = Math.max(best, t);
    }
    return best;
  }

  private static void shuffle(double[] a, Random random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      double t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /**
   * The split of {@code x} that maximises the energy statistic, with at least {@code minSegment}
   * values on each side; {@link Split#NONE} when the segment is too short. O(n^2): the sums of
   * distances within the left part, within the right part and across are updated as the split moves
   * one value to the right.
   */
  static Split bestSplit(double[] x, int minSegment) {
    int n = x.length;
    if (n < 2 * minSegment) {
      return Split.NONE;
    }
    double[] toEarlier = new double[n]; // sum over i < t of |x_i - x_t|
    double[] toLater = new double[n]; // sum over j > t of |x_t - x_j|
    double total = 0; // every pair once
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double d = Math.abs(x[i] - x[j]);
        toEarlier[j] += d;
        toLater[i] += d;
        total += d;
      }
    }
    double withinLeft = 0;
    double withinRight = total;
    double across = 0;
    Split best = Split.NONE;
    for (int tau = 1; tau < n; tau++) {
      // value tau-1 moves from the right part to the left
      int moved = tau - 1;
      withinLeft += toEarlier[moved];
      withinRight -= toLater[moved];
      across += toLater[moved] - toEarlier[moved];
      int m = tau;
      int k = n - tau;
      if (m < minSegment || k < minSegment) {
        continue;
      }
      double energy =
          2 * across / ((double) m * k)
              - (m > 1 ? 2 * withinLeft / ((double) m * (m - 1)) : 0)
              - (k > 1 ? 2 * withinRight / ((double) k * (k - 1)) : 0);
      double q = (double) m * k / (m + k) * energy;
      if (q > best.q()) {
        best = new Split(tau, q);
      }
    }
    return best;
  }

  private static double[] slice(double[] a, int from, int to) {
    double[] out = new double[to - from];
    System.arraycopy(a, from, out, 0, out.length);
    return out;
  }

  private static double mean(double[] a, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += a[i];
    }
    return sum / (to - from);
  }
}
