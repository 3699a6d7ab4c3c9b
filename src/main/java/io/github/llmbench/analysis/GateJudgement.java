package io.github.llmbench.analysis;

/**
 * What a gate judged on an interval found.
 *
 * @param verdict pass, fail or inconclusive
 * @param bounds the figure (absolute gate) or the ratio B/A (relative gate) with the two one-sided
 *     bounds the verdict used: each end alone is a bound at the gate's {@code confidence}, so
 *     together they make a two-sided interval at {@code 2 * confidence - 1} (0.90 for a 0.95 gate),
 *     which is what {@code bounds.confidence()} says
 * @param limit the limit the bounds were held against: the figure's limit, or 1 + threshold for a
 *     relative gate
 * @param confidence the gate's confidence, e.g. 0.95
 * @param trialsNeeded for an inconclusive verdict, the trials per side that would resolve it if the
 *     estimate and spread stayed as observed ({@link Verdicts#MAX_TRIALS_NEEDED} meaning that many
 *     or more); 0 when not inconclusive, or when no side has two trials to measure a spread on
 */
public record GateJudgement(
    GateVerdict verdict, Interval bounds, double limit, double confidence, int trialsNeeded) {}
