package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads shaped as AIPerf, GuideLLM and inference-perf shape them, against the embedded
 * simulator, judged by what the server counted: a normal length distribution, and prefix groups
 * whose hit rate a perfect cache would get.
 */
class WorkloadShapesIT {

  @Test
  void aNormalInputDistributionReachesTheServerWithItsMeanAndStdev(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "api", "completions",
                "conc", "64",
                "prompts", "500",
                "input.len", "512",
                "input.stdev", "128",
                "output.len", "2",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "seed", "3",
                "metrics.interval", "0"));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(500, records.size());
    // the server's own count of each prompt (usage.prompt_tokens): completions add no template
    double[] in = records.stream().mapToDouble(r -> r.inputTokens()).toArray();
    double mean = java.util.Arrays.stream(in).average().orElse(0);
    double var =
        java.util.Arrays.stream(in).map(x -> (x - mean) * (x - mean)).sum() / (in.length - 1);
    assertEquals(512, mean, 512 * 0.05, "mean of the server-counted lengths");
    assertEquals(128, Math.sqrt(var), 128 * 0.05, "stdev of the server-counted lengths");
    assertTrue(records.stream().allMatch(r -> r.outputTokens() == 2), "outputs stay fixed");
    assertTrue(
        run.console().contains("distribution input normal, mean 512, stdev 128: drawn mean"),
        run.console());
    JsonNode checks =
        new ObjectMapper().readTree(run.llm("summary.json").toFile()).findValue("server_checks");
    assertTrue(
        checks.path("distribution").asText().contains("(the first 500 requests)"),
        checks.toString());
  }

  @Test
  void fourPrefixGroupsGetThePredictedHitRateOnTheSimulator(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "api", "completions",
                "conc", "4",
                "prompts", "80",
                "prefix.len", "500",
                "prefix.groups", "4",
                "input.len", "100",
                "output.len", "4",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "metrics.interval", "0.25"));
    assertEquals(0, run.exitCode(), run.console());
    assertTrue(
        run.console()
            .contains(
                "4 prefixes of 500 tokens, taken in turn: a perfect prefix cache"
                    + " serves 83.3% of the prompt tokens"),
        run.console());
    JsonNode level =
        new ObjectMapper()
            .readTree(run.llm("summary.json").toFile())
            .path("levels")
            .path("c4")
            .path("server")
            .path("level");
    double ideal = level.path("prefix_cache_hit_rate_ideal").asDouble();
    // 76 of 80 requests hit 500 of their 600 tokens
    assertEquals(500.0 * 76 / (80 * 600), ideal, 1e-9, level.toString());
    double measured = level.path("prefix_cache_hit_rate").asDouble();
    assertEquals(ideal, measured, 0.05, "the server's hit rate within 5 points: " + level);
    assertTrue(run.console().contains("client prefix_cache_hit_rate: what a perfect prefix cache"));
  }

  @Test
  void tenPercentCancelledAreCountedApartAndTheServerStopsTheirWork(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "conc", "10",
                "prompts", "100",
                "input.len", "32",
                "output.len", "400",
                "cancel.pct", "10",
                "cancel.after", "0.3",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "seed", "11",
                "metrics.interval", "0.25"));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(100, records.size());
    List<RequestRecord> cancelled = records.stream().filter(RequestRecord::cancelled).toList();
    long completed = records.stream().filter(RequestRecord::ok).count();
    assertTrue(
        cancelled.size() >= 4 && cancelled.size() <= 18, "about 10 of 100: " + cancelled.size());
    assertEquals(100, completed + cancelled.size(), "no other request failed");
    for (RequestRecord r : cancelled) {
      assertEquals(300, r.endMs() - r.startMs(), 60, r.toString());
    }
    JsonNode level =
        new ObjectMapper().readTree(run.llm("summary.json").toFile()).path("levels").path("c10");
    assertEquals(cancelled.size(), level.path("cancelled").asInt(), level.toString());
    assertEquals(0, level.path("failed").asInt());
    assertTrue(
        run.console().matches("(?s).*Cancelled requests:\\s+" + cancelled.size() + "\\s*\\n.*"),
        run.console());
    // the server's side: the cancelled requests stopped generating when their client went
    double generated = level.path("server").path("level").path("generation_tokens").asDouble();
    assertTrue(
        generated < 400.0 * completed + 0.9 * 400 * cancelled.size(),
        "the server generated " + generated + " tokens for " + completed + " answers of 400");
    assertTrue(generated >= 400.0 * completed, "every completed answer: " + generated);
    // each request reached the server once: a cancel closes its connection, never resends it
    int promptTokens = records.stream().filter(RequestRecord::ok).findFirst().get().inputTokens();
    assertEquals(
        100.0 * promptTokens,
        level.path("server").path("level").path("prompt_tokens").asDouble(),
        level.toString());
  }
}
