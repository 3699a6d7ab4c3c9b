package io.github.llmbench.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.analysis.ServingMetricsCalculatorTest;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.AbFixtures;
import io.github.llmbench.testing.TestRecords;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {

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
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  private static RunInfo info() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("date", RunInfo.date(LocalDateTime.of(2025, 1, 2, 3, 4, 5)));
    m.put("backend", "openai-chat");
    m.put("model_id", "Qwen/Qwen3-8B");
    m.put("base_url", "http://localhost:8000");
    m.put("input_len", 1024);
    return TestReports.info(m);
  }

  @Test
  void topLevelFieldsAreVllmsNamesValuesAndOrderAndReadBackTyped(@TempDir Path dir)
      throws Exception {
    ServingMetrics m =
        ServingMetricsCalculator.compute(ServingMetricsCalculatorTest.handMadeRun(), 4);
    Summary s = new Summary(info(), ServingFigures.of(m), Map.of(), null, null, null, null, null);
    Path file = dir.resolve("out/summary.json");
    s.write(file);

    JsonNode root = JSON.readTree(Files.readString(file));
    List<String> expected =
        new ArrayList<>(List.of("date", "backend", "model_id", "base_url", "input_len"));
    expected.addAll(METRIC_FIELDS);
    assertEquals(expected, names(root));
    assertEquals("20250102-030405", root.get("date").asText());
    assertEquals(4, root.get("completed").asInt());
    assertEquals(1, root.get("failed").asInt());
    assertEquals(3.5, root.get("duration").asDouble(), EPS);
    assertEquals(60, root.get("total_input_tokens").asLong());
    assertEquals(14, root.get("total_output_tokens").asLong());
    assertEquals(4 / 3.5, root.get("request_throughput").asDouble(), EPS);
    assertEquals(74 / 3.5, root.get("total_token_throughput").asDouble(), EPS);
    assertEquals(7.0, root.get("max_output_tokens_per_s").asDouble(), EPS);
    assertTrue(root.get("max_concurrent_requests").isIntegralNumber());
    assertEquals(4, root.get("max_concurrency").asInt());
    assertEquals(362.5, root.get("mean_ttft_ms").asDouble(), EPS);
    assertEquals(Math.sqrt(9218.75), root.get("std_ttft_ms").asDouble(), EPS);
    assertEquals(497.0, root.get("p99_ttft_ms").asDouble(), EPS);
    assertEquals(540.0, root.get("p90_itl_ms").asDouble(), EPS);
    assertFalse(root.has("levels"), "no levels: none given");

    Summary read = Summary.read(file);
    assertEquals(s, read, "every field read back as written");
    assertEquals("Qwen/Qwen3-8B", read.run().modelId());
    assertEquals(1024, read.run().inputLen());
    assertEquals(m.tpot().std(), read.overall().latency().get("std_tpot_ms"), 0.0);
    assertEquals(
        1871.5, read.overall().latency(new LatencyFigure(Metric.E2EL, Statistic.P99)), EPS);
    assertEquals(List.of("c4"), List.copyOf(read.measuredLevels().keySet()), "c<max_concurrency>");
  }

  @Test
  void severalLevelsNestUnderLevelsWithTheirBlocksAndTheOverallStaysOnTop() throws Exception {
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
    RunAnalysis a =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(all)
                .concurrencyByLevel(Map.of("c4", 4, "c8", 8))
                .rooflineHint("hint")
                .build());
    Summary s = Summary.of(a, TestReports.info(Map.of("model_id", "m")));
    JsonNode root = JSON.readTree(s.toJson());

    List<String> top = names(root);
    assertEquals(METRIC_FIELDS, top.subList(1, 1 + METRIC_FIELDS.size()), "after model_id");
    assertEquals(
        List.of("levels", "knee", "report_inputs"),
        top.subList(1 + METRIC_FIELDS.size(), top.size()));
    assertEquals(5, root.get("completed").asInt()); // overall: 4 + 1
    assertTrue(root.get("max_concurrency").isNull());
    assertEquals(11.0, root.get("duration").asDouble(), EPS); // 0 .. 11000 ms
    JsonNode lv = root.get("levels");
    assertEquals(List.of("c4", "c8"), names(lv));
    List<String> c4 = names(lv.get("c4"));
    assertEquals(METRIC_FIELDS, c4.subList(0, METRIC_FIELDS.size()));
    assertEquals(
        // the hand-made records carry more tokens than chunks: their tokens per chunk are there
        List.of("steady_state", "roofline", "failures", "intervals", "chunks", "delivered_load"),
        c4.subList(METRIC_FIELDS.size(), c4.size()));
    assertEquals(8, lv.get("c8").get("max_concurrency").asInt());
    assertEquals(2.0, lv.get("c8").get("output_throughput").asDouble(), EPS); // 2 tokens / 1 s
    assertTrue(lv.get("c8").get("roofline").get("skipped").asText().contains("hint"));

    Summary read = Summary.parse(s.toJson());
    assertEquals(s, read);
    assertEquals(
        900.0,
        read.levels().get("c8").figures().latency(new LatencyFigure(Metric.ITL, Statistic.P99)),
        EPS);
    assertEquals(a.knee().basis(), read.knee().throughputBasis());
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
    Summary s =
        Summary.of(
            RunAnalysis.of(RunAnalysis.Inputs.builder(all).rooflineHint("hint").build()),
            RunInfo.NONE);
    JsonNode lv = JSON.readTree(s.toJson()).get("levels");

    JsonNode c2 = lv.get("c2").get("failures");
    assertEquals(10, c2.size());
    for (int i = 0; i < 10; i++) {
      assertEquals(List.of("error", "count"), names(c2.get(i)));
      assertEquals("HTTP 500: reason " + (12 - i), c2.get(i).get("error").asText());
      assertEquals(12 - i, c2.get(i).get("count").asInt());
    }
    assertTrue(lv.get("c4").get("failures").isArray());
    assertEquals(0, lv.get("c4").get("failures").size());
    // c2 has no completed request: its latencies read 0, as vLLM writes them
    Summary read = Summary.parse(s.toJson());
    LatencyFigure p99 = new LatencyFigure(Metric.TTFT, Statistic.P99);
    assertEquals(0.0, read.levels().get("c2").figures().latency(p99));
    assertEquals(12, read.levels().get("c2").failures().get(0).count());
  }

  @Test
  void extraPercentilesAreNamedLikeVllm() throws Exception {
    ServingMetrics m =
        ServingMetricsCalculator.compute(
            ServingMetricsCalculatorTest.handMadeRun(), 4, List.of(50.0, 99.9));
    JsonNode root = JSON.readTree(JSON.writeValueAsString(ServingFigures.of(m)));
    assertEquals(350.0, root.get("p50_ttft_ms").asDouble(), EPS);
    assertEquals(499.7, root.get("p99.9_ttft_ms").asDouble(), 1e-6); // h = 2.997
    assertTrue(root.has("p90_ttft_ms"));
    assertTrue(root.has("p99_ttft_ms"));
    assertEquals(
        499.7,
        JSON.readValue(root.toString(), ServingFigures.class).latency().get("p99.9_ttft_ms"),
        1e-6);
  }

  @Test
  void secretsNeverReachTheSummary() throws Exception {
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("temperature", "0.0");
    settings.put("OPENAI_API_KEY", "sk-nested");
    settings.put("metrics.url", "https://u:sk-metrics@gpu.example.com/metrics");
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("api_key", "sk-top");
    meta.put("base_url", "https://user:sk-url@api.example.com/v1");
    meta.put("settings", settings);
    meta.put("server_checks", Map.of("authorization", "Bearer sk-check"));
    ServingMetrics m = ServingMetricsCalculator.compute(List.of(), null, List.of(99.0));
    String text =
        new Summary(
                TestReports.info(meta),
                ServingFigures.of(m),
                Map.of(),
                null,
                null,
                null,
                null,
                null)
            .toJson();
    assertFalse(text.contains("sk-"), text);
    JsonNode root = JSON.readTree(text);
    assertEquals("https://api.example.com/v1", root.get("base_url").asText());
    assertEquals("0.0", root.get("settings").get("temperature").asText());
    assertEquals(
        "https://gpu.example.com/metrics", root.get("settings").get("metrics.url").asText());
  }

  @Test
  void readsVllmsOwnResultFileAndRefusesOtherJson() throws Exception {
    String vllm =
        """
        {"date": "20250101-120000", "backend": "vllm", "model_id": "Qwen/Qwen3-8B",
         "tokenizer_id": "Qwen/Qwen3-8B", "num_prompts": 100, "request_rate": "inf",
         "burstiness": 1.0, "max_concurrency": null, "duration": 12.5, "completed": 100,
         "total_input_tokens": 102400, "total_output_tokens": 12800, "request_throughput": 8.0,
         "output_throughput": 1024.0, "total_token_throughput": 9216.0, "mean_ttft_ms": 120.5,
         "p99_tpot_ms": 31.0, "input_lens": [1024, 1024], "ttfts": [0.1, 0.2], "itls": [[0.03]],
         "generated_texts": ["a", "b"], "errors": ["", ""]}
        """;
    Summary s = Summary.parse(vllm);
    assertEquals("Qwen/Qwen3-8B", s.run().modelId());
    assertNull(s.overall().maxConcurrency());
    assertEquals(List.of("all"), List.copyOf(s.measuredLevels().keySet()));
    LevelSummary all = s.measuredLevels().get("all");
    assertEquals(1024.0, all.figures().outputThroughput(), 0.0);
    assertEquals(31.0, all.figures().latency(new LatencyFigure(Metric.TPOT, Statistic.P99)), 0.0);
    assertTrue(Double.isNaN(all.steadyOutputThroughput()), "vLLM has no steady window");

    assertThrows(Summary.NotASummary.class, () -> Summary.parse("{\"gates\": {\"tpot.p99\": 3}}"));
    assertThrows(Summary.NotASummary.class, () -> Summary.parse("[1, 2]"));
  }

  /** An A/B run's answer, as the root writes it: two pairs, one gate that failed at the second. */
  static AbFigures abFigures() {
    return AbFixtures.twoPairsFailed("m2");
  }

  @Test
  void anAbRunsAnswerIsWrittenUnderAbAndReadBackTyped(@TempDir Path dir) throws Exception {
    ServingMetrics m =
        ServingMetricsCalculator.compute(ServingMetricsCalculatorTest.handMadeRun(), 4);
    Summary s =
        new Summary(
            info().withAb(abFigures()),
            ServingFigures.of(m),
            Map.of(),
            null,
            null,
            null,
            null,
            null);
    Path file = dir.resolve("summary.json");
    s.write(file);
    JsonNode ab = JSON.readTree(Files.readString(file)).get("ab");
    assertEquals("http://b:8000", ab.get("candidate_url").asText());
    assertEquals("B", ab.get("pairs").get(0).get("first").asText());
    JsonNode gate = ab.get("gates").get(0);
    assertEquals(0.42, gate.get("log_ratios").get(1).asDouble());
    assertFalse(gate.get("looks").get(0).has("fail_at"), "no line before the first look");
    assertEquals(1.2, gate.get("looks").get(1).get("fail_at").asDouble());
    assertEquals(abFigures(), Summary.read(file).run().ab());
    assertNull(Summary.parse(Files.readString(file).replace("\"ab\"", "\"x\"")).run().ab());
  }
}
