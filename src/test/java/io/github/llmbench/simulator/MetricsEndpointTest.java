package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics}: vLLM's names and types, parsed as Prometheus text, consistent with what was
 * served; prefix cache.
 */
class MetricsEndpointTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** A strict parser of the Prometheus text format 0.0.4: families (HELP, TYPE) and samples. */
  static final class PromText {
    final Map<String, String> types = new LinkedHashMap<>();
    final Map<String, Double> samples = new LinkedHashMap<>(); // "name{labels}" -> value
    private static final Pattern SAMPLE =
        Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{((?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\.)*\",?)*)\\})? (\\S+)");
    private static final Pattern LABEL =
        Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static PromText parse(String text) {
      PromText p = new PromText();
      String family = null;
      for (String line : text.split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        if (line.startsWith("# TYPE ")) {
          String[] f = line.substring(7).split(" ");
          assertEquals(2, f.length, line);
          assertTrue(
              List.of("counter", "gauge", "histogram", "summary", "untyped").contains(f[1]), line);
          assertTrue(p.types.put(f[0], f[1]) == null, "duplicate TYPE " + f[0]);
          family = f[0];
          continue;
        }
        if (line.startsWith("#")) {
          continue;
        }
        Matcher m = SAMPLE.matcher(line);
        assertTrue(m.matches(), "not a sample line: " + line);
        String name = m.group(1);
        assertTrue(
            family != null
                && (name.equals(family)
                    || name.equals(family + "_bucket")
                    || name.equals(family + "_count")
                    || name.equals(family + "_sum")),
            name + " outside its family " + family);
        Map<String, String> labels = new HashMap<>();
        if (m.group(3) != null) {
          Matcher lm = LABEL.matcher(m.group(3));
          while (lm.find()) {
            labels.put(lm.group(1), lm.group(2));
          }
        }
        String v = m.group(4);
        double d = v.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(v);
        String le = labels.get("le");
        p.samples.put(
            name + (le == null ? "" : "{le=" + le + "}") + "|" + labels.get("model_name"), d);
      }
      return p;
    }

    double value(String key, String model) {
      Double d = samples.get(key + "|" + model);
      assertTrue(d != null, "no sample " + key + " for " + model);
      return d;
    }
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertTrue(
        r.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
    return r.body();
  }

  /** Streams one completion and checks it carried {@code maxTokens} content events. */
  private static void stream(VllmSimulator sim, String prompt, int maxTokens) throws Exception {
    String body =
        "{\"model\":\""
            + sim.servedModelName()
            + "\",\"prompt\":\""
            + prompt
            + "\",\"max_tokens\":"
            + maxTokens
            + ",\"stream\":true}";
    HttpResponse<Stream<String>> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    int n = 0;
    for (String l : (Iterable<String>) r.body()::iterator) {
      if (l.startsWith("data: {")) {
        n++;
      }
    }
    assertEquals(maxTokens, n);
  }

  /** Prompt tokens the engine computed, not taken from the prefix cache, so far. */
  private static double computedPromptTokens(PromText m, String model) {
    return m.value("vllm:prompt_tokens_total", model)
        - m.value("vllm:prompt_tokens_cached_total", model);
  }

  @Test
  void metricsInVllmNamesAndTypesConsistentWithWhatWasServed_andPrefixCacheHits() throws Exception {
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("qwen2.5-0.5b-instruct"))) {
      StringBuilder p = new StringBuilder();
      for (int i = 0; i < 3000; i++) {
        p.append(i == 0 ? "" : " ").append("w").append(i * 7919 % 100_003);
      }
      stream(sim, p.toString(), 8);
      PromText before = PromText.parse(get(sim.baseUrl() + "/metrics"));
      String model = sim.servedModelName();
      double hitsBefore = before.value("vllm:prefix_cache_hits_total", model);
      double coldComputed = computedPromptTokens(before, model);
      stream(sim, p.toString(), 8);
      double warmComputed =
          computedPromptTokens(PromText.parse(get(sim.baseUrl() + "/metrics")), model)
              - coldComputed;
      stream(sim, "a different short prompt", 5);
      PromText m = PromText.parse(get(sim.baseUrl() + "/metrics"));

      Map<String, String> expected = new LinkedHashMap<>();
      expected.put("vllm:num_requests_running", "gauge");
      expected.put("vllm:num_requests_waiting", "gauge");
      expected.put("vllm:kv_cache_usage_perc", "gauge");
      expected.put("vllm:prefix_cache_queries_total", "counter");
      expected.put("vllm:prefix_cache_hits_total", "counter");
      expected.put("vllm:num_preemptions_total", "counter");
      expected.put("vllm:prompt_tokens_total", "counter");
      expected.put("vllm:generation_tokens_total", "counter");
      expected.put("vllm:time_to_first_token_seconds", "histogram");
      expected.put("vllm:inter_token_latency_seconds", "histogram");
      expected.put("vllm:e2e_request_latency_seconds", "histogram");
      expected.put("vllm:request_queue_time_seconds", "histogram");
      expected.forEach((name, type) -> assertEquals(type, m.types.get(name), name));

      assertEquals(0, m.value("vllm:num_requests_running", model));
      assertEquals(0, m.value("vllm:num_requests_waiting", model));
      assertEquals(0, m.value("vllm:kv_cache_usage_perc", model));
      assertEquals(8 + 8 + 5, m.value("vllm:generation_tokens_total", model));
      assertEquals(3, m.value("vllm:time_to_first_token_seconds_count", model));
      assertEquals(3, m.value("vllm:e2e_request_latency_seconds_count", model));
      assertEquals(3, m.value("vllm:request_queue_time_seconds_count", model));
      assertEquals(7 + 7 + 4, m.value("vllm:inter_token_latency_seconds_count", model));
      assertEquals(3, m.value("vllm:e2e_request_latency_seconds_bucket{le=+Inf}", model));
      double promptTokens = m.value("vllm:prompt_tokens_total", model);
      assertEquals(promptTokens, m.value("vllm:prefix_cache_queries_total", model));
      assertTrue(promptTokens >= 6000, "prompt tokens " + promptTokens);
      // buckets are cumulative
      double prev = 0;
      for (double le : SimMetrics.TTFT_BUCKETS) {
        double c = m.value("vllm:time_to_first_token_seconds_bucket{le=" + le + "}", model);
        assertTrue(c >= prev);
        prev = c;
      }
      // the repeated prompt: hits rise by all its full blocks but the last token's
      double hits = m.value("vllm:prefix_cache_hits_total", model);
      assertEquals(0, hitsBefore);
      assertTrue(hits >= 2990 - 16 && hits < 3000, "hits " + hits);
      // and the engine prefills only what the cache lacks, the work its TTFT is priced on (the
      // engine's own counters, not wall-clock TTFTs, which a busy machine reorders)
      assertTrue(coldComputed >= 2990, "cold request computed " + coldComputed + " prompt tokens");
      assertTrue(
          warmComputed >= 1 && warmComputed <= 16,
          "warm request computed " + warmComputed + " prompt tokens");
      assertEquals(0, m.value("vllm:num_preemptions_total", model));
    }
  }
}
