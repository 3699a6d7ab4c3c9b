package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimFaults;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.FailureKinds;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ReceivedOnce;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dapi=embeddings} ({@code /v1/embeddings}, one JSON body, not streamed) against a
 * simulator that logs what it received: vLLM's pooling block with the usage's input tokens, a gate
 * on E2EL and one on input throughput, a summary without TTFT, TPOT or ITL; then each failure kind
 * (an error in a 200, a body cut, an HTTP 500 or 429, a timeout) as a failure with its text, every
 * request reaching the server once.
 */
class EmbeddingsIT {

  private static final int PROMPTS = 20;
  private static final int INPUT_LEN = 64;

  private static SimulatorConfig sim(String faults) {
    return SimulatorConfig.defaults()
        .withModel("sim-tiny")
        .withGpu("rtx4090")
        .withFaults(SimFaults.parse(faults));
  }

  @Test
  void anEmbeddingsRunReportsThePoolingBlockAndEachFailureKind(@TempDir Path results)
      throws Exception {
    try (VllmSimulator clean = VllmSimulator.start(sim("none"))) {
      GatlingRun.Result run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results.resolve("ok"),
              Map.of(
                  "base.url", clean.baseUrl(),
                  "api", "embeddings",
                  "conc", "4",
                  "prompts", Integer.toString(PROMPTS),
                  "input.len", Integer.toString(INPUT_LEN),
                  "gate.e2el.p99", "60000",
                  "gate.input_throughput.min", "1"));
      assertEquals(0, run.exitCode(), run.console());
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(PROMPTS, records.size());
      assertTrue(records.stream().allMatch(RequestRecord::ok), "all OK");
      assertTrue(records.stream().allMatch(RequestRecord::pooling), "pooling records");
      assertTrue(
          records.stream()
              .allMatch(r -> r.inputTokens() == INPUT_LEN && r.inputTokensFrom() == null),
          "the usage's input tokens");
      assertTrue(records.stream().allMatch(r -> r.outputTokens() == 0 && r.tpotMs() == null));
      assertTrue(records.stream().allMatch(r -> r.ttftMs().equals(r.e2elMs())), "TTFT is E2EL");
      String console = run.console();
      assertTrue(
          console.contains("; the longest request needs " + INPUT_LEN + "\n"),
          "the prompt alone fits the context: " + console);
      assertFalse(console.contains("  output.len "), console);
      assertTrue(console.contains(row("Successful requests:", PROMPTS)), console);
      assertTrue(console.contains(row("Total input tokens:", PROMPTS * INPUT_LEN)), console);
      assertTrue(console.contains("Input throughput (inputs/s):"), console);
      assertTrue(console.contains("Mean E2EL (ms):"), console);
      for (String generated : List.of("TTFT (ms)", "TPOT (ms)", "ITL (ms)", "generated tokens")) {
        assertFalse(console.contains(generated), generated + " in\n" + console);
      }
      assertEquals(PROMPTS, clean.received().size(), "the server's count");
      JsonNode s = new ObjectMapper().readTree(run.llm("summary.json").toFile());
      assertEquals("openai-embeddings", s.path("backend").asText(), s.toString());
      JsonNode level = s.path("levels").path("c4");
      assertTrue(level.has("mean_e2el_ms"), level.toString());
      for (String generated : List.of("mean_ttft_ms", "mean_tpot_ms", "mean_itl_ms")) {
        assertFalse(level.has(generated), generated + " in " + level);
      }
      assertEquals(0.0, level.path("max_output_tokens_per_s").asDouble(), level.toString());
      assertEquals(0.0, level.path("steady_state").path("output_throughput").asDouble());
      String page = java.nio.file.Files.readString(run.runDir().resolve("llm.html"));
      assertFalse(page.contains("id=\"llm-chart-tpot\""), "no TPOT chart");
      assertTrue(page.contains("Serving Benchmark Result (pooling)"), "the pooling table");
    }

    try (VllmSimulator faulty =
        VllmSimulator.start(sim("error:0.15,cut:0.15,500:0.15,429:0.15,stall:0.15:3"))) {
      GatlingRun.Result run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results.resolve("faults"),
              Map.of(
                  "base.url", faulty.baseUrl(),
                  "api", "embeddings",
                  "conc", "8",
                  "prompts", "60",
                  "input.len", "32",
                  "timeout", "1",
                  "gate.failed.pct", "100"));
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(60, records.size());
      FailureKinds.assertEachKind(
          records,
          "error in HTTP 200 body: simulated fault: embedding failed",
          "error in HTTP 200 body:",
          "body cut before its end",
          "HTTP 500",
          "HTTP 429",
          "timeout:");
      // each request reached the server once: a failure is never sent again
      ReceivedOnce.assertEachReceivedOnce(records, faulty);
      assertTrue(run.console().contains("- Failures -"), run.console());
    }
  }

  /** A row of vLLM's block: the label in 40 columns, a space, the value. */
  private static String row(String label, int value) {
    return String.format("%-40s %d", label, value);
  }
}
