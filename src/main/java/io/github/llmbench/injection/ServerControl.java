package io.github.llmbench.injection;

import io.github.llmbench.core.Level;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.ServerSettings;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The kit's own calls to the server between levels, as {@code vllm bench serve}'s switches: its
 * prefix cache emptied before each measured level ({@code -Dcache.reset}: vLLM's {@code POST
 * /reset_prefix_cache}, SGLang's {@code POST /flush_cache}) and its torch profiler started before
 * the first ({@code -Dprofile}: {@code POST /start_profile}) and stopped after the load ({@code
 * POST /stop_profile}). A server that refuses is said once, in one line, and the run goes on: as
 * {@code vllm bench serve --profile}, whose run goes on when the server has no profiler.
 */
public final class ServerControl {
  /** vLLM starts its profiler at once, and resets its prefix cache at once. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  /**
   * vLLM writes its traces when the profiler stops, which its docs say takes ~10 minutes for 100
   * requests of a 70B model ({@code vllm bench serve} waits up to 6 hours).
   */
  static final Duration STOP_TIMEOUT = Duration.ofMinutes(30);

  private static final String PREFIX = "gatling-llm-bench: ";

  /** The servers, the first the one whose kind names the calls' paths. */
  private final List<ServerApi> apis;

  private final List<URI> baseUrls;

  /** The servers whose profiler started, to stop after the load. */
  private final List<Integer> profiled = new ArrayList<>();

  private final ServerSettings.ServerCalls calls;
  private final PrintStream out;

  private boolean profileAsked;
  private boolean profiling;
  private boolean resetRefused;
  private boolean resetFailureSaid;
  private int resets;
  private int resetsAsked;
  private final Map<String, String> notes = new LinkedHashMap<>();

  public ServerControl(
      ServerApi api, URI baseUrl, ServerSettings.ServerCalls calls, PrintStream out) {
    this(List.of(api), List.of(baseUrl), calls, out);
  }

  /** The calls to each of several servers sent to in turn ({@code -Dbase.url=U1,U2}). */
  ServerControl(
      List<ServerApi> apis, List<URI> baseUrls, ServerSettings.ServerCalls calls, PrintStream out) {
    this.apis = List.copyOf(apis);
    this.baseUrls = List.copyOf(baseUrls);
    this.calls = calls;
    this.out = out;
  }

  /** The run's calls, to each of the run's servers. */
  public static ServerControl of(Target target, BenchSettings settings, PrintStream out) {
    return new ServerControl(target.apis(), target.baseUrls(), settings.server().calls(), out);
  }

  /**
   * How a call went to several servers: {@code ""} for one, else {@code " on each of 2 servers"}.
   */
  private String onEach() {
    return apis.size() > 1 ? " on each of " + apis.size() + " servers" : "";
  }

  /** Whether anything is called before a level: the load then runs this before each. */
  public boolean beforeLevels() {
    return calls.beforeLevels();
  }

  /**
   * Before a measured level (each trial, each probe of a search) starts, when the one before has
   * drained: the prefix cache's reset, then, the first time, the profiler's start (so the profile
   * holds the measured load only, not the reset).
   */
  public synchronized void beforeLevel(Level level) {
    if (calls.cacheReset() && !resetRefused) {
      resetCache(level);
    }
    if (calls.profile() && !profileAsked) {
      profileAsked = true;
      startProfile(level);
    }
  }

