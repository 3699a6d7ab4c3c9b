package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ServerSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ServerFiguresTest {
  private static final String MODEL = "Qwen/Qwen2.5-7B-Instruct";
  private static final String URL = "http://127.0.0.1:8000/metrics";
  private static final String DCGM = "http://127.0.0.1:9400/metrics";

  private static ServerSample vllm(long t, String name, double v) {
    return new ServerSample(t, URL, name, Map.of("engine", "0", "model_name", MODEL), v);
  }

  private static ServerSample gpu(long t, String name, int gpu, double v) {
    return new ServerSample(
        t, DCGM, name, Map.of("gpu", String.valueOf(gpu), "modelName", "NVIDIA H100 80GB HBM3"), v);
  }

  /**
   * Scrapes every second from -1 s to 11 s; the level runs from 0 to 10 s, its steady window 2-8 s.
   */
  private static List<ServerSample> run(boolean throttle) {
    List<ServerSample> s = new ArrayList<>();
    for (long sec = -1; sec <= 11; sec++) {
      long t = sec * 1000;
      boolean busy = sec >= 0 && sec <= 10;
      s.add(vllm(t, "vllm:num_requests_running", busy ? 8 : 0));
      s.add(vllm(t, "vllm:num_requests_waiting", sec == 5 ? 3 : 0));
      s.add(vllm(t, "vllm:kv_cache_usage_perc", busy ? 0.25 : 0));
      long done = Math.max(0, Math.min(sec, 10)); // seconds of traffic so far
      s.add(vllm(t, "vllm:prompt_tokens_total", 1000 * done));
      s.add(vllm(t, "vllm:generation_tokens_total", 100 * done));
      s.add(vllm(t, "vllm:prefix_cache_queries_total", 1000 * done));
      s.add(vllm(t, "vllm:prefix_cache_hits_total", 900 * done));
      s.add(vllm(t, "vllm:num_preemptions_total", sec >= 6 ? 2 : 0));
      s.add(vllm(t, "vllm:time_to_first_token_seconds_sum", 0.05 * done));
      s.add(vllm(t, "vllm:time_to_first_token_seconds_count", done));
      // another model behind the same URL: left out
      s.add(
          new ServerSample(
              t, URL, "vllm:num_requests_running", Map.of("model_name", "other"), 100));
      for (int g = 0; g < 2; g++) {
        s.add(gpu(t, "DCGM_FI_DEV_POWER_USAGE", g, g == 0 ? 600 : 500));
        s.add(gpu(t, "DCGM_FI_DEV_SM_CLOCK", g, throttle && sec >= 7 ? 1500 : 1980));
      }
    }
    return s;
  }

  @Test
  void gaugesCountersHistogramsAndGpusOverTheLevelAndItsSteadyWindow() {
    ServerFigures f =
        ServerFigures.of(
            ServerFigures.Series.of(run(false), MODEL), "c8", 0, 10_000, 2_000, 8_000, 1000);
    ServerFigureValues l = f.level();
    assertEquals(
        8.0, l.get(CommonServerFigures.RUNNING_MEAN), 1e-9, "the other model's 100 is left out");
    assertEquals(3.0, l.get(CommonServerFigures.WAITING_MAX), 1e-9);
    assertEquals(0.25, l.get(CommonServerFigures.KV_CACHE_USAGE_MAX), 1e-9);
    assertEquals(10_000.0, l.get(CommonServerFigures.PROMPT_TOKENS), 1e-9);
    assertEquals(1000.0, l.get(CommonServerFigures.GENERATION_TOKENS), 1e-9);
    assertEquals(100.0, l.get(CommonServerFigures.GENERATION_TOKENS_PER_S), 1e-9);
    assertEquals(0.9, l.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE), 1e-9);
    assertEquals(2.0, l.get(CommonServerFigures.PREEMPTIONS), 1e-9);
    assertEquals(50.0, l.get(CommonServerFigures.TTFT_MEAN_MS), 1e-9);
    assertNull(l.get(CommonServerFigures.ITL_MEAN_MS), "not reported: null, never 0");
    assertEquals(550.0, l.get(CommonServerFigures.GPU_POWER_W_MEAN), 1e-9, "per GPU");
    assertNull(l.get(CommonServerFigures.GPU_UTIL_MEAN));
    assertEquals(6000.0, f.steady().get(CommonServerFigures.PROMPT_TOKENS), 1e-9);
    assertEquals(3.0, f.steady().get(CommonServerFigures.WAITING_MAX), 1e-9);

    List<String> g = f.guards();
    assertEquals(3, g.size(), g.toString());
    assertTrue(
        g.get(0)
            .startsWith(
                "prefix cache served 90% of prompt tokens at c8: prefill was not measured (from"
                    + " vllm:prefix_cache_hits/queries"),
        g.get(0));
    assertTrue(
        g.get(1)
            .startsWith(
                "requests waited in the server's queue inside the steady window at c8 (up to 3)"),
        g.get(1));
    assertTrue(g.get(2).startsWith("the server preempted 2 requests at c8"), g.get(2));
  }

  @Test
  void aTokenMismatchAndAThrottledClockAreGuarded() {
    ServerFigures f =
        ServerFigures.of(ServerFigures.Series.of(run(true), MODEL), "c8", 0, 10_000, 0, 0, 800);
    assertTrue(f.steady().isEmpty(), "no steady window");
    assertTrue(
        f.guards().stream()
            .anyMatch(
                x ->
                    x.equals(
                        "the server generated 1000 tokens at c8, the client received 800 (+25%): other traffic on the server, or a second replica")),
        f.guards().toString());
    assertTrue(
        f.guards().stream()
            .anyMatch(
                x ->
                    x.startsWith(
                        "GPU SM clock fell 24% below its first value at c8 (1980 -> 1500 MHz)")),
        f.guards().toString());
  }

  @Test
  void countersNeedAScrapeOnEachSideAndCountFromZeroAfterAReset() {
    TreeMap<Long, Double> c = new TreeMap<>(Map.of(1000L, 5.0, 2000L, 9.0));
    assertEquals(4.0, ServerFigures.delta(c, 1000, 2000));
    assertEquals(4.0, ServerFigures.delta(c, 0, 3000), "the nearest scrapes inside stand in");
    assertNull(
        ServerFigures.delta(new TreeMap<>(Map.of(1000L, 5.0)), 0, 3000),
        "one scrape: no difference");
    assertEquals(
        1.0,
        ServerFigures.delta(new TreeMap<>(Map.of(1000L, 5.0, 2000L, 1.0)), 1000, 2000),
        "a reset: the counter started again from 0 (a restarted server)");
    // 10 -> 20, restarted, 0 -> 3 -> 8: 10 + 3 + 5, not 8 - 10 (nor 8 - 10 turned positive)
    TreeMap<Long, Double> restarted =
        new TreeMap<>(Map.of(0L, 10.0, 1000L, 20.0, 2000L, 3.0, 3000L, 8.0));
    assertEquals(18.0, ServerFigures.delta(restarted, 0, 3000));
    // a restart that leaves the counter above where the window began still counts from 0
    TreeMap<Long, Double> past =
        new TreeMap<>(Map.of(0L, 2.0, 1000L, 30.0, 2000L, 4.0, 3000L, 12.0));
    assertEquals(40.0, ServerFigures.delta(past, 0, 3000), "28 + 4 + 8, not 12 - 2");
    assertTrue(
        ServerFigures.of(ServerFigures.Series.of(List.of(), MODEL), "c1", 0, 1, 0, 0, 1).isEmpty());
  }

  @Test
  void llamaCppNamesAreMapped() {
    List<ServerSample> s = new ArrayList<>();
    for (long sec = 0; sec <= 4; sec++) {
      s.add(new ServerSample(sec * 1000, URL, "llamacpp:requests_processing", Map.of(), 2));
      s.add(new ServerSample(sec * 1000, URL, "llamacpp:requests_deferred", Map.of(), 0));
      s.add(
          new ServerSample(sec * 1000, URL, "llamacpp:prompt_tokens_total", Map.of(), 50.0 * sec));
      s.add(
          new ServerSample(
              sec * 1000, URL, "llamacpp:tokens_predicted_total", Map.of(), 20.0 * sec));
    }
    ServerFigures f = ServerFigures.of(ServerFigures.Series.of(s, "tiny"), "c2", 0, 4000, 0, 0, 80);
    assertEquals(2.0, f.level().get(CommonServerFigures.RUNNING_MEAN), 1e-9);
    assertEquals(0.0, f.level().get(CommonServerFigures.WAITING_MAX), 1e-9);
    assertEquals(200.0, f.level().get(CommonServerFigures.PROMPT_TOKENS), 1e-9);
    assertEquals(80.0, f.level().get(CommonServerFigures.GENERATION_TOKENS), 1e-9);
    assertNull(f.level().get(CommonServerFigures.PREFIX_CACHE_HIT_RATE));
    assertTrue(f.guards().isEmpty(), f.guards().toString());
  }

  /** One server's samples: its name's family over a level from 0 to 10 s, scraped every second. */
  private static List<ServerSample> family(
      Map<String, Double> perSecond, Map<String, Double> gauges) {
    List<ServerSample> s = new ArrayList<>();
    for (long sec = -1; sec <= 11; sec++) {
      long done = Math.max(0, Math.min(sec, 10));
      for (var e : perSecond.entrySet()) {
        s.add(new ServerSample(sec * 1000, URL, e.getKey(), Map.of(), e.getValue() * done));
      }
      for (var e : gauges.entrySet()) {
        s.add(new ServerSample(sec * 1000, URL, e.getKey(), Map.of(), e.getValue()));
      }
    }
    return s;
  }

  private static ServerFigureValues level(List<ServerSample> samples) {
    return ServerFigures.of(ServerFigures.Series.of(samples, MODEL), "c8", 0, 10_000, 0, 0, 1000)
        .level();
  }

  @Test
  void sglangTgiAndTrtllmFamiliesGiveTheSameFigures() {
    ServerFigureValues sglang =
        level(
            family(
                Map.of(
                    "sglang:prompt_tokens_total", 1000.0,
                    "sglang:generation_tokens_total", 100.0,
                    "sglang:cached_tokens_total", 250.0,
                    "sglang:time_to_first_token_seconds_sum", 0.05,
                    "sglang:time_to_first_token_seconds_count", 1.0),
                Map.of(
                    "sglang:num_running_reqs", 8.0,
                    "sglang:num_queue_reqs", 2.0,
                    "sglang:token_usage", 0.4)));
    assertEquals(8.0, sglang.get(CommonServerFigures.RUNNING_MEAN), 1e-9);
    assertEquals(2.0, sglang.get(CommonServerFigures.WAITING_MAX), 1e-9);
    assertEquals(0.4, sglang.get(CommonServerFigures.KV_CACHE_USAGE_MEAN), 1e-9);
    assertEquals(
        10_000.0,
        sglang.get(CommonServerFigures.PROMPT_TOKENS),
        1e-9,
        "cached tokens are inside it");
    assertEquals(0.25, sglang.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE), 1e-9);
    assertEquals(1000.0, sglang.get(CommonServerFigures.GENERATION_TOKENS), 1e-9);
    assertEquals(50.0, sglang.get(CommonServerFigures.TTFT_MEAN_MS), 1e-9);

    ServerFigureValues tgi =
        level(
            family(
                Map.of(
                    "tgi_request_input_length_sum", 1000.0,
                    "tgi_request_generated_tokens_sum", 100.0,
                    "tgi_request_mean_time_per_token_duration_sum", 0.02,
                    "tgi_request_mean_time_per_token_duration_count", 1.0),
                Map.of("tgi_batch_current_size", 6.0, "tgi_queue_size", 1.0)));
    assertEquals(6.0, tgi.get(CommonServerFigures.RUNNING_MEAN), 1e-9);
    assertEquals(1.0, tgi.get(CommonServerFigures.WAITING_MEAN), 1e-9);
    assertEquals(10_000.0, tgi.get(CommonServerFigures.PROMPT_TOKENS), 1e-9);
    assertEquals(1000.0, tgi.get(CommonServerFigures.GENERATION_TOKENS), 1e-9);
    assertEquals(20.0, tgi.get(CommonServerFigures.ITL_MEAN_MS), 1e-9);
    assertNull(tgi.get(CommonServerFigures.KV_CACHE_USAGE_MEAN), "TGI has no KV gauge");

    ServerFigureValues trtllm =
        level(
            family(
                Map.of(
                    "trtllm_prompt_tokens_total", 1000.0,
                    "trtllm_generation_tokens_total", 100.0,
                    "trtllm_prompt_cached_tokens_total", 100.0),
                Map.of("trtllm_num_requests_running", 4.0, "trtllm_kv_cache_utilization", 0.5)));
    assertEquals(4.0, trtllm.get(CommonServerFigures.RUNNING_MEAN), 1e-9);
    assertEquals(0.5, trtllm.get(CommonServerFigures.KV_CACHE_USAGE_MAX), 1e-9);
    assertEquals(0.1, trtllm.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE), 1e-9);
  }

  @Test
  void kvUsageIsAveragedOverEnginesAndCachedPromptTokensWinOverTheQueryCounters() {
    List<ServerSample> s = new ArrayList<>();
    for (long sec = -1; sec <= 11; sec++) {
      long t = sec * 1000;
      long done = Math.max(0, Math.min(sec, 10));
      for (int engine = 0; engine < 2; engine++) {
        Map<String, String> l = Map.of("engine", String.valueOf(engine), "model_name", MODEL);
        s.add(new ServerSample(t, URL, "vllm:kv_cache_usage_perc", l, engine == 0 ? 0.8 : 0.6));
        s.add(new ServerSample(t, URL, "vllm:num_requests_running", l, 4));
        s.add(new ServerSample(t, URL, "vllm:prompt_tokens_total", l, 500.0 * done));
        s.add(new ServerSample(t, URL, "vllm:prompt_tokens_cached_total", l, 50.0 * done));
        // counted again for each retry while the KV cache is full
        s.add(new ServerSample(t, URL, "vllm:prefix_cache_queries_total", l, 2000.0 * done));
        s.add(new ServerSample(t, URL, "vllm:prefix_cache_hits_total", l, 1500.0 * done));
      }
    }
    ServerFigureValues l = level(s);
    assertEquals(
        0.7, l.get(CommonServerFigures.KV_CACHE_USAGE_MEAN), 1e-9, "a ratio per engine: averaged");
    assertEquals(8.0, l.get(CommonServerFigures.RUNNING_MEAN), 1e-9, "counts per engine: added");
    assertEquals(
        0.1,
        l.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE),
        1e-9,
        "prompt_tokens_cached / prompt_tokens");

    List<ServerSample> countersOnly =
        s.stream().filter(x -> !x.name().equals("vllm:prompt_tokens_cached_total")).toList();
    ServerFigures f =
        ServerFigures.of(ServerFigures.Series.of(countersOnly, MODEL), "c8", 0, 10_000, 0, 0, 1000);
    assertEquals(0.75, f.level().get(CommonServerFigures.PREFIX_CACHE_HIT_RATE), 1e-9);
    assertTrue(
        f.guards().stream().anyMatch(g -> g.contains("with a full KV cache the rate reads high")),
        f.guards().toString());
  }
}
