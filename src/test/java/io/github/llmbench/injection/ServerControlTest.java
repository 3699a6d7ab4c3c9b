package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Level;
import io.github.llmbench.servers.ServerProfiles;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.LoadSettings;
import io.github.llmbench.settings.ServerSettings;
import io.github.llmbench.simulator.Dialect;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.ScriptedServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The kit's own calls between levels ({@link ServerControl}) and the wait for a server to be ready
 * ({@link ServerApi#awaitReady}), checked from the server's side: what it received, in order.
 */
class ServerControlTest {

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

  private String console() {
    return printed.toString(StandardCharsets.UTF_8);
  }

  private static ServerApi api(String baseUrl) {
    return new ServerApi(URI.create(baseUrl), Optional.empty());
  }

  private ServerControl control(String baseUrl, boolean profile, boolean reset) {
    return new ServerControl(
        api(baseUrl), URI.create(baseUrl), new ServerSettings.ServerCalls(0, profile, reset), out);
  }

  private static List<String> controlCalls(ScriptedServer server) {
    return server.received().stream().filter(r -> r.startsWith("POST /")).toList();
  }

  @Test
  void theProfilerStartsOnceBeforeTheFirstLevelAndStopsAfterTheLoad() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))
            .answer("POST /start_profile", 200)
            .answer("POST /stop_profile", 200)
            .answer("POST /reset_prefix_cache", 200)) {
      ServerControl c = control(server.baseUrl(), true, true);
      assertTrue(c.beforeLevels());
      c.beforeLevel(Level.closed(1));
      c.beforeLevel(Level.closed(2));
      c.afterLoad();
      c.afterLoad(); // stopped once
      assertEquals(
          List.of(
              "POST /reset_prefix_cache",
              "POST /start_profile",
              "POST /reset_prefix_cache",
              "POST /stop_profile"),
          controlCalls(server));
      String printed = console();
      assertTrue(printed.contains("prefix cache reset before c1 (POST /reset_prefix_cache)"));
      assertTrue(printed.contains("prefix cache reset before c2"), printed);
      assertTrue(printed.contains("profiling started before c1 (POST /start_profile)"), printed);
      assertTrue(printed.contains("profiling stopped after "), printed);
      assertEquals("started before c1, stopped after the load", c.notes().get("profile"));
      assertEquals("2 of 2 resets done (POST /reset_prefix_cache)", c.notes().get("cache.reset"));
    }
  }

  @Test
  void aServerWithoutTheRoutesIsSaidOnceAndNotAskedAgain() throws Exception {
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      ServerControl c = control(server.baseUrl(), true, true);
      c.beforeLevel(Level.closed(1));
      c.beforeLevel(Level.closed(2));
      c.afterLoad();
      assertEquals(
          List.of("POST /reset_prefix_cache", "POST /start_profile"),
          controlCalls(server),
          "no second reset after a 404, no stop of a profiler that never started");
      List<String> lines = console().lines().toList();
      assertEquals(2, lines.size(), console());
      assertEquals(
          "gatling-llm-bench: -Dcache.reset: the server at "
              + server.baseUrl()
              + " has no POST /reset_prefix_cache (HTTP 404; recent vLLM serves it only when"
              + " started with VLLM_SERVER_DEV_MODE=1): the levels run without a reset",
          lines.get(0));
      assertEquals(
          "gatling-llm-bench: -Dprofile: the server at "
              + server.baseUrl()
              + " has no profiler (POST /start_profile: HTTP 404): start vLLM with"
              + " --profiler-config '{\"profiler\":\"torch\",\"torch_profiler_dir\":\"/abs/dir\"}'"
              + " (before v0.13: VLLM_TORCH_PROFILER_DIR=/abs/dir); the run goes on without a"
              + " profile",
          lines.get(1));
    }
  }

  @Test
  void aFailedResetIsSaidOnceAndTriedAgainBeforeTheNextLevel() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))
            .answer("POST /reset_prefix_cache", 500)) {
      ServerControl c = control(server.baseUrl(), false, true);
      c.beforeLevel(Level.closed(1));
      c.beforeLevel(Level.closed(2));
      c.beforeLevel(Level.closed(4));
      assertEquals(3, controlCalls(server).size(), server.received().toString());
      assertEquals(
          List.of(
              "gatling-llm-bench: -Dcache.reset: POST /reset_prefix_cache before c1 failed (HTTP"
                  + " 500): that level starts with the cache as it was; later failures are not"
                  + " said again"),
          console().lines().toList());
      assertEquals("0 of 3 resets done (POST /reset_prefix_cache)", c.notes().get("cache.reset"));
    }
  }

  @Test
  void nothingIsCalledUnlessAsked() throws Exception {
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      ServerControl c = control(server.baseUrl(), false, false);
      assertFalse(c.beforeLevels());
      c.beforeLevel(Level.closed(1));
      c.afterLoad();
      assertEquals(List.of(), server.received());
      assertEquals("", console());
    }
  }

  @Test
  void severalServersEachGetTheCalls() {
    SimulatorConfig config = SimulatorConfig.defaults().withModel("sim-tiny");
    try (VllmSimulator a = VllmSimulator.start(config);
        VllmSimulator b = VllmSimulator.start(config)) {
      new ServerControl(
              List.of(api(a.baseUrl()), api(b.baseUrl())),
              List.of(URI.create(a.baseUrl()), URI.create(b.baseUrl())),
              new ServerSettings.ServerCalls(0, false, true),
              out)
          .beforeLevel(Level.closed(1));
      assertEquals(1, a.prefixCacheResets().size(), "the first server's cache");
      assertEquals(1, b.prefixCacheResets().size(), "the second server's cache");
      assertTrue(
          console()
              .contains(
                  "prefix cache reset before c1 (POST /reset_prefix_cache on each of 2 servers)"),
          console());
    }
  }

  @Test
  void sglangsCacheIsFlushedWithItsOwnRoute() {
    try (VllmSimulator sim =
        VllmSimulator.start(
            SimulatorConfig.defaults().withModel("sim-tiny").withDialect(Dialect.SGLANG))) {
      ServerApi api = api(sim.baseUrl());
      api.models(); // the kit reads them first; owned_by sglang tells the server
      assertEquals(ServerProfiles.SGLANG, api.kind());
      new ServerControl(
              api, URI.create(sim.baseUrl()), new ServerSettings.ServerCalls(0, false, true), out)
          .beforeLevel(Level.closed(1));
      assertEquals(List.of(0L), sim.prefixCacheResets());
      assertTrue(console().contains("prefix cache reset before c1 (POST /flush_cache)"), console());
    }
  }

  @Test
  void theCallsComeBeforeEachMeasuredLevelsTrialNotTheWarmupNorAProfileWithinALevel() {
    LoadSettings load =
        BenchSettings.from(
                Map.of(
                    "ladder", "1,2",
                    "duration", "5",
                    "warmup.prompts", "3",
                    "warmup.conc", "1",
                    "trials", "2"),
                Map.<String, String>of()::get)
            .load();
    List<Phase> phases = LoadPlan.of(load, List.of("SS", "LL"));
    // warmup, then per level: trial 1 (SS, LL), trial 2 (SS, LL)
    assertEquals(9, phases.size());
    List<Integer> starts =
        java.util.stream.IntStream.range(0, phases.size())
            .filter(i -> Populations.startsLevel(phases, i))
            .boxed()
            .toList();
    assertEquals(List.of(1, 3, 5, 7), starts);
  }

  /**
   * A server still loading for two polls is asked until it answers ready, and no more: its log
   * holds three polls, the last one answered with its model list ({@code /health} is not one of its
   * routes), where a bound on the wait's time failed on a busy machine. The progress line comes on
   * the second poll, at least one {@link Readiness#READY_POLL} after the first, past the 300 ms
   * between lines asked here.
   */
  @Test
  void aServerStillLoadingIsWaitedForWithProgressLines() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK)).notReadyForPolls(2)) {
      api(server.baseUrl()).awaitReady(20, out, Duration.ofMillis(300));
      assertEquals(
          List.of(
              "GET /health",
              "GET /v1/models",
              "GET /health",
              "GET /v1/models",
              "GET /health",
              "GET /v1/models"),
          server.received(),
          "asked until ready, then no more");
      String printed = console();
      assertTrue(
          printed.contains(
              "gatling-llm-bench: waiting for "
                  + server.baseUrl()
                  + " to be ready (0 s of 20): GET /health: HTTP 503, GET /v1/models: HTTP 503"),
          printed);
      assertTrue(printed.contains(server.baseUrl() + " is ready after "), printed);
    }
  }

  @Test
  void aServerNotListeningYetIsWaitedFor() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    CompletableFuture<ScriptedServer> later =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                Thread.sleep(700);
                return new ScriptedServer(List.of(ScriptedServer.Behaviour.OK), false, port);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    try {
      api("http://127.0.0.1:" + port).awaitReady(20, out, Duration.ofMillis(300));
      assertTrue(console().contains("to be ready (0 s of 20): connection refused"), console());
      assertTrue(console().contains("is ready after"), console());
    } finally {
      later.get(10, TimeUnit.SECONDS).close();
    }
  }

  /**
   * A server never ready fails the wait with one line at the timeout. Its log says the wait lasted
   * until then, counted in polls rather than in time (a bound on the wait's time failed on a busy
   * machine): it was asked again after a 503, and not beyond the polls the timeout holds (one every
   * {@link Readiness#READY_POLL}, the first at once, one more for the last milliseconds).
   */
  @Test
  void aServerNeverReadyFailsWithOneLineAtTheTimeout() throws Exception {
    int timeoutSeconds = 2;
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK)).neverReady()) {
      TargetException e =
          assertThrows(
              TargetException.class, () -> api(server.baseUrl()).awaitReady(timeoutSeconds, out));
      assertEquals(
          "The server at "
              + server.baseUrl()
              + " was not ready within 2 s (-Dready.timeout=2): GET /health: HTTP 503,"
              + " GET /v1/models: HTTP 503",
          e.getMessage());
      long polls = server.received().stream().filter("GET /health"::equals).count();
      long most = TimeUnit.SECONDS.toMillis(timeoutSeconds) / Readiness.READY_POLL.toMillis() + 2;
      assertTrue(polls >= 2 && polls <= most, polls + " polls, at most " + most);
    }
  }
}
