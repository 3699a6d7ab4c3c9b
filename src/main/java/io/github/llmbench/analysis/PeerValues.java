package io.github.llmbench.analysis;

import java.util.Arrays;

/**
 * A growing list of primitive values, nulls skipped: one figure's values over a level's requests.
 */
final class PeerValues {
  private double[] values = new double[16];
  private int n;

  /** Adds the value; a null is none. */
  void add(Number value) {
    if (value == null) {
      return;
    }
    if (n == values.length) {
      values = Arrays.copyOf(values, n * 2);
    }
    values[n++] = value.doubleValue();
  }

  /** The values added, in order. */
  double[] array() {
    return Arrays.copyOf(values, n);
  }
}
