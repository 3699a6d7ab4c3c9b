package io.github.llmbench.run;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * When an interleaved A/B run starts no further pair: every relative gate has decided, the pairs
 * ran out, or another pair (two trials) would end after the budget.
 *
 * @param budgetMs the most load, from the first trial's start; empty for none
 * @param trialMs one trial's length
 */
record AbStop(int maxPairs, OptionalLong budgetMs, long trialMs) {

  static final String DECIDED = "decided";
  static final String MAX_PAIRS = "max pairs";
  static final String BUDGET = "budget";

  /**
   * Why no pair starts now, or empty when the next one may.
   *
   * @param pairsRun the pairs run so far
   * @param allDecided whether every relative gate has decided
   * @param elapsedMs the time since the first trial started
   */
  Optional<String> beforePair(int pairsRun, boolean allDecided, long elapsedMs) {
    if (allDecided) {
      return Optional.of(DECIDED);
    }
    if (pairsRun >= maxPairs) {
      return Optional.of(MAX_PAIRS);
    }
    if (budgetMs.isPresent() && elapsedMs + 2 * trialMs > budgetMs.getAsLong()) {
      return Optional.of(BUDGET);
    }
    return Optional.empty();
  }
}
