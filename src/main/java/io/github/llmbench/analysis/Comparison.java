package io.github.llmbench.analysis;

/**
 * An A/B comparison of one figure: the ratio B/A with its interval, the verdict, and the smallest
 * change the data could have detected.
 *
 * @param ratio B/A with its two-sided interval; its basis says what it rests on (trials, within-run
 *     data of one-trial runs, or nothing)
 * @param change worse, better or no detectable difference
 * @param minimumDetectableRatio the smallest ratio (as a factor above 1: 1.12 means a ±12% change)
 *     that the comparison would detect with 80% power at its confidence, from the observed spread;
 *     +Infinity when an error is unbounded, NaN without an interval
 */
public record Comparison(Interval ratio, Change change, double minimumDetectableRatio) {}
