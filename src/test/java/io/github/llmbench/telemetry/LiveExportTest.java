package io.github.llmbench.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveExportTest {

  private static RequestRecord ok(String level, long ttftMicros, long... itlMicros) {
    return RequestRecord.builder()
        .id(level + ttftMicros)
        .level(level)
        .ok(true)
        .ttftMicros(ttftMicros)
        .tpotMicros(20_000)
        .e2elMicros(ttftMicros + 100_000)
        .itl(ItlSeries.ofMicros(itlMicros))
        .build();
  }

  @Test
  void countsByOutcomeInFlightAndCumulativeBuckets() {
    LiveMetrics m = new LiveMetrics(Map.of("model", "tiny \"q\"", "endpoint", "chat"));
    for (int i = 0; i < 4; i++) {
      m.started("c2", null);
    }
    m.finished(ok("c2", 3_000, 9_000, 30_000));
    m.finished(ok("c2", 150_000));
    m.finished(RequestRecord.builder().id("f").level("c2").error("HTTP 500").build());
    String t = m.text();
    String labels = "{level=\"c2\",endpoint=\"chat\",model=\"tiny \\\"q\\\"\"";
    assertTrue(t.contains("llmbench_requests_total" + labels + ",outcome=\"ok\"} 2\n"), t);
    assertTrue(t.contains("llmbench_requests_total" + labels + ",outcome=\"failed\"} 1\n"), t);
    assertTrue(t.contains("llmbench_requests_in_flight" + labels + "} 1\n"), t);
    assertTrue(t.contains("llmbench_ttft_seconds_bucket" + labels + ",le=\"0.005\"} 1\n"), t);
    assertTrue(t.contains("llmbench_ttft_seconds_bucket" + labels + ",le=\"0.1\"} 1\n"), t);
    assertTrue(t.contains("llmbench_ttft_seconds_bucket" + labels + ",le=\"0.25\"} 2\n"), t);
    assertTrue(t.contains("llmbench_ttft_seconds_bucket" + labels + ",le=\"+Inf\"} 2\n"), t);
    assertTrue(t.contains("llmbench_ttft_seconds_sum" + labels + "} 0.153\n"), t);
    assertTrue(
        t.contains("llmbench_itl_seconds_count" + labels + "} 2\n"), "one per chunk gap: " + t);
    assertTrue(t.contains("# TYPE llmbench_e2el_seconds histogram\n"), t);
    assertTrue(t.contains("llmbench_level_info" + labels + "} 1\n"), t);
  }

  @Test
  void eachLevelRunInTrialsShowsItsTrialAndTheClientItsHealth() {
    LiveMetrics m = new LiveMetrics(Map.of("model", "tiny", "endpoint", "chat"));
    int trial = 3;
    RequestOrigin inTrial =
        new RequestOrigin(
            RequestOrigin.Workload.NONE,
            new RequestOrigin.Sending(-1, trial, RequestRecord.ABSENT));
    m.started("c1", null);
    m.finished(ok("c1", 3_000));
    String before = m.text();
    assertFalse(before.contains("llmbench_trial_info{"), "no trials yet: " + before);
    assertFalse(before.contains("llmbench_client_"), "no probe sample yet: " + before);
    m.started("c2", inTrial);
    m.finished(ok("c2", 3_000).toBuilder().origin(inTrial).build());
    ClientSample sample = LatestClientHealthTest.sample(new long[] {20, 5_000}, new int[] {98, 2});
    m.clientSample(sample);
    String t = m.text();
    assertTrue(
        t.contains(
            "llmbench_trial_info{level=\"c2\",endpoint=\"chat\",model=\"tiny\",trial=\""
                + trial
                + "\"} 1\n"),
        t);
    LatestClientHealth health = LatestClientHealth.of(sample);
    assertTrue(
        t.contains(
            "llmbench_client_loop_lag_seconds{endpoint=\"chat\",model=\"tiny\"} "
                + health.loopLagP99Seconds()
                + "\n"),
        t);
    assertTrue(
        t.contains(
            "llmbench_client_cpu_ratio{endpoint=\"chat\",model=\"tiny\"} "
                + health.cpuRatio()
                + "\n"),
        t);
    assertTrue(t.contains("# TYPE llmbench_client_cpu_ratio gauge\n"), t);
  }

  @Test
  void theEndpointServesTheTextAndSaysItHolds() throws Exception {
    LiveMetrics m = new LiveMetrics(Map.of());
    m.started("c1", null);
    LiveExport e = LiveExport.start(new InetSocketAddress("127.0.0.1", 0), m);
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(e.url()).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertEquals(LiveExport.CONTENT_TYPE, r.headers().firstValue("content-type").orElse(""));
    assertTrue(r.body().contains("llmbench_requests_in_flight{level=\"c1\"} 1\n"), r.body());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    e.closeAfter(0, new PrintStream(out, true, StandardCharsets.UTF_8));
  }
}
