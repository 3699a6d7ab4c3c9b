package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Level;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the analysis takes from a record's level: whether it is measured, and a closed level's
 * concurrency.
 */
class RunAnalysisTest {

  /** {@code n} completed requests of a level, one after another from {@code startMs}. */
  private static List<RequestRecord> level(String level, long startMs, int n) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rs.add(TestRecords.ok(level).start(startMs + i * 100L).build());
    }
    return rs;
  }

  private static RunAnalysis analyse(
      List<RequestRecord> rs, Map<String, Integer> concurrencyByLevel) {
    return RunAnalysis.of(rs, concurrencyByLevel, null, null, 1, "hint");
  }

  @Test
  void theWarmupIsLeftOutOfEveryFigure() {
    List<RequestRecord> rs = new ArrayList<>(level(Level.WARMUP.tag(), 0, 3));
    rs.addAll(level(Level.closed(2).tag(), 1_000, 4));
    RunAnalysis a = analyse(rs, Map.of());
    assertEquals(List.of(Level.closed(2).tag()), List.copyOf(a.levels().keySet()));
    assertEquals(4, a.records().size());
    assertEquals(4, a.overall().completed());
    assertTrue(RunAnalysis.isWarmup(rs.get(0)));
    assertFalse(RunAnalysis.isWarmup(rs.get(3)));
  }

  @Test
  void onlyTheWarmupsOwnTagIsTheWarmup() {
    // a custom simulation's group is its own name, measured whatever it reads like
    for (String name : new String[] {"Warmup", " warmup", "warmups", "feeder"}) {
      RequestRecord r = level(name, 0, 1).get(0);
      assertFalse(RunAnalysis.isWarmup(r), name);
      assertEquals(
          List.of(name), List.copyOf(analyse(List.of(r), Map.of()).levels().keySet()), name);
    }
  }

  @Test
  void aClosedLevelHasItsConcurrencyOthersOnlyTheCallersEntry() {
    String closed = Level.closed(3).tag();
    String open = Level.open(2.5).tag();
    List<RequestRecord> rs = new ArrayList<>(level(closed, 0, 3));
    rs.addAll(level(open, 1_000, 3));
    rs.addAll(level(Level.TRACE.tag(), 2_000, 3));
    rs.addAll(level("feeder", 3_000, 3));
    RunAnalysis a = analyse(rs, Map.of());
    assertEquals(3, a.levels().get(closed).concurrency());
    assertEquals(3, a.levels().get(closed).serving().maxConcurrency());
    assertNull(
        a.levels().get(open).concurrency(),
        "an open level's concurrency is whatever the server made of it");
    assertNull(a.levels().get(Level.TRACE.tag()).concurrency());
    assertNull(a.levels().get("feeder").concurrency());
    // an injector's share of a level, as the caller knows it, over the level's own
    RunAnalysis share = analyse(rs, Map.of(closed, 1, "feeder", 2));
    assertEquals(1, share.levels().get(closed).concurrency());
    assertEquals(2, share.levels().get("feeder").concurrency());
  }

  @Test
  void aLadderOverImagesFitsWhatAnImageAddsAndLeavesTheKneeAlone() {
    List<RequestRecord> rs = new ArrayList<>();
    int[] images = {0, 2, 4};
    for (int k = 0; k < images.length; k++) {
      for (int i = 0; i < 4; i++) {
        rs.add(
            TestRecords.ok("c2-img" + images[k])
                .start(k * 10_000L + i * 100L)
                .ttft(50 + 30.0 * images[k] + i) // 30 ms an image
                .inputTokens(40 + 326 * images[k])
                .build());
      }
    }
    RunAnalysis a = analyse(rs, Map.of());
    ImageLadder ladder = ImageLadder.of(a.levels().values()).orElseThrow();
    assertEquals(
        List.of(0, 2, 4), ladder.points().stream().map(ImageLadder.Point::images).toList());
    assertEquals(30, ladder.msPerImage(), 1e-6);
    assertEquals(326, ladder.tokensPerImage(), 1e-6);
    assertTrue(
        ladder.verdict().startsWith("Each image adds 30.0 ms to the mean TTFT and 326 input"),
        ladder.verdict());
    assertTrue(a.knee().points().isEmpty(), "one concurrency: no knee");
    assertTrue(ImageLadder.of(analyse(level("c2", 0, 3), Map.of()).levels().values()).isEmpty());
  }
}
