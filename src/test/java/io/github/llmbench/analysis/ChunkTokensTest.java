package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkTokensTest {

  /** A stream of four text chunks, 30, 10 and 20 ms apart. */
  private static TestRecords.Builder fourChunks(String id) {
    return TestRecords.ok("c2").id(id).ttft(100).tpot(10).e2el(160).itl(30, 10, 20);
  }

  /** A speculative stream as the local tokenizer counts it: 1, 3, 1, 2 tokens in its chunks. */
  private static RequestRecord speculative(String id) {
    return fourChunks(id).outputTokens(7).build().toBuilder()
        .part(ChunkTokenCounts.PART, new int[] {1, 3, 1, 2})
        .build();
  }

  @Test
  void twoTokensPerChunkHalveEachGapAndCountTwice() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      // 8 tokens in 4 chunks, gaps of 20, 22 and 30 ms
      rs.add(
          TestRecords.ok("c2")
              .id("r" + i)
              .ttft(100)
              .tpot(10)
              .e2el(172)
              .itl(20, 22, 30)
              .outputTokens(8)
              .build());
    }
    ChunkTokens c = ChunkTokens.of(rs);
    assertTrue(c.severalPerChunk());
    assertEquals(10, c.requests());
    assertEquals(40, c.chunks());
    assertEquals(80, c.tokens());
    assertEquals(2.0, c.perChunkMean(), 1e-12);
    assertEquals(2.0, c.perChunkMedian(), 1e-12);
    assertEquals(2.0, c.perChunkMax(), 1e-12);
    // each gap counts twice, at half: 10, 10, 11, 11, 15, 15 per request
    assertEquals(60, c.itlPerToken().count());
    assertEquals((10 + 11 + 15) / 3.0, c.itlPerToken().mean(), 1e-9);
    assertEquals(11.0, c.itlPerToken().median(), 1e-9);
    assertEquals(15.0, c.itlPerToken().value(Statistic.P99), 1e-9);
  }

  @Test
  void chunksCountedOneByOneWeighTheirOwnTokens() {
    // a speculative stream as the local tokenizer counts it: 1, 3, 1, 2 tokens in its chunks
    RequestRecord r = speculative("r");
    ChunkTokens c = ChunkTokens.of(List.of(r));
    assertTrue(c.countedPerChunk());
    assertEquals(4, c.chunks());
    assertEquals(7, c.tokens());
    // over the chunks: 1, 1, 2, 3
    assertEquals(1.5, c.perChunkMedian(), 1e-12);
    assertEquals(3.0, c.perChunkMax(), 1e-12);
    // 30 ms before 3 tokens: 3 gaps of 10; 10 before 1: one of 10; 20 before 2: two of 10
    assertEquals(6, c.itlPerToken().count());
    assertEquals(10.0, c.itlPerToken().mean(), 1e-9);
    assertEquals(10.0, c.itlPerToken().value(Statistic.P99), 1e-9);
  }

  @Test
  void aRequestWithoutItsChunksCountedMakesTheLevelsFiguresPerRequest() {
    RequestRecord counted = speculative("a");
    RequestRecord notCounted = fourChunks("b").outputTokens(4).build();
    ChunkTokens c = ChunkTokens.of(List.of(counted, notCounted));
    assertFalse(c.countedPerChunk());
    // each request's mean: 7/4 and 1
    assertEquals(1.75, c.perChunkMax(), 1e-12);
    assertEquals(11, c.tokens());
  }

  @Test
  void oneTokenPerChunkLeavesThePerChunkItl() {
    List<RequestRecord> rs =
        List.of(
            TestRecords.ok("c1")
                .ttft(100)
                .tpot(10)
                .e2el(130)
                .itl(10, 20, 30)
                .outputTokens(4)
                .build(),
            TestRecords.failed("c1", "cut").build());
    ChunkTokens c = ChunkTokens.of(rs);
    assertFalse(c.severalPerChunk());
    assertEquals(1, c.requests(), "completed requests only");
    assertEquals(1.0, c.perChunkMean(), 1e-12);
    assertEquals(0, c.itlPerToken().count(), "the per-chunk ITL is the per-token ITL");
    assertEquals(ChunkTokens.NONE, ChunkTokens.of(List.of()));
  }

  @Test
  void mixedRequestsAreEachWeighedByTheirOwnTokensPerChunk() {
    List<RequestRecord> rs =
        List.of(
            TestRecords.ok("c2")
                .id("a")
                .ttft(50)
                .tpot(10)
                .e2el(80)
                .itl(10, 10, 10)
                .outputTokens(4)
                .build(),
            TestRecords.ok("c2")
                .id("b")
                .ttft(50)
                .tpot(10)
                .e2el(110)
                .itl(30, 30, 30)
                .outputTokens(12)
                .build());
    ChunkTokens c = ChunkTokens.of(rs);
    assertTrue(c.severalPerChunk());
    assertEquals(16.0 / 8, c.perChunkMean(), 1e-12);
    assertEquals(3.0, c.perChunkMax(), 1e-12);
    // a: three gaps of 10 ms once; b: three of 30 ms as three gaps of 10 ms each
    assertEquals(12, c.itlPerToken().count());
    assertEquals(10.0, c.itlPerToken().mean(), 1e-9);
  }
}
