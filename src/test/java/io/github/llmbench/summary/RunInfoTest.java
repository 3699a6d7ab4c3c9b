package io.github.llmbench.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.llmbench.testing.AbFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run's facts are set by name, and a mode's figures land in their own field. */
class RunInfoTest {

  private static RunInfo some() {
    return RunInfo.builder()
        .date("20261207-101500")
        .backend("openai-chat")
        .modelId("m")
        .baseUrl("http://127.0.0.1:8000")
        .seed(7L)
        .inputLen(128)
        .outputLen(16)
        .warmupRequests(4)
        .settings(Map.of("conc", "4"))
        .gateDefinitions(Map.of("tpot.mean", "+10.000000%"))
        .build();
  }

  @Test
  void aCopyByNameIsTheSameRun() {
    RunInfo info = some();
    assertEquals(info, info.toBuilder().build());
    assertEquals(16, info.outputLen());
    assertNull(info.injector(), "what is not set stays absent");
  }

  @Test
  void nothingKnownIsAllAbsent() {
    assertEquals(RunInfo.builder().build(), RunInfo.NONE);
    assertNull(RunInfo.NONE.date());
    assertNull(RunInfo.NONE.ab());
  }

  @Test
  void aModesFiguresLandInTheirOwnField() {
    AbFigures pairs = AbFixtures.twoPairsFailed("m2");
    RunInfo ab = some().withMode(pairs);
    assertEquals(pairs, ab.ab());
    assertNull(ab.capacity());
    assertEquals(some(), ab.withAb(null), "the rest untouched");
  }

  @Test
  void aMergeNamesItsInjectors() {
    RunInfo.InjectorRun one = new RunInfo.InjectorRun("0/2", "run-0", 10, null, null);
    RunInfo merged = some().asMerge(List.of(one, one));
    assertEquals("merged: 2 injectors", merged.injector());
    assertEquals(List.of(one, one), merged.injectors());
    assertEquals(some().seed(), merged.seed());
  }
}
