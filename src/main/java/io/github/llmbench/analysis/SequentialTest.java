package io.github.llmbench.analysis;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * PLACEHOLDER for the lead's sequential test (issue 41's DESIGN41.md interface), so the A/B run
 * mode compiles before it lands on main; replaced by the real one at the merge. It applies the
 * fixed-sample two-point rule at each look, which is not the real test's error control.
 */
public final class SequentialTest {
  /** alpha, power, threshold (0.10 = 10% worse), pairs at the first look (>= 3), most pairs. */
  public record Design(double alpha, double power, double threshold, int minPairs, int maxPairs) {}

  public enum Decision {
    CONTINUE,
    FAIL,
    PASS,
    INCONCLUSIVE
  }

  /** A look at the pairs so far. */
  public record Look(
      int pairs,
      Decision decision,
      double ratio,
      Interval interval,
      double failAt,
      double passAt) {}

  private final Design design;

  private SequentialTest(Design design) {
    this.design = design;
  }

  public static SequentialTest of(Design design) {
    return new SequentialTest(design);
  }

  public Design design() {
    return design;
  }

  /** Looks at the log ratios so far (oriented: positive = candidate worse), one per pair. */
  public Look look(double[] logRatiosWorse) {
    int n = logRatiosWorse.length;
    double mean = 0;
    for (double d : logRatiosWorse) {
      mean += d / n;
    }
    if (n < Math.max(2, design.minPairs())) {
      return new Look(
          n,
          Decision.CONTINUE,
          Math.exp(mean),
          Interval.none(Math.exp(mean), 0.9),
          Double.NaN,
          Double.NaN);
    }
    double ss = 0;
    for (double d : logRatiosWorse) {
      ss += (d - mean) * (d - mean);
    }
    double se = Math.sqrt(ss / (n - 1) / n);
    TDistribution t = TDistribution.of(n - 1);
    double qa = t.inverseCumulativeProbability(1 - design.alpha());
    double qb = t.inverseCumulativeProbability(design.power());
    double delta = Math.log1p(design.threshold());
    double failAt = qa * se;
    double passAt = delta - qb * se;
    if ((qa + qb) * se <= delta) {
      failAt = passAt = delta * qa / (qa + qb);
    }
    Decision d = mean > failAt ? Decision.FAIL : mean < passAt ? Decision.PASS : Decision.CONTINUE;
    if (d == Decision.CONTINUE && n >= design.maxPairs()) {
      d = Decision.INCONCLUSIVE;
    }
    double conf = 1 - 2 * design.alpha();
    Interval ci =
        new Interval(
            Math.exp(mean),
            Math.exp(mean - qa * se),
            Math.exp(mean + qa * se),
            conf,
            Interval.Basis.TRIALS);
    return new Look(n, d, Math.exp(mean), ci, Math.exp(failAt), Math.exp(passAt));
  }
}
