package io.github.llmbench.analysis;

/**
 * An ordinary least-squares line y = intercept + slope x.
 *
 * @param sse the sum of squared residuals
 * @param sxx the sum of squared deviations of x (0 when every x is the same: slope 0)
 * @param meanY the mean of y
 */
record LinearFit(double slope, double intercept, double sse, double sxx, double meanY) {

  static LinearFit of(double[] x, double[] y) {
    int n = x.length;
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxy += (x[i] - mx) * (y[i] - my);
    }
    double slope = sxx > 0 ? sxy / sxx : 0;
    double intercept = my - slope * mx;
    double sse = 0;
    for (int i = 0; i < n; i++) {
      double e = y[i] - (intercept + slope * x[i]);
      sse += e * e;
    }
    return new LinearFit(slope, intercept, sse, sxx, my);
  }

  /** The standard error of the slope (n - 2 degrees of freedom). */
  double slopeStandardError(int n) {
    return Math.sqrt(sse / (n - 2) / sxx);
  }
}
