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
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(rs)
            .concurrencyByLevel(concurrencyByLevel)
            .rooflineHint("hint")
            .build());
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
    assertEquals(ImageLadder.Over.COUNT, ladder.over());
    assertEquals(30, ladder.msPerStep(), 1e-6);
    assertEquals(326, ladder.tokensPerStep(), 1e-6);
    assertTrue(
        ladder.verdict().startsWith("Each image adds 30.0 ms to the mean TTFT and 326 input"),
        ladder.verdict());
    assertTrue(a.knee().points().isEmpty(), "one concurrency: no knee");
    assertTrue(ImageLadder.of(analyse(level("c2", 0, 3), Map.of()).levels().values()).isEmpty());
  }

  @Test
  void aLadderOverImageSizesFitsWhatAMegapixelAdds() {
    List<RequestRecord> rs = new ArrayList<>();
    String[] sizes = {"1024x1024", "256x256", "512x512"}; // the ladder sorts them by pixels
    for (int k = 0; k < sizes.length; k++) {
      int side = Integer.parseInt(sizes[k].split("x")[0]);
      double megapixels = 2 * side * (double) side / 1e6; // two images a request
      for (int i = 0; i < 4; i++) {
        rs.add(
            TestRecords.ok("c2-img2-" + sizes[k])
                .start(k * 10_000L + i * 100L)
                .ttft(50 + 100.0 * megapixels + i) // 100 ms a megapixel
                .inputTokens(40 + (int) Math.round(1275 * megapixels))
                .build());
      }
    }
    RunAnalysis a = analyse(rs, Map.of());
    ImageLadder ladder = ImageLadder.of(a.levels().values()).orElseThrow();
    assertEquals(ImageLadder.Over.SIZE, ladder.over());
    assertEquals(
        List.of("c2-img2-256x256", "c2-img2-512x512", "c2-img2-1024x1024"),
        ladder.points().stream().map(ImageLadder.Point::level).toList());
    assertEquals(2 * 512 * 512 / 1e6, ladder.points().get(1).megapixels(), 1e-12);
    assertEquals(100, ladder.msPerStep(), 1e-3);
    assertEquals(1275, ladder.tokensPerStep(), 0.5);
    assertTrue(
        ladder
            .verdict()
            .startsWith("Each megapixel of image a request adds 100.0 ms to the mean TTFT"),
        ladder.verdict());
    assertTrue(ladder.verdict().endsWith("at 256x256, 261.2 ms at 1024x1024."), ladder.verdict());
    assertTrue(a.knee().points().isEmpty(), "one concurrency: no knee");
  }
}
