package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.LlmBench;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's own calls to the server around its levels, in real runs, seen from the server's side:
 * {@code -Dready.timeout} waits for a server still loading, {@code -Dprofile} starts the profiler
 * after the warmup and stops it after the last level, {@code -Dcache.reset} empties the prefix
 * cache before each level; a server without them is said once and the run goes on. Runs of a few
 * requests at concurrency 1-2.
 */
class ServerCallsIT {

  /** The server's log as the calls that matter here, in order. */
  private static List<String> calls(ScriptedServer server) {
    return server.received().stream()
        .map(
            r ->
                switch (r) {
                  case "POST /v1/chat/completions" -> "request";
                  case "POST /reset_prefix_cache" -> "reset";
                  case "POST /start_profile" -> "start";
                  case "POST /stop_profile" -> "stop";
                  default -> "";
                })
        .filter(s -> !s.isEmpty())
        .toList();
  }

  private static Map<String, String> small(String baseUrl) {
    return Map.of(
        "base.url", baseUrl,
        "ladder", "1,2",
        "prompts", "2",
        "input.len", "20",
        "output.len", "5",
        "timeout", "10",
        "metrics.interval", "0");
  }

  @Test
  void aLoadingServerIsWaitedForThenProfiledAndResetBetweenTheLevels(@TempDir Path results)
      throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))
            .answer("POST /start_profile", 200)
            .answer("POST /stop_profile", 200)
            .answer("POST /reset_prefix_cache", 200)
            .notReadyFor(1000)) {
      Map<String, String> props = new HashMap<>(small(server.baseUrl()));
      props.putAll(
          Map.of(
              "warmup.prompts", "1",
              "warmup.conc", "1",
              "profile", "true",
              "cache.reset", "true",
              "ready.timeout", "30"));
      GatlingRun.Result run = GatlingRun.run(ServingBenchmarkSimulation.class, results, props);
      assertEquals(0, run.exitCode());

      // the wait: the loading server's 503s came before anything else
      List<String> received = server.received();
      assertEquals("GET /health", received.get(0));
      // 1 s of 503s asked every 0.5 s, then the kit's own first calls
      int firstRequest = received.indexOf("POST /v1/chat/completions");
      assertTrue(
          received.subList(0, firstRequest).stream().filter("GET /health"::equals).count() >= 2,
          "asked /health until ready: " + received);
      assertTrue(run.console().contains(server.baseUrl() + " is ready after "), run.console());

      // the warmup, then a reset before each level, the profile around the measured levels
      assertEquals(
          List.of(
              "request", "reset", "start", "request", "request", "reset", "request", "request",
              "stop"),
          calls(server));
      String console = run.console();
      assertTrue(console.contains("profiling started before c1 (POST /start_profile)"), console);
      assertTrue(console.contains("prefix cache reset before c2"), console);
      assertTrue(console.contains("profiling stopped after "), console);
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(5, records.size());
      assertTrue(records.stream().allMatch(RequestRecord::ok));
    }
  }

  @Test
  void theSimulatorsCacheIsEmptiedBeforeEachLevelAndItsMissingProfilerIsSaid(@TempDir Path results)
      throws Exception {
    // vLLM's simulator without a profiler dir: /start_profile answers 404
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny"))) {
      Map<String, String> props = new HashMap<>(small(sim.baseUrl()));
      props.putAll(Map.of("profile", "true", "cache.reset", "true", "prefix.len", "64"));
      GatlingRun.Result run = GatlingRun.run(ServingBenchmarkSimulation.class, results, props);
      assertEquals(0, run.exitCode());

      // from the server's side: a reset when no request had come, then after c1's two
      assertEquals(List.of(0L, 2L), sim.prefixCacheResets());
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(4, records.size());
      assertTrue(records.stream().allMatch(RequestRecord::ok), "the run went on");

      String console = run.console();
      assertEquals(
          1,
          console.lines().filter(l -> l.contains("-Dprofile: the server at")).count(),
          "said once: " + console);
      assertTrue(
          console.contains("has no profiler (POST /start_profile: HTTP 404): start vLLM with"),
          console);
      assertFalse(console.contains("stopping the profiler"), console);
      Map<String, String> checks = TestReports.summary(run.runDir()).run().serverChecks();
      assertEquals(
          "none: POST /start_profile answered HTTP 404", checks.get("profile"), checks.toString());
      assertEquals(
          "2 of 2 resets done (POST /reset_prefix_cache)",
          checks.get("cache.reset"),
          checks.toString());
    }
  }

  /**
   * A server that never gets ready stops the run with one line once {@code -Dready.timeout} has
   * passed. What the server logged says the kit waited for the timeout rather than giving up at the
   * first answer (it asked again after a 503) and sent nothing of the load, where a bound on the
   * run's time said less and failed on a busy machine.
   */
  @Test
  void aServerNeverReadyStopsTheRunWithOneLineAtTheTimeout(@TempDir Path results) throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK)).neverReady()) {
      GatlingProcess.Outcome o =
          GatlingProcess.run(
              ServingBenchmarkSimulation.class,
              results,
              60,
              "base.url=" + server.baseUrl(),
              "ready.timeout=2");
      assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode(), o.stdout() + o.stderr());
      assertEquals(
          "gatling-llm-bench: The server at "
              + server.baseUrl()
              + " was not ready within 2 s (-Dready.timeout=2): GET /health: HTTP 503,"
              + " GET /v1/models: HTTP 503",
          o.stderr().strip());
      assertFalse(o.stdout().contains("Exception"), o.stdout());
      List<String> received = server.received();
      assertTrue(
          received.stream().filter("GET /health"::equals).count() >= 2,
          "asked again after a 503: " + received);
      assertTrue(
          received.stream().allMatch(r -> r.equals("GET /health") || r.equals("GET /v1/models")),
          "nothing of the load: " + received);
    }
  }
}
