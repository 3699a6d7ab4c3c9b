package io.github.llmbench.analysis;

import java.util.Arrays;

/**
 * The statistics GuideLLM gives a list of weighted values (vllm-project/guidellm,
 * src/guidellm/schemas/statistics.py {@code DistributionSummary.from_values}): the values sorted,
 * equal values merged by adding their weights, zero weights dropped, the weights normalised into a
 * probability per value; the <b>mean</b> is the probability-weighted sum, and the p-th
 * <b>percentile</b> is the first value whose cumulative probability reaches p (no interpolation),
 * the median the 50th. Unweighted values each weigh 1. All zeros without values.
 *
 * @param count how many values were given (before merging)
 * @param values the distinct values, ascending
 * @param cumulative the cumulative probability up to and including each value
 * @param mean the weighted mean
 */
public record WeightedDistribution(int count, double[] values, double[] cumulative, double mean) {

  /** Below this total weight GuideLLM weighs every value 1. */
  private static final double EPSILON = 1e-6;

  /** Each value weighing 1. */
  public static WeightedDistribution of(double[] values) {
    double[] ones = new double[values.length];
    Arrays.fill(ones, 1.0);
    return of(values, ones);
  }

  /** The values with their weights (same length). */
  public static WeightedDistribution of(double[] values, double[] weights) {
    if (values.length != weights.length) {
      throw new IllegalArgumentException(values.length + " values, " + weights.length + " weights");
    }
    Integer[] order = new Integer[values.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
    double[] distinct = new double[values.length];
    double[] weight = new double[values.length];
    int n = 0;
    for (int i : order) {
      if (n > 0 && distinct[n - 1] == values[i]) {
        weight[n - 1] += weights[i];
      } else {
        distinct[n] = values[i];
        weight[n++] = weights[i];
      }
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
      if (weight[i] > 0) {
        distinct[kept] = distinct[i];
        weight[kept++] = weight[i];
      }
    }
    double total = 0;
    for (int i = 0; i < kept; i++) {
      total += weight[i];
    }
    if (total <= EPSILON) {
      Arrays.fill(weight, 0, kept, 1.0);
      total = kept;
    }
    double[] cumulative = new double[kept];
    double mean = 0;
    double running = 0;
    for (int i = 0; i < kept; i++) {
      double probability = weight[i] / total;
      mean += distinct[i] * probability;
      running += probability;
      cumulative[i] = running;
    }
    return new WeightedDistribution(
        values.length, Arrays.copyOf(distinct, kept), cumulative, kept == 0 ? 0.0 : mean);
  }

  /** The p-th percentile (0..100): the first value whose cumulative probability reaches p / 100. */
  public double percentile(double p) {
    Percentiles.checkRange(p);
    if (values.length == 0) {
      return 0.0;
    }
    double q = p / 100.0;
    int i = Arrays.binarySearch(cumulative, q);
    if (i < 0) {
      i = -i - 1;
    } else {
      while (i > 0 && cumulative[i - 1] == q) {
        i--; // numpy's searchsorted(side="left"): the first equal one
      }
    }
    return values[Math.min(i, values.length - 1)];
  }

  /** The 50th percentile. */
  public double median() {
    return percentile(50.0);
  }
}
