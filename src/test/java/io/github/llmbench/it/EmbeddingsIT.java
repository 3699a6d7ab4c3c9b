package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimFaults;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dapi=embeddings} ({@code /v1/embeddings}, one JSON body, not streamed) against a
 * simulator that logs what it received, run once for the class: vLLM's pooling block with the
 * usage's input tokens, a gate on E2EL and one on input throughput, a summary without TTFT, TPOT or
 * ITL. Its failure kinds: {@link EmbeddingsFaultsIT}.
 */
class EmbeddingsIT {

  private static final int PROMPTS = 20;
  private static final int INPUT_LEN = 64;

  @TempDir static Path results;

  private static VllmSimulator sim;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static Summary summary;

  /** The simulator of a small model, with the faults given ({@code none} for none). */
  static SimulatorConfig sim(String faults) {
    return SimulatorConfig.defaults()
        .withModel("sim-tiny")
        .withGpu("rtx4090")
        .withFaults(SimFaults.parse(faults));
  }

  @BeforeAll
  static void runEmbeddings() throws Exception {
    sim = VllmSimulator.start(sim("none"));
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url", sim.baseUrl(),
                "api", "embeddings",
                "conc", "4",
                "prompts", Integer.toString(PROMPTS),
                "input.len", Integer.toString(INPUT_LEN),
                "gate.e2el.p99", "60000",
                "gate.input_throughput.min", "1"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
    summary = TestReports.summary(run.runDir());
  }

  @AfterAll
  static void stopTheSimulator() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void everyRequestSucceedsOnceAsAPoolingRecord() {
    assertEquals(PROMPTS, records.size());
    assertTrue(records.stream().allMatch(RequestRecord::ok), "all OK");
    assertTrue(records.stream().allMatch(r -> r.figures() == Figures.POOLED), "pooling records");
    assertEquals(PROMPTS, sim.received().size(), "the server's count");
  }

  @Test
  void aRecordTakesItsInputTokensFromTheUsageAndGeneratesNone() {
    assertTrue(
        records.stream().allMatch(r -> r.inputTokens() == INPUT_LEN && r.inputTokensFrom() == null),
        "the usage's input tokens");
    assertTrue(records.stream().allMatch(r -> r.outputTokens() == 0 && r.tpotMs() == null));
    assertTrue(records.stream().allMatch(r -> r.ttftMs().equals(r.e2elMs())), "TTFT is E2EL");
  }

  @Test
  void theContextCheckWeighsThePromptAlone() {
    String console = run.console();
    assertTrue(
        console.contains("; the longest request needs " + INPUT_LEN + "\n"),
        "the prompt alone fits the context: " + console);
    assertFalse(console.contains("  output.len "), console);
  }

  @Test
  void theConsoleShowsThePoolingBlockWithoutGeneratedTokens() {
    String console = run.console();
    assertTrue(console.contains(row("Successful requests:", PROMPTS)), console);
    assertTrue(console.contains(row("Total input tokens:", PROMPTS * INPUT_LEN)), console);
    assertTrue(console.contains("Input throughput (inputs/s):"), console);
    assertTrue(console.contains("Mean E2EL (ms):"), console);
    for (String generated : List.of("TTFT (ms)", "TPOT (ms)", "ITL (ms)", "generated tokens")) {
      assertFalse(console.contains(generated), generated + " in\n" + console);
    }
  }

  @Test
  void theSummaryHasE2elButNoTtftTpotOrItl() {
    assertEquals("openai-embeddings", summary.run().backend(), summary.run().toString());
    LevelSummary level = summary.levels().get("c4");
    List<LatencyFigure> figures = level.figures().latencyFigures();
    assertTrue(figures.contains(LatencyFigure.of(Metric.E2EL, Statistic.MEAN)), figures.toString());
    for (Metric generated : List.of(Metric.TTFT, Metric.TPOT, Metric.ITL)) {
      assertFalse(
          figures.contains(LatencyFigure.of(generated, Statistic.MEAN)),
          generated + " in " + level);
    }
    assertEquals(0.0, level.figures().maxOutputTokensPerS(), level.toString());
    assertEquals(0.0, level.steadyState().outputThroughput());
  }

  @Test
  void thePageHasThePoolingTableAndNoTpotChart() throws Exception {
    String page = Files.readString(run.runDir().resolve("llm.html"));
    assertFalse(page.contains("id=\"llm-chart-tpot\""), "no TPOT chart");
    assertTrue(page.contains("Serving Benchmark Result (pooling)"), "the pooling table");
  }

  /** A row of vLLM's block: the label in 40 columns, a space, the value. */
  private static String row(String label, int value) {
    return String.format("%-40s %d", label, value);
  }
}
