package io.github.llmbench.injection;

import io.github.llmbench.core.Seeds;
import io.github.llmbench.records.RequestOrigin.Side;

/**
 * The trials of an interleaved A/B run, in pairs: pair i is one trial on A (the base) and one on B
 * (the candidate), in balanced blocks of two pairs: the seed draws which side goes first in the
 * block's first pair, and its second pair goes the other way round (AB then BA, or BA then AB). So
 * every two pairs put A first once and B first once, and a drift within the run falls on each side
 * first equally often in every even number of pairs, one pair off at most in an odd one (a coin
 * flip per pair leaves that to chance: 3 of 3 pairs with A first happen a quarter of the time),
 * while the seed still keeps the order from following any pattern of the testbed. Both trials of a
 * pair send the same prompts: the dataset's requests from the pair's own first number, so one
 * pair's prompts differ from another's.
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

  /**
   * The pair's first side: drawn from the seed for the first pair of each block of two ({@code
   * pair} 1, 3, 5, ...), the other side for the second.
   */
  public Side firstSide(int pair) {
    int block = (pair + 1) / 2;
    Side blockFirst =
        (Seeds.mix(seed * 0x9E3779B97F4A7C15L + 0xAB00L + block) & 1) == 0 ? Side.A : Side.B;
    return pair % 2 == 1 ? blockFirst : other(blockFirst);
  }

  private static Side other(Side s) {
    return s == Side.A ? Side.B : Side.A;
  }

  /** The run's trial {@code index} (from 0): pair {@code index / 2 + 1}, its first or second. */
  public Trial trial(int index) {
    int pair = index / 2 + 1;
    int place = index % 2 + 1;
    Side first = firstSide(pair);
    Side side = place == 1 ? first : other(first);
    return new Trial(pair, side, place, (pair - 1) * PROMPT_STRIDE);
  }
}
