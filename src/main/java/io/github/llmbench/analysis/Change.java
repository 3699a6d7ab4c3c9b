package io.github.llmbench.analysis;

/**
 * What an A/B comparison ({@link Verdicts#compare}) says of B against A, for a figure where lower
 * or higher is better.
 */
public enum Change {
  /** B is worse: the ratio's interval excludes 1 on the worse side. */
  WORSE,
  /** B is better: the ratio's interval excludes 1 on the better side. */
  BETTER,
  /**
   * The interval holds 1: no change the data can resolve (see the comparison's minimum detectable
   * ratio for how small a change it could have seen). Also the answer without any interval (basis
   * NONE), where nothing could be detected.
   */
  NO_DETECTABLE_DIFFERENCE
}
