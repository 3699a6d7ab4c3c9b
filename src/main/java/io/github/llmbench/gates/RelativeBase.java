package io.github.llmbench.gates;

/**
 * What a run's relative gates ({@code +N%}) compare with, as the run's mode says: a stored run
 * ({@code -Dbaseline}), or the run's own pairs (an interleaved A/B run judges B against A).
 */
public enum RelativeBase {
  /** A relative gate needs {@code -Dbaseline}. */
  STORED_BASELINE,
  /** The run judges its relative gates on its own pairs; no baseline is read. */
  OWN_PAIRS
}
