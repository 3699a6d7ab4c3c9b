package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server-control endpoints the kit calls around its levels: vLLM's profiler ({@code
 * /start_profile}, {@code /stop_profile}: 404 without a profiler dir) and prefix-cache reset
 * ({@code /reset_prefix_cache}; SGLang's {@code /flush_cache}), which really empties the cache.
 */
class ServerControlEndpointsTest {

  private static HttpResponse<String> post(SimClient c, String path) throws Exception {
    return c.http()
        .send(
            HttpRequest.newBuilder(URI.create(c.base + path))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static final String PROMPT;

  static {
    StringBuilder p = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      p.append(i == 0 ? "" : " ").append("w").append(i * 7919 % 100_003);
    }
    PROMPT = p.toString();
  }

  private static void complete(SimClient c, VllmSimulator sim) throws Exception {
    HttpResponse<String> r =
        c.post(
            "/v1/completions",
            "{\"model\":\""
                + sim.servedModelName()
                + "\",\"prompt\":\""
                + PROMPT
                + "\",\"max_tokens\":2}");
    assertEquals(200, r.statusCode(), r.body());
  }

  private static double hits(SimClient c, VllmSimulator sim) throws Exception {
    return MetricsEndpointTest.PromText.parse(c.get("/metrics").body())
        .value("vllm:prefix_cache_hits_total", sim.servedModelName());
  }

  @Test
  void theProfilerAnswers404UnlessConfiguredAsVllmWithoutAProfilerDir() throws Exception {
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny"))) {
      SimClient c = new SimClient(sim);
      assertEquals(404, post(c, "/start_profile").statusCode());
      assertEquals(404, post(c, "/stop_profile").statusCode());
      assertFalse(sim.profiling());
    }
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withProfiler(true))) {
      SimClient c = new SimClient(sim);
      assertEquals(405, c.get("/start_profile").statusCode(), "POST only");
      assertEquals(200, post(c, "/start_profile").statusCode());
      assertTrue(sim.profiling());
      assertEquals(200, post(c, "/stop_profile").statusCode());
      assertFalse(sim.profiling());
    }
    assertTrue(VllmSimulatorMain.parse(new String[] {"--profiler", "true"}).profiler());
    assertFalse(VllmSimulatorMain.parse(new String[0]).profiler());
    assertEquals(
        "--profiler: 'yes' is invalid (accepted: true or false)",
        assertThrows(
                IllegalArgumentException.class,
                () -> VllmSimulatorMain.parse(new String[] {"--profiler=yes"}))
            .getMessage());
  }

  @Test
  void resetPrefixCacheEmptiesTheCache() throws Exception {
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny"))) {
      SimClient c = new SimClient(sim);
      complete(c, sim);
      assertEquals(0, hits(c, sim));
      complete(c, sim);
      double warm = hits(c, sim);
      assertTrue(warm > 300, "the repeated prompt hits the cache: " + warm);

      assertEquals(405, c.get("/reset_prefix_cache").statusCode(), "POST only");
      assertEquals(200, post(c, "/reset_prefix_cache").statusCode());
      assertEquals(List.of(2L), sim.prefixCacheResets(), "one reset, after two requests");
      complete(c, sim);
      assertEquals(warm, hits(c, sim), "after the reset the same prompt misses");
      complete(c, sim);
      assertTrue(hits(c, sim) > warm, "and is cached again");
      assertEquals(404, post(c, "/flush_cache").statusCode(), "SGLang's");
    }
  }

  @Test
  void sglangFlushesItsCacheAndOtherServersHaveNoReset() throws Exception {
    try (VllmSimulator sim =
        VllmSimulator.start(
            SimulatorConfig.defaults().withModel("sim-tiny").withDialect(Dialect.SGLANG))) {
      SimClient c = new SimClient(sim);
      complete(c, sim);
      HttpResponse<String> r = post(c, "/flush_cache");
      assertEquals(200, r.statusCode());
      assertEquals("Cache flushed.\n", r.body());
      assertEquals(200, c.get("/flush_cache").statusCode(), "SGLang's takes GET too");
      assertEquals(List.of(1L, 1L), sim.prefixCacheResets());
      assertEquals(404, post(c, "/reset_prefix_cache").statusCode());
      assertEquals(200, post(c, "/start_profile").statusCode(), "SGLang's profiler is always on");
    }
    for (Dialect d : List.of(Dialect.LLAMACPP, Dialect.TGI, Dialect.TRTLLM)) {
      try (VllmSimulator sim =
          VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withDialect(d))) {
        SimClient c = new SimClient(sim);
        for (String path :
            List.of("/reset_prefix_cache", "/flush_cache", "/start_profile", "/stop_profile")) {
          assertEquals(404, post(c, path).statusCode(), d + " " + path);
        }
        assertEquals(List.of(), sim.prefixCacheResets());
      }
    }
  }
}
