package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.RequestRecord;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each tool's definitions over a hand-made level, every figure worked out by hand (ms from T):
 *
 * <pre>
 * id  ok  start end   ttft itl         e2el out (server) chunk_tokens in  text chunks at
 * r1  yes 0     165   100  [10,10,40]  160  4            [1,2,1,1]    20  100 110 120 160
 * r2  yes 0     95    60   [30]        90   2            -            30  60 90
 * r3  NO  10    20    -    -           -    -            -            -   (failed)
 * </pre>
 *
 * <p>The kit: TTFT mean 80, median 80 (numpy between 60 and 100); TPOT per request (160 - 100) / 3
 * = 20 and (90 - 60) / 1 = 30; ITL over the four gaps [10, 10, 30, 40]: mean 22.5, median 20, P99
 * 30 + 0.97 x 10 = 39.7; duration 0.165 s (first start to last end, the failed one too).
 */
class PeerToolTest {

  private static final long T = 1_700_000_000_000L;
  private static final double EPS = 1e-9;

  static List<RequestRecord> level() {
    return List.of(
        RequestRecord.builder()
            .id("r1")
            .level("c2")
            .ok(true)
            .startMs(T)
            .endMs(T + 165)
            .ttftMs(100.0)
            .itlMs(List.of(10.0, 10.0, 40.0))
            .e2elMs(160.0)
            .tpotMs(20.0)
            .inputTokens(20)
            .outputTokens(4)
            .part(ChunkTokenCounts.PART, new int[] {1, 2, 1, 1})
            .build(),
        RequestRecord.builder()
            .id("r2")
            .level("c2")
            .ok(true)
            .startMs(T)
            .endMs(T + 95)
            .ttftMs(60.0)
            .itlMs(List.of(30.0))
            .e2elMs(90.0)
            .tpotMs(30.0)
            .inputTokens(30)
            .outputTokens(2)
            .build(),
        RequestRecord.builder()
            .id("r3")
            .level("c2")
            .ok(false)
            .error("HTTP 500: boom")
            .startMs(T + 10)
            .endMs(T + 20)
            .build());
  }

  private static PeerFigures figures(String tool, List<RequestRecord> records) {
    return PeerTool.named(tool)
        .orElseThrow()
        .figures(new PeerTool.Level("c2", records, 2, LatencyStats.DEFAULT_PERCENTILES));
  }

  @Test
  void guidellmTpotIncludesTtftAndItsItlIsOverPerRequestMeansWeightedByTokens() {
    PeerFigures g = figures("guidellm", level());
    // TPOT: 160 / 4 = 40 (weight 4) and 90 / 2 = 45 (weight 2): mean (160 + 90) / 6
    PeerFigures.Row tpot = g.row("TPOT (ms)");
    assertEquals(250.0 / 6, tpot.peer(0), EPS);
    assertEquals(40.0, tpot.peer(1), EPS, "median: 40 holds 4/6 of the weight");
    assertEquals(45.0, tpot.peer(2), EPS);
    assertEquals(25.0, tpot.kit(0), EPS, "the kit's TPOT leaves out the first token");
    // ITL: (160 - 100) / 3 = 20 (weight 3) and (90 - 60) / 1 = 30 (weight 1)
    PeerFigures.Row itl = g.row("ITL (ms)");
    assertEquals(22.5, itl.peer(0), EPS);
    assertEquals(20.0, itl.peer(1), EPS);
    assertEquals(30.0, itl.peer(3), EPS, "P99 over per-request means: the 40 ms stall is gone");
    assertEquals(30.0 + 0.97 * 10.0, itl.kit(3), EPS, "the kit's P99 over the gaps sees it");
    // TTFT unweighted: the first value reaching half the weight, no interpolation
    PeerFigures.Row ttft = g.row("TTFT (ms)");
    assertEquals(80.0, ttft.peer(0), EPS);
    assertEquals(60.0, ttft.peer(1), EPS);
    assertEquals(80.0, ttft.kit(1), EPS, "numpy's median interpolates");
    // request latency to the stream's end: 0.165 and 0.095 s; the kit's E2EL 0.160 and 0.090
    assertEquals(0.13, g.row("Request Latency (Sec)").peer(0), EPS);
    assertEquals(0.125, g.row("Request Latency (Sec)").kit(0), EPS);
  }

  @Test
  void guidellmThroughputsAndTimeWeightedConcurrency() {
    PeerFigures g = figures("guidellm", level());
    // all 3 requests (the failed one too) over first send (0) to last end (165 ms)
    assertEquals(3 / 0.165, g.row("Requests Per Sec").peer(0), EPS);
    assertEquals(2 / 0.165, g.row("Requests Per Sec").kit(0), EPS);
    // output tokens 6 from the first first token (60) to the last token (160)
    assertEquals(6 / 0.1, g.row("Output Tokens Per Sec").peer(0), 1e-6);
    // input tokens 50 from the first first token (60) to the last first token (100)
    assertEquals(50 / 0.04, g.row("Input Tokens Per Sec").peer(0), 1e-6);
    assertEquals(56 / 0.1, g.row("Total Tokens Per Sec").peer(0), 1e-6);
    // in flight: 2 for [0,10), 3 for [10,20), 2 for [20,95), 1 for [95,165)
    PeerFigures.Row concurrency = g.row("Requests Concurrency");
    assertEquals((2 * 10 + 3 * 10 + 2 * 75 + 70) / 165.0, concurrency.peer(0), EPS);
    assertEquals(2.0, concurrency.peer(1), EPS);
    assertTrue(Double.isNaN(concurrency.kit(0)), "the kit has no mean concurrency");
  }

