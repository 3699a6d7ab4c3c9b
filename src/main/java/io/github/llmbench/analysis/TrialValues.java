package io.github.llmbench.analysis;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * One side's figure over repeated trials of a level: one positive value per trial (a P99 TPOT, an
 * output throughput), and for a single trial optionally the run's within-run interval of that same
 * figure ({@link Intervals#percentile}, {@link Intervals#mean}), which is what a one-trial run can
 * still be judged on.
 *
 * <p>Values must be positive and finite: the intervals and ratios are made on the log scale.
 *
 * @param values the trials' figures, at least one, each positive and finite
 * @param withinRun the within-run interval of the figure, or null; used only with one trial
 */
public record TrialValues(double[] values, Interval withinRun) {

  public TrialValues {
    Objects.requireNonNull(values, "values");
    if (values.length == 0) {
      throw new IllegalArgumentException("at least one trial figure is needed");
    }
    values = values.clone();
    for (int i = 0; i < values.length; i++) {
      double v = values[i];
      if (!(v > 0.0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "trial figures must be positive and finite: %s (trial %d of %d)",
                v,
                i + 1,
                values.length));
      }
    }
  }

  /** TrialValues without a within-run interval. */
  public static TrialValues of(double... values) {
    return new TrialValues(values, null);
  }

  /** One trial with the run's within-run interval of the same figure (null for none). */
  public static TrialValues single(double value, Interval withinRun) {
    return new TrialValues(new double[] {value}, withinRun);
  }

  /** A copy of the trials' figures. */
  @Override
  public double[] values() {
    return values.clone();
  }

  /** The number of trials. */
  public int n() {
    return values.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TrialValues t
        && Arrays.equals(values, t.values)
        && Objects.equals(withinRun, t.withinRun);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(values) + Objects.hashCode(withinRun);
  }

  @Override
  public String toString() {
    return "TrialValues"
        + Arrays.toString(values)
        + (withinRun == null ? "" : " within-run " + withinRun);
  }
}
