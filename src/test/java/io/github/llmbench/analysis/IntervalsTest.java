package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class IntervalsTest {

  private static final double EPS = 1e-9;

  @Test
  void logTIntervalCoversTheTrueMedianOfLogNormalTrials() {
    Random random = new Random(26);
    double median = 120.0;
    int covered = 0;
    int reps = 2000;
    for (int r = 0; r < reps; r++) {
      double[] x = new double[5];
      for (int i = 0; i < x.length; i++) {
        x[i] = median * Math.exp(0.1 * random.nextGaussian());
      }
      Interval ci = Intervals.acrossTrials(x, 0.95);
      assertEquals(Interval.Basis.TRIALS, ci.basis());
      if (ci.contains(median)) {
        covered++;
      }
    }
    double coverage = covered / (double) reps;
    assertTrue(coverage >= 0.93 && coverage <= 0.97, "coverage " + coverage);
  }

  @Test
  void acrossTrialsIsTheGeometricMeanWithALogTInterval() {
    double[] x = {100, 110, 121};
    Interval ci = Intervals.acrossTrials(x, 0.95);
    assertEquals(110.0, ci.estimate(), 1e-9); // geometric mean of 100, 110, 121
    double se = Math.log(1.1) / Math.sqrt(3); // sd of the logs is log(1.1)
    double t = 4.302652729911275; // t_{0.975, 2}
    assertEquals(110.0 * Math.exp(-t * se), ci.low(), 1e-6);
    assertEquals(110.0 * Math.exp(t * se), ci.high(), 1e-6);
    assertEquals(0.95, ci.confidence());
  }

  @Test
  void oneTrialHasNoIntervalUnlessAWithinRunOneIsGiven() {
    Interval none = Intervals.acrossTrials(new double[] {42.0}, 0.95);
    assertEquals(Interval.Basis.NONE, none.basis());
    assertEquals(42.0, none.estimate());
    assertTrue(Double.isNaN(none.low()) && Double.isNaN(none.high()));
    assertFalse(none.contains(42.0));
    assertTrue(Double.isNaN(none.relativeHalfWidth()));

    Interval within = new Interval(42.0, 40.0, 45.0, 0.95, Interval.Basis.WITHIN_RUN);
    assertSame(within, Intervals.acrossTrials(TrialValues.single(42.0, within), 0.95));
  }

  @Test
  void identicalTrialsGiveAZeroWidthInterval() {
    Interval ci = Intervals.acrossTrials(new double[] {5.0, 5.0, 5.0}, 0.95);
    assertEquals(5.0, ci.estimate(), EPS);
    assertEquals(5.0, ci.low(), EPS);
    assertEquals(5.0, ci.high(), EPS);
    assertEquals(0.0, ci.relativeHalfWidth(), EPS);
    assertTrue(ci.contains(ci.estimate()));
  }

  @Test
  void nonPositiveFiguresAreRefusedByValue() {
    IllegalArgumentException zero =
        assertThrows(IllegalArgumentException.class, () -> TrialValues.of(1.0, 0.0, 2.0));
    assertTrue(zero.getMessage().contains("0.0") && zero.getMessage().contains("trial 2"));
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> TrialValues.of(-3.5));
    assertTrue(negative.getMessage().contains("-3.5"), negative.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TrialValues.of(Double.NaN, 1.0));
    assertThrows(IllegalArgumentException.class, () -> TrialValues.of(Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> TrialValues.of());
    assertThrows(
        IllegalArgumentException.class, () -> Intervals.acrossTrials(new double[] {1, 2}, 1.0));
  }

  @Test
  void binomialPercentileIntervalCoversTheTrueP99() {
    Random random = new Random(99);
    NormalDistribution ttft = NormalDistribution.of(100.0, 10.0);
    double trueP99 = ttft.inverseCumulativeProbability(0.99);
    int covered = 0;
    int reps = 2000;
    double[] x = new double[2000];
    for (int r = 0; r < reps; r++) {
      for (int i = 0; i < x.length; i++) {
        x[i] = 100.0 + 10.0 * random.nextGaussian();
      }
      Interval ci = Intervals.percentile(x, 0.99, 0.95);
      if (ci.contains(trueP99)) {
        covered++;
      }
    }
    double coverage = covered / (double) reps;
    assertTrue(coverage >= 0.93 && coverage <= 0.97, "coverage " + coverage);
  }

  @Test
  void percentilePointIsTheKitsNumpyLinearOneAndTheBoundsAreOrderStatistics() {
    Random random = new Random(7);
    double[] x = new double[1000];
    for (int i = 0; i < x.length; i++) {
      x[i] = Math.exp(random.nextGaussian());
    }
    Interval ci = Intervals.percentile(x, 0.99, 0.95);
    double[] sorted = x.clone();
    Arrays.sort(sorted);
    assertEquals(Percentiles.percentileOfSorted(sorted, 99.0), ci.estimate(), 0.0);
    assertEquals(Interval.Basis.WITHIN_RUN, ci.basis());
    assertTrue(
        Arrays.binarySearch(sorted, ci.low()) >= 0 && Arrays.binarySearch(sorted, ci.high()) >= 0);
    assertTrue(ci.low() < ci.estimate() && ci.estimate() < ci.high());

    // the median of 1..9 at 95%: Binomial(9, 0.5) gives ranks 2 and 8
    Interval median = Intervals.percentile(new double[] {9, 1, 8, 2, 7, 3, 6, 4, 5}, 0.5, 0.95);
    assertEquals(5.0, median.estimate(), 0.0);
    assertEquals(2.0, median.low(), 0.0);
    assertEquals(8.0, median.high(), 0.0);
  }

  @Test
  void aP99OnTooFewRequestsHasAnOpenUpperBound() {
    assertEquals(100, Intervals.STABLE_P99_REQUESTS);
    int needed = Intervals.requestsForUpperBound(0.99, 0.95);
    assertEquals(368, needed);
    assertEquals(299, Intervals.requestsForUpperBound(0.99, 0.90));

    Interval open = Intervals.percentile(ramp(needed - 1), 0.99, 0.95);
    assertEquals(Interval.Basis.WITHIN_RUN, open.basis());
    assertEquals(Double.POSITIVE_INFINITY, open.high());
    assertTrue(Double.isFinite(open.low()) && open.low() < open.estimate());
    assertEquals(Double.POSITIVE_INFINITY, open.relativeHalfWidth());

    Interval closed = Intervals.percentile(ramp(needed), 0.99, 0.95);
    assertEquals(needed, closed.high(), 0.0); // the largest value, rank n
    assertTrue(closed.contains(closed.estimate()));

    // one value is a lower bound of the P99 with 99% confidence (P(x_(1) <= q) = 0.99)...
    Interval single = Intervals.percentile(new double[] {3.0}, 0.99, 0.95);
    assertEquals(3.0, single.low(), 0.0);
    assertEquals(Double.POSITIVE_INFINITY, single.high());
    // ... but bounds the median neither way (0.5 < 0.975)
    Interval nothing = Intervals.percentile(new double[] {3.0}, 0.5, 0.95);
    assertEquals(Interval.Basis.NONE, nothing.basis());
    assertEquals(3.0, nothing.estimate());
    assertEquals(Interval.Basis.NONE, Intervals.percentile(new double[0], 0.99, 0.95).basis());
    assertThrows(IllegalArgumentException.class, () -> Intervals.percentile(ramp(10), 99, 0.95));
  }

  @Test
  void meanTInterval() {
    Interval ci = Intervals.mean(new double[] {1, 2, 3, 4, 5}, 0.95);
    assertEquals(3.0, ci.estimate(), EPS);
    double half = 2.7764451051977987 * Math.sqrt(2.5) / Math.sqrt(5); // t_{0.975, 4}
    assertEquals(3.0 - half, ci.low(), 1e-9);
    assertEquals(3.0 + half, ci.high(), 1e-9);
    assertEquals(Interval.Basis.WITHIN_RUN, ci.basis());
    assertEquals(Interval.Basis.NONE, Intervals.mean(new double[] {2.0}, 0.95).basis());
    assertThrows(
        IllegalArgumentException.class, () -> Intervals.mean(new double[] {1, Double.NaN}, 0.95));
  }

  @Test
  void intervalHelpersAndChecks() {
    Interval i = new Interval(100, 95, 105, 0.95, Interval.Basis.TRIALS);
    assertTrue(i.contains(95) && i.contains(105) && !i.contains(105.1));
    assertEquals(0.05, i.relativeHalfWidth(), EPS);
    assertThrows(
        IllegalArgumentException.class,
        () -> new Interval(100, 105, 95, 0.95, Interval.Basis.TRIALS));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Interval(100, 95, 105, 0.95, Interval.Basis.NONE));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Interval(100, 95, 105, 1.5, Interval.Basis.TRIALS));
  }

  private static double[] ramp(int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i + 1;
    }
    return x;
  }

  /**
   * A drifting run: each request's value wanders with its neighbours' (an AR(1) process, lag-one
   * correlation 0.95, as requests sharing decode steps and a server's drift do). Over 1000 seeded
   * runs of 2000 requests, the t-interval over the requests as independent values covers the true
   * mean far less often than it says; the interval from 10 time-block means covers it.
   */
  @Test
  void batchMeansCoverADriftingRunWhereIndependentRequestsDoNot() {
    Random random = new Random(4107);
    int runs = 1000;
    int n = 2000;
    double mu = 50;
    double sigma = 5;
    double rho = 0.95;
    int independent = 0;
    int batched = 0;
    for (int r = 0; r < runs; r++) {
      double[] x = new double[n];
      double y = sigma * random.nextGaussian();
      for (int i = 0; i < n; i++) {
        y = rho * y + Math.sqrt(1 - rho * rho) * sigma * random.nextGaussian();
        x[i] = mu + y;
      }
      independent += Intervals.mean(x, 0.95).contains(mu) ? 1 : 0;
      Interval b = Intervals.batchMean(x, 0.95);
      assertEquals(Interval.Basis.WITHIN_RUN, b.basis());
      batched += b.contains(mu) ? 1 : 0;
    }
    assertTrue(independent / (double) runs < 0.5, "independent-request coverage " + independent);
    assertTrue(batched / (double) runs >= 0.90, "batch-means coverage " + batched);
    assertTrue(batched / (double) runs <= 0.99, "not vacuous: " + batched);
  }

  @Test
  void batchMeansNeedTwoBlocksOfFive() {
    assertEquals(Interval.Basis.NONE, Intervals.batchMean(new double[9], 0.95).basis());
    Interval ten = Intervals.batchMean(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.95);
    assertEquals(Interval.Basis.WITHIN_RUN, ten.basis());
    assertEquals(5.5, ten.estimate(), 1e-12);
    // two blocks: means 3 and 8, sd 3.54, t_{0.975, 1} = 12.71: half-width 31.8
    assertEquals(12.706 * Math.sqrt(12.5) / Math.sqrt(2), ten.high() - 5.5, 1e-2);
    assertTrue(Double.isNaN(Intervals.batchMean(new double[0], 0.95).estimate()));
  }
}
