package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.analysis.ServingMetricsCalculatorTest;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double EPS = 1e-9;

  /** The metric field names of {@code vllm bench serve --save-result}, plus ours, in order. */
  private static final List<String> METRIC_FIELDS =
      List.of(
          "duration",
          "completed",
          "failed",
          "total_input_tokens",
          "total_output_tokens",
          "request_throughput",
          "output_throughput",
          "total_token_throughput",
          "max_output_tokens_per_s",
          "max_concurrent_requests",
          "max_concurrency",
          "output_tokens_estimated_count",
          "mean_ttft_ms",
          "median_ttft_ms",
          "std_ttft_ms",
          "p99_ttft_ms",
          "p90_ttft_ms",
          "mean_tpot_ms",
          "median_tpot_ms",
          "std_tpot_ms",
          "p99_tpot_ms",
          "p90_tpot_ms",
          "mean_itl_ms",
          "median_itl_ms",
          "std_itl_ms",
          "p99_itl_ms",
          "p90_itl_ms",
          "mean_e2el_ms",
          "median_e2el_ms",
          "std_e2el_ms",
          "p99_e2el_ms",
          "p90_e2el_ms");

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    Iterator<String> it = node.fieldNames();
    it.forEachRemaining(out::add);
    return out;
  }

  @Test
  void singleLevelFieldNamesValuesAndRoundTrip(@TempDir Path dir) throws Exception {
    ServingMetrics m =
        ServingMetricsCalculator.compute(ServingMetricsCalculatorTest.handMadeRun(), 4);
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("date", SummaryJson.date(LocalDateTime.of(2025, 1, 2, 3, 4, 5)));
    meta.put("backend", "openai-chat");
    meta.put("model_id", "Qwen/Qwen3-8B");
    meta.put("base_url", "http://localhost:8000");
    meta.put("input_len", 1024);
    meta.put("completed", 999); // a metric field: the measured value wins
    Path file = dir.resolve("out/summary.json");
    SummaryJson.write(file, SummaryJson.build(meta, m));

    JsonNode root = JSON.readTree(Files.readString(file));
    List<String> expectedNames =
        new ArrayList<>(
            List.of("date", "backend", "model_id", "base_url", "input_len", "completed"));
    for (String f : METRIC_FIELDS) {
      if (!expectedNames.contains(f)) {
        expectedNames.add(f);
      }
    }
    assertEquals(expectedNames, names(root));
    assertEquals("20250102-030405", root.get("date").asText());
    assertEquals("Qwen/Qwen3-8B", root.get("model_id").asText());
    assertEquals(1024, root.get("input_len").asInt());
    assertEquals(4, root.get("completed").asInt());
    assertEquals(1, root.get("failed").asInt());
    assertEquals(3.5, root.get("duration").asDouble(), EPS);
    assertEquals(60, root.get("total_input_tokens").asLong());
    assertEquals(14, root.get("total_output_tokens").asLong());
    assertEquals(4 / 3.5, root.get("request_throughput").asDouble(), EPS);
    assertEquals(4.0, root.get("output_throughput").asDouble(), EPS);
    assertEquals(74 / 3.5, root.get("total_token_throughput").asDouble(), EPS);
    assertEquals(7.0, root.get("max_output_tokens_per_s").asDouble(), EPS);
    assertEquals(3, root.get("max_concurrent_requests").asInt());
    assertTrue(root.get("max_concurrent_requests").isIntegralNumber());
    assertEquals(4, root.get("max_concurrency").asInt());
    assertEquals(1, root.get("output_tokens_estimated_count").asInt());
    assertEquals(362.5, root.get("mean_ttft_ms").asDouble(), EPS);
    assertEquals(350.0, root.get("median_ttft_ms").asDouble(), EPS);
    assertEquals(Math.sqrt(9218.75), root.get("std_ttft_ms").asDouble(), EPS);
    assertEquals(470.0, root.get("p90_ttft_ms").asDouble(), EPS);
    assertEquals(497.0, root.get("p99_ttft_ms").asDouble(), EPS);
    assertEquals(225.0, root.get("median_tpot_ms").asDouble(), EPS);
    assertEquals(540.0, root.get("p90_itl_ms").asDouble(), EPS);
    assertEquals(1871.5, root.get("p99_e2el_ms").asDouble(), EPS);
    assertEquals(950.0, root.get("mean_e2el_ms").asDouble(), EPS);
    // doubles survive the text exactly
    assertEquals(m.itl().mean(), root.get("mean_itl_ms").asDouble(), 0.0);
    assertEquals(m.tpot().std(), root.get("std_tpot_ms").asDouble(), 0.0);
    assertFalse(root.has("levels"));
  }

  @Test
  void severalLevelsNestUnderLevelsAndOverallStaysOnTop() throws Exception {
    List<RequestRecord> all = new ArrayList<>(ServingMetricsCalculatorTest.handMadeRun());
    long t = 1_700_000_000_000L + 10_000;
    all.add(
        TestRecords.ok("c8")
            .id("s1")
            .start(t)
            .end(t + 1000)
            .ttft(100)
            .tpot(10)
            .e2el(1000)
            .itl(900.0)
            .inputTokens(5)
            .outputTokens(2)
            .build());
    Map<String, ServingMetrics> levels =
        ServingMetricsCalculator.computeByLevel(
            all, Map.of("c4", 4, "c8", 8), LatencyStats.DEFAULT_PERCENTILES);
    ServingMetrics overall =
        ServingMetricsCalculator.compute(all, null, LatencyStats.DEFAULT_PERCENTILES);
    JsonNode root =
        JSON.readTree(
            SummaryJson.toJson(SummaryJson.build(Map.of("model_id", "m"), overall, levels)));

    assertEquals("levels", names(root).get(names(root).size() - 1));
    assertEquals(5, root.get("completed").asInt()); // overall: 4 + 1
    assertTrue(root.get("max_concurrency").isNull());
    assertEquals(11.0, root.get("duration").asDouble(), EPS); // 0 .. 11000 ms
    JsonNode lv = root.get("levels");
    assertEquals(List.of("c4", "c8"), names(lv));
    assertEquals(METRIC_FIELDS, names(lv.get("c4")));
    assertEquals(4, lv.get("c4").get("completed").asInt());
    assertEquals(4, lv.get("c4").get("max_concurrency").asInt());
    assertEquals(3.5, lv.get("c4").get("duration").asDouble(), EPS);
    assertEquals(1, lv.get("c8").get("completed").asInt());
    assertEquals(8, lv.get("c8").get("max_concurrency").asInt());
    assertEquals(2.0, lv.get("c8").get("output_throughput").asDouble(), EPS); // 2 tokens / 1 s
    assertEquals(900.0, lv.get("c8").get("p99_itl_ms").asDouble(), EPS);
  }

  /** c2 fails for 12 reasons (reason i i times), c4 never: c2 lists its 10 most frequent. */
  @Test
  void eachLevelListsItsTopTenFailureReasons() throws Exception {
    List<RequestRecord> all = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (int i = 1; i <= 12; i++) {
      for (int k = 0; k < i; k++) {
        all.add(
            TestRecords.failed("c2", "HTTP 500: reason " + i)
                .id("f" + i + "-" + k)
                .start(t)
                .end(t + 10)
                .inputTokens(5)
                .status(500)
                .build());
      }
    }
    all.add(TestRecords.ok("c4").id("ok").start(t + 1000).end(t + 2000).build());
    JsonNode lv =
        JSON.readTree(
                SummaryJson.toJson(
                    RunReport.summary(
                        RunAnalysis.of(all, Map.of(), null, null, 1, "hint"), Map.of())))
            .get("levels");

    JsonNode c2 = lv.get("c2").get("failures");
    assertEquals(10, c2.size());
    for (int i = 0; i < 10; i++) {
      assertEquals(List.of("error", "count"), names(c2.get(i)));
      assertEquals("HTTP 500: reason " + (12 - i), c2.get(i).get("error").asText());
      assertEquals(12 - i, c2.get(i).get("count").asInt());
    }
    assertTrue(lv.get("c4").get("failures").isArray());
    assertEquals(0, lv.get("c4").get("failures").size());
  }

  @Test
  void extraPercentilesAreNamedLikeVllm() throws Exception {
    ServingMetrics m =
        ServingMetricsCalculator.compute(
            ServingMetricsCalculatorTest.handMadeRun(), 4, List.of(50.0, 99.9));
    JsonNode root = JSON.readTree(SummaryJson.toJson(SummaryJson.metricFields(m)));
    assertEquals(350.0, root.get("p50_ttft_ms").asDouble(), EPS);
    assertEquals(499.7, root.get("p99.9_ttft_ms").asDouble(), 1e-6); // h = 2.997
    assertTrue(root.has("p90_ttft_ms"));
    assertTrue(root.has("p99_ttft_ms"));
  }

  @Test
  void secretsNeverReachTheSummary() throws Exception {
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("temperature", 0.0);
    settings.put("OPENAI_API_KEY", "sk-nested");
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("api_key", "sk-top");
    meta.put("Authorization", "Bearer sk-top");
    meta.put("base_url", "https://user:sk-url@api.example.com/v1");
    meta.put("settings", settings);
    ServingMetrics m = ServingMetricsCalculator.compute(List.of(), null, List.of(99.0));
    String text = SummaryJson.toJson(SummaryJson.build(meta, m));
    assertFalse(text.contains("sk-"), text);
    JsonNode root = JSON.readTree(text);
    assertEquals("https://api.example.com/v1", root.get("base_url").asText());
    assertEquals(0.0, root.get("settings").get("temperature").asDouble(), 0.0);
    assertFalse(root.has("api_key"));
  }
}