  private void resetCache(Level level) {
    String path = apis.get(0).kind().prefixCacheReset().orElse("/reset_prefix_cache");
    resetsAsked++;
    ServerApi.Answer a = null;
    URI baseUrl = null;
    for (int i = 0; i < apis.size() && (a == null || a.ok()); i++) {
      a = apis.get(i).post(path, CALL_TIMEOUT);
      baseUrl = baseUrls.get(i);
    }
    if (a.ok()) {
      resets++;
      out.println(
          PREFIX + "prefix cache reset before " + level.tag() + " (POST " + path + onEach() + ")");
    } else if (a.status() == 404 || a.status() == 405) {
      resetRefused = true; // the server has no such route: asking again before each level is noise
      out.println(
          PREFIX
              + "-Dcache.reset: the server at "
              + baseUrl
              + " has no POST "
              + path
              + " ("
              + a.describe()
              + (path.equals("/reset_prefix_cache")
                  ? "; recent vLLM serves it only when started with VLLM_SERVER_DEV_MODE=1"
                  : "")
              + "): the levels run without a reset");
    } else if (!resetFailureSaid) {
      resetFailureSaid = true;
      out.println(
          PREFIX
              + "-Dcache.reset: POST "
              + path
              + " before "
              + level.tag()
              + " failed ("
              + a.describe()
              + "): that level starts with the cache as it was; later failures are not said again");
    }
    notes.put("cache.reset", resets + " of " + resetsAsked + " resets done (POST " + path + ")");
  }

  private void startProfile(Level level) {
    ServerApi.Answer a = null;
    URI baseUrl = null;
    for (int i = 0; i < apis.size(); i++) {
      ServerApi.Answer answer = apis.get(i).post("/start_profile", CALL_TIMEOUT);
      if (answer.ok()) {
        profiled.add(i);
      }
      if (a == null || a.ok()) { // the first refusal is the one said
        a = answer;
        baseUrl = baseUrls.get(i);
      }
    }
    profiling = !profiled.isEmpty();
    if (a.ok()) {
      out.println(
          PREFIX
              + "profiling started before "
              + level.tag()
              + " (POST /start_profile"
              + onEach()
              + "); it stops after the last level");
      notes.put("profile", "started before " + level.tag());
    } else if (a.status() == 404) {
      out.println(
          PREFIX
              + "-Dprofile: the server at "
              + baseUrl
              + " has no profiler (POST /start_profile: HTTP 404): start vLLM with"
              + " --profiler-config '{\"profiler\":\"torch\",\"torch_profiler_dir\":\"/abs/dir\"}'"
              + " (before v0.13: VLLM_TORCH_PROFILER_DIR=/abs/dir); the run goes on without a"
              + " profile");
      notes.put("profile", "none: POST /start_profile answered HTTP 404");
    } else {
      out.println(
          PREFIX
              + "-Dprofile: POST /start_profile failed ("
              + a.describe()
              + "): the run goes on without a profile");
      notes.put("profile", "none: POST /start_profile: " + a.describe());
    }
  }

  /**
   * After the load: stops the profiler if it was started, waiting while the server writes its
   * traces.
   */
  public synchronized void afterLoad() {
    if (!profiling) {
      return;
    }
    profiling = false;
    out.println(
        PREFIX
            + "stopping the profiler (POST /stop_profile; the server writes its traces, which can"
            + " take minutes)");
    long start = System.nanoTime();
    ServerApi.Answer a = null;
    for (int i : profiled) {
      ServerApi.Answer answer = apis.get(i).post("/stop_profile", STOP_TIMEOUT);
      a = a == null || a.ok() ? answer : a;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (a.ok()) {
      out.printf(
          Locale.ROOT,
          "%sprofiling stopped after %.1f s: the traces are in the server's profiler dir%n",
          PREFIX,
          seconds);
      notes.put("profile", notes.get("profile") + ", stopped after the load");
    } else {
      out.println(
          PREFIX
              + "-Dprofile: POST /stop_profile failed ("
              + a.describe()
              + "): the server's profile may be incomplete");
      notes.put("profile", notes.get("profile") + ", POST /stop_profile: " + a.describe());
    }
  }

  /**
   * What was done, for {@code summary.json}'s server checks: {@code profile}, {@code cache.reset}.
   */
  public synchronized Map<String, String> notes() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(notes));
  }
}
