package io.github.llmbench.analysis;

import java.util.Objects;

/**
 * A figure with its two-sided confidence interval, and how the interval was made.
 *
 * <p>The basis matters to whoever reads it: an interval across repeated trials holds run-to-run
 * drift, one made over a single run's requests does not, so a report must say which it shows; and
 * too little data gives no interval at all rather than a misleading narrow one.
 *
 * <p>Bounds may be infinite: a percentile interval whose upper order statistic does not exist for
 * the number of requests at hand has {@code high = +Infinity} (see {@link Intervals#percentile}),
 * and a ratio whose standard error is unbounded runs from 0 to {@code +Infinity}.
 *
 * @param estimate the point estimate (geometric mean of trials, mean, percentile or ratio)
 * @param low the lower bound; NaN when {@link Basis#NONE}
 * @param high the upper bound; NaN when {@link Basis#NONE}
 * @param confidence the two-sided confidence level in (0, 1), e.g. 0.95
 * @param basis how the interval was made
 */
public record Interval(double estimate, double low, double high, double confidence, Basis basis) {

  /** How an interval was made. */
  public enum Basis {
    /** Across repeated trials of a level: one figure per trial, run-to-run drift included. */
    TRIALS,
    /**
     * Over one run's requests only: it ignores run-to-run drift (typically the larger noise), so a
     * report must mark it as within-run.
     */
    WITHIN_RUN,
    /** Too little data for an interval: {@code low} and {@code high} are NaN. */
    NONE
  }

  public Interval {
    Objects.requireNonNull(basis, "basis");
    if (!(confidence > 0.0 && confidence < 1.0)) {
      throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
    }
    if (basis == Basis.NONE) {
      if (!Double.isNaN(low) || !Double.isNaN(high)) {
        throw new IllegalArgumentException(
            "an interval with basis NONE has no bounds: [" + low + ", " + high + "]");
      }
    } else if (Double.isNaN(low) || Double.isNaN(high) || low > high) {
      throw new IllegalArgumentException("bounds must be ordered: [" + low + ", " + high + "]");
    }
  }

  /** No interval: too little data; the estimate alone (it may be NaN when there is none either). */
  public static Interval none(double estimate, double confidence) {
    return new Interval(estimate, Double.NaN, Double.NaN, confidence, Basis.NONE);
  }

  /** Whether the interval has bounds (its basis is not {@link Basis#NONE}). */
  public boolean isKnown() {
    return basis != Basis.NONE;
  }

  /** Whether x lies within the bounds (inclusive); false when there are none. */
  public boolean contains(double x) {
    return isKnown() && low <= x && x <= high;
  }

  /**
   * Half the interval's width relative to the estimate: 0.05 for 100 [95, 105]. NaN without bounds,
   * +Infinity for an open bound.
   */
  public double relativeHalfWidth() {
    if (!isKnown()) {
      return Double.NaN;
    }
    return (high - low) / 2.0 / Math.abs(estimate);
  }
}
