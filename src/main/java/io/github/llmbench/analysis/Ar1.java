package io.github.llmbench.analysis;

/**
 * Runs whose figures follow an AR(1): consecutive runs on one testbed share drift, so the mean of n
 * of them varies more than {@code sigma^2 / n}. Pure.
 */
public final class Ar1 {
  private Ar1() {}

  /**
   * How many times {@code sigma^2 / n} the variance of the mean of {@code n} consecutive runs is,
   * at lag-1 autocorrelation {@code rho}: {@code 1 + 2 sum_{j=1}^{n-1} (1 - j/n) rho^j}.
   */
  public static double meanVarianceFactor(int n, double rho) {
    double factor = 1;
    double power = 1;
    for (int j = 1; j < n; j++) {
      power *= rho;
      factor += 2 * (1 - (double) j / n) * power;
    }
    return factor;
  }
}
