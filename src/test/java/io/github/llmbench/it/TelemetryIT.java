package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.ServerLevelFigures;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's metrics beside the client's: the embedded simulator's {@code /metrics} with a long
 * shared prefix (a prefix-cache hit rate and its guard), and a DCGM exporter serving recorded text
 * ({@code -Dmetrics.urls}: the GPU figures).
 */
class TelemetryIT {

  private static Map<String, String> properties(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  @Test
  void aLongSharedPrefixIsCaughtAndTheGpuFiguresComeFromDcgm(@TempDir Path results)
      throws Exception {
    byte[] dcgm;
    try (InputStream in = TelemetryIT.class.getResourceAsStream("/telemetry/dcgm-metrics.txt")) {
      dcgm = in.readAllBytes();
    }
    HttpServer exporter =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    exporter.createContext(
        "/metrics",
        ex -> {
          ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
          ex.sendResponseHeaders(200, dcgm.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(dcgm);
          }
        });
    exporter.start();
    GatlingRun.Result run;
    try {
      run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results,
              properties(
                  "conc",
                  "4",
                  "prompts",
                  "48",
                  "prefix.len",
                  "1000",
                  "input.len",
                  "50",
                  "output.len",
                  "32",
                  "metrics.interval",
                  "0.25",
                  "sim.model",
                  "sim-tiny",
                  "sim.gpu",
                  "rtx4090",
                  "seed",
                  "5",
                  "metrics.urls",
                  "http://127.0.0.1:" + exporter.getAddress().getPort() + "/metrics",
                  "gate.server.preemptions",
                  "0",
                  "gate.server.waiting_mean",
                  "100",
                  "gate.server.gpu_util_mean",
                  "90"));
    } finally {
      exporter.stop(0);
    }
    assertEquals(
        0,
        run.exitCode(),
        run.console()); // in-process runs leave the gates' exit status to gates.xml
    assertTrue(run.console().contains("metrics      GET http://127.0.0.1:"), run.console());
    assertTrue(run.console().contains("PASS c4       server.preemptions"), run.console());
    assertTrue(run.console().contains("PASS c4       server.waiting_mean"), run.console());
    assertTrue(
        run.console().contains("FAIL c4       server.gpu_util_mean"),
        "96% > 90%: " + run.console());
    assertTrue(
        Files.readString(run.llm("gates.xml")).contains("server.gpu_util_mean"),
        "in the JUnit XML");

    ServerLevelFigures server = TestReports.summary(run.runDir()).levels().get("c4").server();
    ServerFigureValues level = server.level();
    double hit = level.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE);
    assertTrue(hit > 0.5, "1000 shared tokens of 1050: " + server);
    assertTrue(level.get(CommonServerFigures.RUNNING_MEAN) > 0, server.toString());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    long clientTokens = records.stream().mapToLong(RequestRecord::outputTokens).sum();
    assertEquals(
        clientTokens,
        level.get(CommonServerFigures.GENERATION_TOKENS).longValue(),
        "the server's counter over the level: " + server);
    // the recorded DCGM text: two H100s (per-GPU means)
    assertEquals(
        (612.345 + 598.12) / 2,
        level.get(CommonServerFigures.GPU_POWER_W_MEAN),
        1e-6,
        server.toString());
    assertEquals(
        (1980 + 1755) / 2.0,
        level.get(CommonServerFigures.GPU_SM_CLOCK_MHZ_MEAN),
        1e-6,
        server.toString());
    assertEquals(
        (97 + 95) / 2.0, level.get(CommonServerFigures.GPU_UTIL_MEAN), 1e-6, server.toString());
    assertTrue(
        level.get(CommonServerFigures.ITL_MEAN_MS) != null
            && level.get(CommonServerFigures.TTFT_MEAN_MS) != null,
        server.toString());

    String guard =
        String.format(
            Locale.ROOT,
            "prefix cache served %.0f%% of prompt tokens at c4 (a perfect cache %.0f%% of these"
                + " prompts, with their shared prefixes): prefill was not measured",
            100 * hit,
            100 * level.get(ServerFigures.IDEAL_HIT_RATE));
    assertEquals(guard, server.guards().get(0), server.toString());
    assertTrue(run.console().contains("! " + guard), run.console());
    String page = Files.readString(run.runDir().resolve("llm.html"), StandardCharsets.UTF_8);
    assertTrue(
        page.contains("<div id=\"llm-guards\"") && page.contains(guard),
        "the guard above the tables");
    // the ladder's 3, in flight and tokens, the roofline, and the server's two
    Chromium.assertChartsDrawn(Chromium.open(run.runDir().resolve("llm.html")), 8);

    List<ServerSample> samples = ServerMetricsFile.read(run.llm("requests.jsonl").getParent());
    assertTrue(
        samples.stream()
            .anyMatch(
                s ->
                    s.name().equals("DCGM_FI_DEV_POWER_USAGE")
                        && "1".equals(s.labels().get("gpu"))));
    assertTrue(samples.stream().anyMatch(s -> s.name().equals("vllm:prefix_cache_hits_total")));
    assertTrue(
        samples.stream().noneMatch(s -> s.name().endsWith("_bucket")), "buckets are not kept");
  }

  @Test
  void anEndpointThatDoesNotAnswerIsSaidOnceAndTheRunGoesOn(@TempDir Path results)
      throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port + "/metrics";
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            properties(
                "conc",
                "2",
                "prompts",
                "16",
                "input.len",
                "64",
                "output.len",
                "32",
                "sim.model",
                "sim-tiny",
                "sim.gpu",
                "rtx4090",
                "metrics.interval",
                "0.2",
                "metrics.urls",
                url));
    assertEquals(0, run.exitCode(), run.console());
    assertEquals(
        1,
        run.console()
            .lines()
            .filter(l -> l.contains("cannot read metrics from " + url + " (connection refused)"))
            .count(),
        run.console());
    ServerFigureValues level =
        TestReports.summary(run.runDir()).levels().get("c2").server().level();
    assertTrue(
        level.get(CommonServerFigures.GENERATION_TOKENS) > 0,
        "the server's own figures still: " + level);
    assertTrue(
        level.has(CommonServerFigures.GPU_SM_CLOCK_MHZ_MEAN)
            && level.get(CommonServerFigures.GPU_SM_CLOCK_MHZ_MEAN) == null,
        "no DCGM clock without an exporter: " + level);
    assertTrue(
        level.get(CommonServerFigures.GPU_POWER_W_MEAN) != null,
        "the simulator's stand-in power, as no exporter answered: " + level);
  }
}
