package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's metrics beside the client's: the embedded simulator's {@code /metrics} with a long
 * shared prefix (a prefix-cache hit rate and its guard), and a DCGM exporter serving recorded text
 * ({@code -Dmetrics.urls}: the GPU figures).
 */
class TelemetryIT {

  @Test
  void aLongSharedPrefixIsCaughtAndTheGpuFiguresComeFromDcgm(@TempDir Path results) throws Exception {
    byte[] dcgm;
    try (InputStream in = TelemetryIT.class.getResourceAsStream("/telemetry/dcgm-metrics.txt")) {
      dcgm = in.readAllBytes();
    }
    HttpServer exporter = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    exporter.createContext("/metrics", ex -> {
      ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
      ex.sendResponseHeaders(200, dcgm.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(dcgm);
      }
    });
    exporter.start();
    GatlingRun.Result run;
    try {
      run = GatlingRun.run(ServingBenchmarkSimulation.class, results, Map.of(
          "conc", "4", "prompts", "48", "prefix.len", "1000", "input.len", "50", "output.len", "32", "metrics.interval", "0.25",
          "sim.model", "sim-tiny", "sim.gpu", "rtx4090", "seed", "5",
          "metrics.urls", "http://127.0.0.1:" + exporter.getAddress().getPort() + "/metrics"));
    } finally {
      exporter.stop(0);
    }
    assertEquals(0, run.exitCode(), run.console());
    assertTrue(run.console().contains("metrics      GET http://127.0.0.1:"), run.console());

    JsonNode server = new ObjectMapper().readTree(run.llm("summary.json").toFile()).path("levels").path("c4").path("server");
    JsonNode level = server.path("level");
    double hit = level.path("prefix_cache_hit_rate").asDouble();
    assertTrue(hit > 0.5, "1000 shared tokens of 1050: " + server);
    assertTrue(level.path("running_mean").asDouble() > 0, server.toString());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    long clientTokens = records.stream().mapToLong(RequestRecord::outputTokens).sum();
    assertEquals(clientTokens, level.path("generation_tokens").asLong(), "the server's counter over the level: " + server);
    // the recorded DCGM text: two H100s (per-GPU means)
    assertEquals((612.345 + 598.12) / 2, level.path("gpu_power_w_mean").asDouble(), 1e-6, server.toString());
    assertEquals((1980 + 1755) / 2.0, level.path("gpu_sm_clock_mhz_mean").asDouble(), 1e-6, server.toString());
    assertEquals((97 + 95) / 2.0, level.path("gpu_util_mean").asDouble(), 1e-6, server.toString());
    assertTrue(level.path("itl_mean_ms").isNumber() && level.path("ttft_mean_ms").isNumber(), server.toString());

    String guard = String.format(java.util.Locale.ROOT, "prefix cache served %.0f%% of prompt tokens at c4: prefill was not measured", 100 * hit);
    assertEquals(guard, server.path("guards").get(0).asText(), server.toString());
    assertTrue(run.console().contains("! " + guard), run.console());
    String page = Files.readString(run.runDir().resolve("llm.html"), StandardCharsets.UTF_8);
    assertTrue(page.contains("<div id=\"llm-guards\"") && page.contains(guard), "the guard above the tables");
    assertTrue(page.contains("llm-chart-gpu"), "the GPU chart");

    List<ServerSample> samples = ServerMetricsFile.read(run.llm("requests.jsonl").getParent());
    assertTrue(samples.stream().anyMatch(s -> s.name().equals("DCGM_FI_DEV_POWER_USAGE") && "1".equals(s.labels().get("gpu"))));
    assertTrue(samples.stream().anyMatch(s -> s.name().equals("vllm:prefix_cache_hits_total")));
    assertTrue(samples.stream().noneMatch(s -> s.name().endsWith("_bucket")), "buckets are not kept");
  }
}