  @Test
  void aiperfCountsOutputWithTheTokenizerAndItsItlIsPerRequest() {
    PeerFigures a = figures("aiperf", level());
    // OSL: r1's chunk tokens (5, the server said 4), r2's usage (2)
    PeerFigures.Row osl = a.row("Output Sequence Length (tokens)");
    assertEquals(3.5, osl.peer(0), EPS);
    assertEquals(3.0, osl.kit(0), EPS, "the kit's: the server's counts");
    // ITL: (160 - 100) / (5 - 1) = 15 and (90 - 60) / (2 - 1) = 30, over requests
    PeerFigures.Row itl = a.row("Inter Token Latency (ms)");
    assertEquals(22.5, itl.peer(0), EPS);
    assertEquals(15.0, itl.peer(1), EPS, "min");
    assertEquals(30.0, itl.peer(2), EPS, "max");
    assertEquals(7.5, itl.peer(6), EPS, "population std");
    assertEquals(40.0, itl.kit(2), EPS, "the kit's max gap");
    // 1 / ITL: 1000 / 15 and 1000 / 30 tokens per second
    assertEquals(50.0, a.row("Output Token Throughput Per User (tokens/sec/user)").peer(0), EPS);
    // time to second token: the first gaps, 10 and 30
    assertEquals(20.0, a.row("Time to Second Token (ms)").peer(0), EPS);
    // duration: the first start to the last text chunk of a valid request (160 ms)
    assertEquals(7 / 0.16, a.row("Output Token Throughput (tokens/sec)").peer(0), EPS);
    assertEquals(6 / 0.165, a.row("Output Token Throughput (tokens/sec)").kit(0), EPS);
    assertEquals(2 / 0.16, a.row("Request Throughput (requests/sec)").peer(0), EPS);
    assertTrue(Double.isNaN(a.row("Request Count (requests)").peer(1)), "one value: avg only");
    assertTrue(
        a.notes().stream().anyMatch(n -> n.startsWith("Output Sequence Length: 1 of 2")),
        a.notes().toString());
  }

  @Test
  void vllmCountsChunksForItsPeakAndOnlySuccessfulRequestsForItsConcurrency() {
    // r1 carries 8 tokens in its 4 chunks: the kit weighs each 2, vLLM counts each 1
    List<RequestRecord> records =
        level().stream()
            .map(r -> r.id().equals("r1") ? r.toBuilder().outputTokens(8).build() : r)
            .toList();
    PeerFigures v = figures("vllm", records);
    PeerFigures.Row peak = v.row("Peak output token throughput (tok/s):");
    assertEquals(6.0, peak.peer(0), EPS);
    assertEquals(10.0, peak.kit(0), EPS);
    PeerFigures.Row concurrent = v.row("Peak concurrent requests:");
    assertEquals(2.0, concurrent.peer(0), EPS);
    assertEquals(3.0, concurrent.kit(0), EPS, "the failed r3 overlaps both");
    PeerFigures.Row p99Itl = v.row("P99 ITL (ms):");
    assertEquals(p99Itl.kit(0), p99Itl.peer(0), 0.0);
    assertEquals(30.0 + 0.97 * 10.0, p99Itl.peer(0), EPS, "vLLM's ITL is per chunk gap");
    assertTrue(v.notes().get(0).startsWith("TTFT: vLLM stops it at the first chunk with choices"));
    assertFalse(v.notes().stream().anyMatch(n -> n.contains("had no usage")));
  }

  @Test
  void namesAndUnknownTools() {
    assertEquals("vllm, aiperf or guidellm", PeerTool.names());
    assertEquals(Optional.empty(), PeerTool.named("locust"));
    assertEquals("aiperf", PeerTool.named(" AIPerf ").orElseThrow().name());
  }

  @Test
  void weightedDistributionIsGuidellmsPdf() {
    WeightedDistribution d =
        WeightedDistribution.of(new double[] {3, 1, 2, 1}, new double[] {1, 1, 2, 0});
    // 1 (weight 1), 2 (weight 2), 3 (weight 1): cumulative 0.25, 0.75, 1
    assertEquals(2.0, d.mean(), EPS);
    assertEquals(1.0, d.percentile(25), EPS, "reaching 0.25 exactly: the first equal one");
    assertEquals(2.0, d.median(), EPS);
    assertEquals(3.0, d.percentile(99), EPS);
    assertEquals(0.0, WeightedDistribution.of(new double[0]).median(), 0.0);
  }
}
