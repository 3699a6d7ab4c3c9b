package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.llmbench.settings.AbSettings;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** When an A/B run starts no further pair. */
class AbStopTest {
  private static final AbSettings.Units TEN_PAIRS = new AbSettings.Units("pair", 1, 3, 10);
  private static final AbStop TEN_PAIRS_TEN_MINUTES =
      new AbStop(TEN_PAIRS, OptionalLong.of(600_000), 60_000);

  @Test
  void aPairStartsWhileAGateIsOpenPairsRemainAndItEndsWithinTheBudget() {
    assertEquals(Optional.empty(), TEN_PAIRS_TEN_MINUTES.beforeUnit(0, false, 0));
    assertEquals(Optional.empty(), TEN_PAIRS_TEN_MINUTES.beforeUnit(4, false, 480_000));
  }

  @Test
  void noPairStartsOnceEveryGateHasDecided() {
    assertEquals(Optional.of(AbStop.DECIDED), TEN_PAIRS_TEN_MINUTES.beforeUnit(3, true, 0));
  }

  @Test
  void noPairStartsPastTheMostPairs() {
    assertEquals(Optional.of("max pairs"), TEN_PAIRS_TEN_MINUTES.beforeUnit(10, false, 0));
    assertEquals(
        Optional.empty(),
        new AbStop(TEN_PAIRS, OptionalLong.empty(), 60_000).beforeUnit(9, false, 999_999_999L));
  }

  @Test
  void noPairStartsThatWouldEndAfterTheBudget() {
    assertEquals(Optional.of(AbStop.BUDGET), TEN_PAIRS_TEN_MINUTES.beforeUnit(4, false, 480_001));
    assertEquals(Optional.of(AbStop.BUDGET), TEN_PAIRS_TEN_MINUTES.beforeUnit(1, false, 590_000));
  }

  @Test
  void aBlockStartsOnlyWhenAllItsPairsEndWithinTheBudget() {
    // 3 blocks of 2 pairs of 1-minute trials: a block is 4 minutes of load
    AbStop blocks =
        new AbStop(new AbSettings.Units("block", 2, 3, 3), OptionalLong.of(600_000), 60_000);
    assertEquals(Optional.empty(), blocks.beforeUnit(1, false, 360_000));
    assertEquals(Optional.of(AbStop.BUDGET), blocks.beforeUnit(1, false, 360_001));
    assertEquals(Optional.of("max blocks"), blocks.beforeUnit(3, false, 0));
  }
}
