package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dexport.prometheus} scraped during a run by a real Prometheus (Debian's package; {@code
 * .ci/run} installs it), its figures then asked of Prometheus's HTTP API and checked against the
 * run's {@code requests.jsonl}.
 */
@Tag("prometheus")
class LiveExportIT {
  @TempDir static Path dir;

  private static Process prometheus;
  private static URI api;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @BeforeAll
  static void runScrapedByPrometheus() throws Exception {
    int export = freePort();
    int web = freePort();
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        "global:\n  scrape_interval: 500ms\n  scrape_timeout: 400ms\nscrape_configs:\n"
            + "  - job_name: llmbench\n    static_configs:\n      - targets: ['127.0.0.1:"
            + export
            + "']\n");
    prometheus =
        new ProcessBuilder(
                "prometheus",
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + web)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    api = URI.create("http://127.0.0.1:" + web);
    awaitReady();
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            dir.resolve("results"),
            Map.of(
                "export.prometheus", Integer.toString(export),
                "export.hold", "3",
                "conc", "4",
                "prompts", "40",
                "input.len", "64",
                "output.len", "32",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(RunFiles.ofRun(run.runDir()).requests());
  }

  private static void awaitReady() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try {
        if (get("/-/ready").statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "Prometheus not ready: " + Files.readString(dir.resolve("prometheus.log")));
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** The last value Prometheus scraped of {@code series} (the endpoint is gone now: stale). */
  private static double last(String series) throws Exception {
    String q = "max_over_time(" + series + "[5m])";
    JsonNode r =
        new ObjectMapper()
            .readTree(
                get("/api/v1/query?query=" + URLEncoder.encode(q, StandardCharsets.UTF_8)).body());
    JsonNode result = r.path("data").path("result");
    assertEquals(1, result.size(), q + ": " + r);
    return Double.parseDouble(result.get(0).path("value").get(1).asText());
  }

  @AfterAll
  static void stopPrometheus() throws Exception {
    if (prometheus != null) {
      prometheus.destroy();
      if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void prometheusCountedEveryFinishedRequestAsTheRecordsDo() throws Exception {
    long ok = records.stream().filter(RequestRecord::ok).count();
    assertEquals(40, records.size());
    assertEquals(ok, last("llmbench_requests_total{outcome=\"ok\",level=\"c4\"}"), 0.0);
    assertEquals(
        records.size() - ok, last("llmbench_requests_total{outcome=\"failed\",level=\"c4\"}"), 0.0);
  }

  @Test
  void itsHistogramsHoldEachCompletedRequest() throws Exception {
    List<RequestRecord> ok = records.stream().filter(RequestRecord::ok).toList();
    assertEquals(ok.size(), last("llmbench_e2el_seconds_count{level=\"c4\"}"), 0.0);
    double ttftSum = ok.stream().mapToLong(RequestRecord::ttftMicros).sum() / 1e6;
    assertEquals(ttftSum, last("llmbench_ttft_seconds_sum{level=\"c4\"}"), 1e-6 * ok.size());
    long gaps = ok.stream().mapToLong(r -> r.itlMs().size()).sum();
    assertEquals(gaps, last("llmbench_itl_seconds_count{level=\"c4\"}"), 0.0);
  }

  @Test
  void theConsoleSaysWhereAndThatItHeldOpen() {
    assertTrue(run.console().contains("live figures (Prometheus text) at http://127.0.0.1:"));
    assertTrue(run.console().contains("stays open 3 s for a final scrape"), run.console());
  }
}
