package io.github.llmbench.injection;

import io.github.llmbench.core.Seeds;
import io.github.llmbench.records.RequestOrigin.Side;

/**
 * The trials of an interleaved A/B run, in pairs: pair i is one trial on A (the base) and one on B
 * (the candidate), in an order drawn from the seed for each pair (so a drift within the run falls
 * on A first as often as on B first), both sending the same prompts: the dataset's requests from
 * the pair's own first number, so one pair's prompts differ from another's.
 *
 * @param seed the run's seed ({@code -Dseed})
 */
public record PairPlan(long seed) {

  /**
   * How far apart the pairs' first request numbers lie: more than any trial sends, and prime, so a
   * file of fewer prompts still starts each pair elsewhere in it.
   */
  public static final long PROMPT_STRIDE = 1_000_003L;

  /**
   * One trial of a pair.
   *
   * @param pair from 1
   * @param side the server it loads
   * @param place 1 for the pair's first trial, 2 for its second
   * @param firstPrompt the dataset's number of its first request; its others follow
   */
  public record Trial(int pair, Side side, int place, long firstPrompt) {
    /** Whether the pair's two trials have run once this one has. */
    public boolean endsPair() {
      return place == 2;
    }
  }

  /** The pair's first side, drawn from the seed. */
  public Side firstSide(int pair) {
    return (Seeds.mix(seed * 0x9E3779B97F4A7C15L + 0xAB00L + pair) & 1) == 0 ? Side.A : Side.B;
  }

  /** The run's trial {@code index} (from 0): pair {@code index / 2 + 1}, its first or second. */
  public Trial trial(int index) {
    int pair = index / 2 + 1;
    int place = index % 2 + 1;
    Side first = firstSide(pair);
    Side side = place == 1 ? first : first == Side.A ? Side.B : Side.A;
    return new Trial(pair, side, place, (pair - 1) * PROMPT_STRIDE);
  }
}
