package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** When an A/B run starts no further pair. */
class AbStopTest {
  private static final AbStop TEN_PAIRS_TEN_MINUTES =
      new AbStop(10, OptionalLong.of(600_000), 60_000);

  @Test
  void aPairStartsWhileAGateIsOpenPairsRemainAndItEndsWithinTheBudget() {
    assertEquals(Optional.empty(), TEN_PAIRS_TEN_MINUTES.beforePair(0, false, 0));
    assertEquals(Optional.empty(), TEN_PAIRS_TEN_MINUTES.beforePair(4, false, 480_000));
  }

  @Test
  void noPairStartsOnceEveryGateHasDecided() {
    assertEquals(Optional.of(AbStop.DECIDED), TEN_PAIRS_TEN_MINUTES.beforePair(3, true, 0));
  }

  @Test
  void noPairStartsPastTheMostPairs() {
    assertEquals(Optional.of(AbStop.MAX_PAIRS), TEN_PAIRS_TEN_MINUTES.beforePair(10, false, 0));
    assertEquals(
        Optional.empty(),
        new AbStop(10, OptionalLong.empty(), 60_000).beforePair(9, false, 999_999_999L));
  }

  @Test
  void noPairStartsThatWouldEndAfterTheBudget() {
    assertEquals(Optional.of(AbStop.BUDGET), TEN_PAIRS_TEN_MINUTES.beforePair(4, false, 480_001));
    assertEquals(Optional.of(AbStop.BUDGET), TEN_PAIRS_TEN_MINUTES.beforePair(1, false, 590_000));
  }
}
