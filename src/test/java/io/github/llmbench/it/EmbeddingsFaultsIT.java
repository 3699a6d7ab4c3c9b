package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.FailureKinds;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ReceivedOnce;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dapi=embeddings} against a faulty simulator, run once for the class: each failure kind
 * (an error in a 200, a body cut, an HTTP 500 or 429, a timeout) is a failure with its text, and
 * every request reaches the server once.
 */
class EmbeddingsFaultsIT {
  @TempDir static Path results;

  private static VllmSimulator faulty;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  @BeforeAll
  static void runEmbeddingsAgainstFaults() throws Exception {
    faulty =
        VllmSimulator.start(EmbeddingsIT.sim("error:0.15,cut:0.15,500:0.15,429:0.15,stall:0.15:3"));
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url", faulty.baseUrl(),
                "api", "embeddings",
                "conc", "8",
                "prompts", "60",
                "input.len", "32",
                "timeout", "1",
                "gate.failed.pct", "100"));
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
  }

  @AfterAll
  static void stopTheSimulator() {
    if (faulty != null) {
      faulty.close();
    }
  }

  @Test
  void eachFailureKindIsAFailureWithItsText() {
    assertEquals(60, records.size());
    FailureKinds.assertEachKind(
        records,
        "error in HTTP 200 body: simulated fault: embedding failed",
        "error in HTTP 200 body:",
        "body cut before its end",
        "HTTP 500",
        "HTTP 429",
        "timeout:");
  }

  @Test
  void aFailureIsNeverSentAgain() {
    ReceivedOnce.assertEachReceivedOnce(records, faulty);
  }

  @Test
  void theConsoleHasAFailuresBlock() {
    assertTrue(run.console().contains("- Failures -"), run.console());
  }
}
