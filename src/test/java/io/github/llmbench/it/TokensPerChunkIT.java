package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.summary.ChunkFigures;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that sends 2 tokens per chunk ({@code -Dsim.tokens.per.chunk=2}): vLLM's per-chunk ITL
 * reads two token times, the kit's per-token ITL one, as TPOT does.
 */
class TokensPerChunkIT {

  @Test
  void twoTokensPerChunkGivePerTokenItlOfHalfTheChunkGap(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            FixedRequestsSimulation.class,
            results,
            Map.of(
                "conc", "4",
                "it.requests", "8",
                "input.len", "32",
                "output.len", "64",
                "sim.tokens.per.chunk", "2"));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(8, records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals(64, r.outputTokens(), "usage counts every token");
      assertEquals(31, r.itlMs().size(), "32 chunks of 2 tokens: 31 gaps");
    }
    LevelSummary level = TestReports.summary(run.runDir()).levels().get("c4");
    ChunkFigures chunks = level.chunks();
    assertEquals(2.0, chunks.tokensPerChunkMean(), 1e-12);
    assertEquals(2.0, chunks.tokensPerChunkMax(), 1e-12);
    double chunkItl = level.figures().latency(LatencyFigure.of(Metric.ITL, Statistic.MEAN));
    double tpot = level.figures().latency(LatencyFigure.of(Metric.TPOT, Statistic.MEAN));
    assertEquals(chunkItl / 2, chunks.meanItlPerTokenMs(), 0.01 * chunkItl, "half the gap");
    // a chunk gap spans two engine steps, a token one: TPOT's
    assertEquals(tpot, chunks.meanItlPerTokenMs(), 0.15 * tpot, "per token as TPOT");
    assertEquals(2 * tpot, chunkItl, 0.3 * tpot);
    assertTrue(run.console().contains("Mean ITL per token (ms):"), run.console());
  }
}
