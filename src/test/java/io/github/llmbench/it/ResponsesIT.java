package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimFaults;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.FailureKinds;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ReceivedOnce;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dapi=responses} ({@code /v1/responses}, OpenAI's Responses API, streamed) against a
 * simulator that logs what it received: the result block as for chat, the usage's lengths, and each
 * failure kind (an error event, a cut stream, an HTTP 500 or 429, a timeout) as a failure with its
 * text, every request reaching the server once.
 */
class ResponsesIT {

  private static SimulatorConfig sim(String faults) {
    return SimulatorConfig.defaults()
        .withModel("sim-tiny")
        .withGpu("rtx4090")
        .withFaults(SimFaults.parse(faults));
  }

  @Test
  void aResponsesRunReportsItsBlocksAndEachFailureKind(@TempDir Path results) throws Exception {
    try (VllmSimulator clean = VllmSimulator.start(sim("none"))) {
      GatlingRun.Result run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results.resolve("ok"),
              Map.of(
                  "base.url", clean.baseUrl(),
                  "api", "responses",
                  "conc", "4",
                  "prompts", "40",
                  "input.len", "64",
                  "output.len", "16"));
      assertEquals(0, run.exitCode(), run.console());
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(40, records.size());
      assertTrue(records.stream().allMatch(RequestRecord::ok), "all OK");
      assertTrue(records.stream().allMatch(r -> r.outputTokens() == 16), "the usage's lengths");
      assertTrue(records.stream().allMatch(r -> "length".equals(r.finishReason())));
      assertTrue(records.stream().allMatch(r -> r.itlMs().size() == 15), "one delta a token");
      assertTrue(run.console().contains("Successful requests:                     40"));
      assertTrue(run.console().contains("Mean TPOT (ms):"), run.console());
      assertEquals(40, clean.received().size(), "the server's count");
      RunInfo info = TestReports.summary(run.runDir()).run();
      assertEquals("openai-responses", info.backend(), info.toString());
    }

    try (VllmSimulator faulty =
        VllmSimulator.start(sim("error:0.15,cut:0.15,500:0.15,429:0.15,stall:0.15:3"))) {
      GatlingRun.Result run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results.resolve("faults"),
              Map.of(
                  "base.url", faulty.baseUrl(),
                  "api", "responses",
                  "conc", "4",
                  "prompts", "60",
                  "input.len", "32",
                  "output.len", "16",
                  "timeout", "1",
                  "gate.failed.pct", "100"));
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(60, records.size());
      FailureKinds.assertEachKind(
          records,
          "error event: simulated fault: generation failed",
          "error event:",
          "stream cut",
          "HTTP 500",
          "HTTP 429",
          "timeout:");
      // each request reached the server once: a failure is never sent again
      ReceivedOnce.assertEachReceivedOnce(records, faulty);
      assertTrue(run.console().contains("- Failures -"), run.console());
    }
  }
}
