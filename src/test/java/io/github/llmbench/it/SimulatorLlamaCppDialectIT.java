package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit against the embedded simulator speaking llama.cpp's dialect ({@code
 * -Dsim.dialect=llamacpp}), so the llama-server paths stay tested without the binary: completions,
 * whose usage comes in the finish chunk with {@code "text":""}, the {@code timings} object kept per
 * request, a server that closes the connection after each stream (6 requests, 4 at a time: each
 * slot's next request must not reuse the closed connection), and its 4 slots sharing one KV cache
 * that 4 requests of 1,116 tokens overfill (said before the load).
 */
class SimulatorLlamaCppDialectIT {

  @Test
  void completionsInLlamaCppDialect(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "prompts", "6",
                "conc", "4",
                "api", "completions",
                "input.len", "1100",
                "output.len", "16",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "sim.dialect", "llamacpp"));
    assertEquals(0, run.exitCode(), run.console());
    assertTrue(
        run.console()
            .contains(
                "(n_ctx of GET /props, shared by its 4 slots); the longest request needs 1116; !"
                    + " its 4 slots share these 4096 tokens (llama.cpp's unified KV cache, the"
                    + " default without -np): 4 requests in flight of up to 1116 tokens need 4464"),
        run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(6, records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals(16, r.outputTokens());
      assertEquals(false, r.outputTokensEstimated());
      assertEquals(15, r.itlMs().size());
      assertEquals(
          1100, r.inputTokens(), "exact lengths through llama.cpp's /tokenize {\"content\"} form");
      assertNotNull(r.serverTimings(), r.toString());
      assertEquals(16, r.serverTimings().predictedN());
      assertEquals(
          r.serverTimings().predictedMs() / 15, r.serverTimings().predictedPerTokenMs(), 1e-3);
      // (no timing comparison here: sim-tiny's ~2 ms tokens are below a cold JVM's pauses; the
      // llama-server ITs compare with a real server's timings)
    }
    Summary summary = TestReports.summary(run.runDir());
    assertEquals("llmbench/sim-tiny", summary.run().modelId(), "the first id of /v1/models' data");
    assertEquals(0, summary.overall().failed());
  }
}
