package io.github.llmbench.analysis;

/**
 * What a gate judged on an interval says ({@link Verdicts#relativeGate}, {@link
 * Verdicts#absoluteGate}).
 */
public enum GateVerdict {
  /** Within the limit with the gate's confidence. */
  PASS,
  /** Beyond the limit with the gate's confidence. */
  FAIL,
  /** The data cannot tell at that confidence: the limit lies between the one-sided bounds. */
  INCONCLUSIVE
}
