package io.github.llmbench.run;

import io.github.llmbench.settings.AbSettings;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When an interleaved A/B run starts no further unit (a pair, or a block of pairs on fresh
 * servers): every relative gate has decided, the units ran out, or the next unit (two trials a
 * pair) would end after the budget.
 *
 * @param units the unit and the most of them
 * @param budgetMs the most load, from the first trial's start; empty for none
 * @param trialMs one trial's length
 */
record AbStop(AbSettings.Units units, OptionalLong budgetMs, long trialMs) {

  static final String DECIDED = "decided";
  static final String BUDGET = "budget";

  /** The reason when the units ran out: {@code max pairs}, {@code max blocks}. */
  String maxReached() {
    return "max " + units.name() + "s";
  }

  /**
   * Why no unit starts now, or empty when the next one may.
   *
   * @param unitsRun the units run so far
   * @param allDecided whether every relative gate has decided
   * @param elapsedMs the time since the first trial started
   */
  Optional<String> beforeUnit(int unitsRun, boolean allDecided, long elapsedMs) {
    if (allDecided) {
      return Optional.of(DECIDED);
    }
    if (unitsRun >= units.max()) {
      return Optional.of(maxReached());
    }
    if (budgetMs.isPresent() && elapsedMs + 2L * units.pairs() * trialMs > budgetMs.getAsLong()) {
      return Optional.of(BUDGET);
    }
    return Optional.empty();
  }
}
