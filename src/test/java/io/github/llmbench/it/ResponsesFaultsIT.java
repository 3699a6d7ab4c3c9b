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
 * {@code -Dapi=responses} against a faulty simulator, run once for the class: each failure kind (an
 * error event, a cut stream, an HTTP 500 or 429, a timeout) is a failure with its text, and every
 * request reaches the server once.
 */
class ResponsesFaultsIT {
  @TempDir static Path results;

  private static VllmSimulator faulty;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  @BeforeAll
  static void runResponsesAgainstFaults() throws Exception {
    faulty =
        VllmSimulator.start(ResponsesIT.sim("error:0.15,cut:0.15,500:0.15,429:0.15,stall:0.15:3"));
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url", faulty.baseUrl(),
                "api", "responses",
                "conc", "4",
                "prompts", "60",
                "input.len", "32",
                "output.len", "16",
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
        "error event: simulated fault: generation failed",
        "error event:",
        "stream cut",
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
