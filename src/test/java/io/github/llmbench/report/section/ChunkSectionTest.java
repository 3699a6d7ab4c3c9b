package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tokens per chunk: a console block per level whose chunks carried several tokens; no page. */
class ChunkSectionTest {
  private static final ChunkSection SECTION = new ChunkSection();

  /**
   * c4: one request of 8 tokens in 4 chunks 10 ms apart (2 a chunk) and one of 16 in 4 chunks 20 ms
   * apart (4 a chunk): every token 5 ms after the one before. c8: a token a chunk.
   */
  private static RunAnalysis run() {
    return BackToBackLevels.analysis(
        List.of(
            TestRecords.ok("c4")
                .id("a")
                .start(BackToBackLevels.T)
                .outputTokens(8)
                .itl(10, 10, 10)
                .build(),
            TestRecords.ok("c4")
                .id("b")
                .start(BackToBackLevels.T)
                .outputTokens(16)
                .itl(20, 20, 20)
                .build(),
            TestRecords.ok("c8").id("c").start(BackToBackLevels.T + 1000).build()));
  }

  private static String block(String level) {
    RunAnalysis a = run();
    return SECTION.levelText(a, a.levels().get(level), true);
  }

  /** The value of the block's line of this label. */
  private static String line(String block, String label) {
    return block
        .lines()
        .filter(l -> l.startsWith(label))
        .map(l -> l.substring(label.length()).strip())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line '" + label + "' in\n" + block));
  }

  @Test
  void theTitleNamesTheLevel() {
    assertTrue(block("c4").lines().findFirst().orElseThrow().contains(" Tokens per chunk (c4) "));
  }

  @Test
  void theMeanIsTheLevelsTokensOverItsChunks() {
    // 24 tokens over 8 chunks
    assertEquals(
        "3.00 (each request's tokens over its chunks)",
        line(block("c4"), "Tokens per chunk (mean):"));
  }

  @Test
  void theSpreadIsOverEachRequestsMean() {
    // the requests' means 2 and 4: median 3, numpy's P99 2 + 0.99 x 2
    assertEquals("3.00 / 3.98 / 4.00", line(block("c4"), "Tokens per chunk (median/P99/max):"));
  }

  @Test
  void aChunksGapIsSharedByItsTokens() {
    String b = block("c4");
    assertEquals("5.00", line(b, "Mean ITL per token (ms):"));
    assertEquals("5.00", line(b, "P99 ITL per token (ms):"));
  }

  @Test
  void aLevelOfATokenAChunkHasNoBlock() {
    assertEquals("", block("c8"));
  }

  @Test
  void thePageHasNothingOfIt() {
    assertTrue(SectionRows.of(SECTION, run(), RunInfo.NONE).parts().isEmpty());
  }
}
