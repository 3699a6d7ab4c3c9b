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
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dapi=responses} ({@code /v1/responses}, OpenAI's Responses API, streamed) against a
 * simulator that logs what it received, run once for the class: the result block as for chat and
 * the usage's lengths. Its failure kinds: {@link ResponsesFaultsIT}.
 */
class ResponsesIT {

  private static final int PROMPTS = 40;
  private static final int OUTPUT_LEN = 16;

  @TempDir static Path results;

  private static VllmSimulator sim;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  /** The simulator of a small model, with the faults given ({@code none} for none). */
  static SimulatorConfig sim(String faults) {
    return SimulatorConfig.defaults()
        .withModel("sim-tiny")
        .withGpu("rtx4090")
        .withFaults(SimFaults.parse(faults));
  }

  @BeforeAll
  static void runResponses() throws Exception {
    sim = VllmSimulator.start(sim("none"));
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url",
                sim.baseUrl(),
                "api",
                "responses",
                "conc",
                "4",
                "prompts",
                Integer.toString(PROMPTS),
                "input.len",
                "64",
                "output.len",
                Integer.toString(OUTPUT_LEN)));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
  }

  @AfterAll
  static void stopTheSimulator() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void everyRequestSucceedsAndReachesTheServer() {
    assertEquals(PROMPTS, records.size());
    assertTrue(records.stream().allMatch(RequestRecord::ok), "all OK");
    assertEquals(PROMPTS, sim.received().size(), "the server's count");
  }

  @Test
  void aRecordTakesItsLengthsFromTheUsageAndOneDeltaPerToken() {
    assertTrue(
        records.stream().allMatch(r -> r.outputTokens() == OUTPUT_LEN), "the usage's lengths");
    assertTrue(records.stream().allMatch(r -> "length".equals(r.finishReason())));
    assertTrue(
        records.stream().allMatch(r -> r.itlMs().size() == OUTPUT_LEN - 1), "one delta a token");
  }

  @Test
  void theConsoleShowsTheResultBlockAsForChat() {
    assertTrue(run.console().contains("Successful requests:                     40"));
    assertTrue(run.console().contains("Mean TPOT (ms):"), run.console());
  }

  @Test
  void theSummaryNamesTheResponsesBackend() {
    RunInfo info = TestReports.summary(run.runDir()).run();
    assertEquals("openai-responses", info.backend(), info.toString());
  }
}
