package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin.Side;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The pairs of an interleaved A/B run: each side once a pair, the order from the seed, the prompts.
 */
class PairPlanTest {

  private static List<Side> firstSides(long seed, int pairs) {
    PairPlan plan = new PairPlan(seed);
    List<Side> out = new ArrayList<>();
    for (int p = 1; p <= pairs; p++) {
      out.add(plan.firstSide(p));
    }
    return out;
  }

  @Test
  void eachPairRunsBothSidesOnceTheFirstAsDrawn() {
    PairPlan plan = new PairPlan(7);
    for (int i = 0; i < 40; i += 2) {
      PairPlan.Trial first = plan.trial(i);
      PairPlan.Trial second = plan.trial(i + 1);
      assertEquals(i / 2 + 1, first.pair());
      assertEquals(first.pair(), second.pair());
      assertNotEquals(first.side(), second.side());
      assertEquals(plan.firstSide(first.pair()), first.side());
      assertEquals(1, first.place());
      assertTrue(second.endsPair() && !first.endsPair());
    }
  }

  @Test
  void theOrderFollowsTheSeedAndIsNotOneSideAlways() {
    assertEquals(firstSides(42, 200), firstSides(42, 200), "the same seed, the same order");
    assertNotEquals(firstSides(42, 200), firstSides(43, 200), "another seed, another order");
    long bFirst = firstSides(42, 200).stream().filter(s -> s == Side.B).count();
    assertTrue(bFirst > 70 && bFirst < 130, "B first in about half the pairs: " + bFirst);
  }

  @Test
  void everyBlockOfTwoPairsPutsEachSideFirstOnce() {
    for (long seed = 0; seed < 50; seed++) {
      List<Side> sides = firstSides(seed, 40);
      for (int i = 0; i < sides.size(); i += 2) {
        assertNotEquals(
            sides.get(i), sides.get(i + 1), "seed " + seed + ", pairs " + (i + 1) + "-" + (i + 2));
      }
    }
  }

  @Test
  void anyFirstPairsPutASideFirstAtMostOnceMoreThanTheOther() {
    for (long seed = 0; seed < 50; seed++) {
      List<Side> sides = firstSides(seed, 41);
      int aMinusB = 0;
      for (Side s : sides) {
        aMinusB += s == Side.A ? 1 : -1;
        assertTrue(Math.abs(aMinusB) <= 1, "seed " + seed + ": " + sides);
      }
    }
  }

  @Test
  void theBlocksOrderFollowsTheSeed() {
    long abFirst =
        LongStream.range(0, 200).filter(seed -> new PairPlan(seed).firstSide(1) == Side.A).count();
    assertTrue(
        abFirst > 70 && abFirst < 130, "AB-then-BA blocks in about half the seeds: " + abFirst);
  }

  @Test
  void bothSidesOfAPairStartAtTheSamePromptAndPairsAtDifferentOnes() {
    PairPlan plan = new PairPlan(1);
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 20; i += 2) {
      assertEquals(plan.trial(i).firstPrompt(), plan.trial(i + 1).firstPrompt());
      starts.add(plan.trial(i).firstPrompt());
    }
    assertEquals(starts.size(), starts.stream().distinct().count(), "each pair its own prompts");
    assertEquals(0, plan.trial(0).firstPrompt(), "the first pair from the dataset's first");
  }
}
