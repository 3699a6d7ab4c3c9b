package io.github.llmbench.settings;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.ServerSettings.RequestOptions;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The effective settings for people, one {@code name -> value} line each: the lines a run prints as
 * it starts and {@code summary.json}'s {@code settings} (which the merge command compares). Only
 * what applies is shown: a trace's run has no {@code conc}, a default {@code stats.records} no
 * line. Secrets never appear: the API key is only set / not set, a header only {@code <set>}.
 *
 * <p>Each line is named by its setting's table entry ({@link SettingsTable}); {@code warmup} and
 * {@code sim.engine} gather several settings and have no entry of their own.
 */
public final class SettingsDescription {
  private SettingsDescription() {}

  /** The settings' lines, without the gates'. */
  public static Map<String, String> of(BenchSettings s) {
    return of(s, Optional.empty());
  }

  /**
   * The settings' lines, with the parsed gates' line ({@code gates.RunGates#describe}) in its
   * place.
   */
  public static Map<String, String> of(BenchSettings s, Optional<String> gatesLine) {
    // the order of the steps is the order of the lines people read and summary.json keeps
    Map<String, String> m = new LinkedHashMap<>();
    putRouting(m, s.server());
    putLoad(m, s);
    putWorkload(m, s);
    putServerCalls(m, s.server());
    putGatlingRecords(m, s.gatlingRecords());
    // as typed, so that a re-done report reads it back (ReportMain)
    s.report()
        .percentiles()
        .ifPresent(
            ps ->
                m.put(
                    ReportSettings.PERCENTILES.name(),
                    String.join(",", ps.stream().map(Statistic::number).toList())));
    gatesLine.ifPresent(line -> m.put(GateSettings.GATES.name(), line));
    s.ab().ifPresent(ab -> m.put(AbSettings.CANDIDATE_URL.name(), ab(ab, s.load())));
    if (s.server().embeddedSimulator()) {
      // what it plays, its engine and what it adds to it: each knob's line, as its table words it
      m.putAll(s.simulator().lines(s.workload().seed()));
    }
    putInjector(m, s.injector(), s.load());
    m.put(BenchSettings.API_KEY_ENV, s.apiKey().isPresent() ? "set (not shown)" : "not set");
    return m;
  }

  /** An A/B run's line: server B, its model, the units and the budget. */
  private static String ab(AbSettings ab, LoadSettings load) {
    AbSettings.Units units = ab.units();
    return ab.servers().described()
        + ab.candidateModel().map(model -> ", model " + model).orElse("")
        + ", "
        + units.min()
        + " to "
        + units.max()
        + " "
        + units.name()
        + "s"
        + (units.pairs() > 1 ? " of " + units.pairs() + " pairs" : "")
        + " of "
        + load.durationSeconds()
        + " s a side"
        + (ab.budgetMinutes().isPresent()
            ? ", at most " + ab.budgetMinutes().getAsInt() + " min of load"
            : "");
  }

  private static boolean isTrace(WorkloadSettings workload) {
    return workload.dataset() == DatasetKind.TRACE;
  }

  /** Where the requests go: the servers, the API, the models. */
  private static void putRouting(Map<String, String> m, ServerSettings server) {
    ServerSettings.Routing routing = server.routing();
    m.put(
        ServerSettings.BASE_URL.name(),
        routing.embeddedSimulator()
            ? "(none: embedded vLLM simulator)"
            : routing.baseUrls().isEmpty()
                ? "(none: the servers the kit starts, on ports it picks)"
                : routing.baseUrls().stream().map(URI::toString).collect(Collectors.joining(", "))
                    + (routing.severalServers() ? " (requests in turn)" : ""));
    m.put(ServerSettings.API.name(), server.api().id());
    m.put(ServerSettings.MODEL.name(), models(routing));
  }

  /** The load: its levels, how long or how many, the trials, the warmup. */
  private static void putLoad(Map<String, String> m, BenchSettings s) {
    LoadSettings load = s.load();
    Optional<SearchSettings> search = s.search();
    boolean trace = isTrace(s.workload());
    putLevels(m, load, search, trace);
    if (!trace) {
      m.put(
          (load.prompts().isEmpty() ? LoadSettings.DURATION : LoadSettings.PROMPTS).name(),
          load.prompts().isEmpty()
              ? load.durationSeconds() + (search.isPresent() ? " s per probe" : " s per level")
              : load.prompts().toString() + (s.workload().multiTurn() ? " conversations" : ""));
    }
    if (load.trials() > 1) {
      m.put(
          LoadSettings.TRIALS.name(),
          load.trials()
              + " per level, back to back"
              + (load.trialsCooldownSeconds() > 0
                  ? ", " + load.trialsCooldownSeconds() + " s apart"
                  : ""));
    }
    if (load.warmupPrompts() > 0) {
      m.put(
          Level.WARMUP.tag(),
          load.warmupPrompts() + " prompts at concurrency " + load.warmupConc());
    }
  }

  /** What sets the levels: the trace, a search, a ramp, a rate, a ladder or one concurrency. */
  private static void putLevels(
      Map<String, String> m, LoadSettings load, Optional<SearchSettings> search, boolean trace) {
    if (trace) {
      // the trace sets the load and the lengths: conc, duration, input.len and output.len do not
      // apply
      load.prompts().stream()
          .findFirst()
          .ifPresent(n -> m.put(LoadSettings.PROMPTS.name(), "the trace's first " + n));
    } else if (search.isPresent()) { // its levels are the probes: no -Dconc level runs
      m.put(SearchSettings.SEARCH.name(), searchLine(search.get(), load));
    } else if (load.ramp().isPresent()) {
      Ramp ramp = load.ramp().get();
      m.put(
          LoadSettings.RAMP.name(),
          ramp.describe()
              + " over each level (level "
              + ramp.tag()
              + (load.open() ? ", burstiness " + load.burstiness() : "")
              + ")");
      load.maxConc().ifPresent(c -> m.put(LoadSettings.MAX_CONC.name(), Integer.toString(c)));
    } else if (load.open()) {
      m.put(
          LoadSettings.RATE.name(),
          load.rate().getAsDouble() + " requests/s (burstiness " + load.burstiness() + ")");
      load.maxConc().ifPresent(c -> m.put(LoadSettings.MAX_CONC.name(), Integer.toString(c)));
    } else if (load.ladder()) {
      m.put(LoadSettings.LADDER.name(), load.levels().toString());
    } else {
      m.put(LoadSettings.CONC.name(), Integer.toString(load.conc()));
    }
  }

  private static String searchLine(SearchSettings x, LoadSettings load) {
    return String.format(
            Locale.ROOT,
            "%s from %s to %s, objectives %s, precision %s, budget %d min",
            x.rate() ? "request rate" : "concurrency",
            Level.plainNumber(x.min()),
            Level.plainNumber(x.max()),
            x.objectives(),
            Level.plainNumber(x.precision()),
            x.budgetMinutes())
        + (x.rate()
            ? " (burstiness "
                + load.burstiness()
                + load.maxConc().stream().mapToObj(c -> ", max.conc " + c).findFirst().orElse("")
                + ")"
            : "");
  }

  /** The workload: the dataset, the conversation, the lengths, the images, the prefix, the seed. */
  private static void putWorkload(Map<String, String> m, BenchSettings s) {
    WorkloadSettings workload = s.workload();
    putDataset(m, workload);
    putLengths(m, workload, s.server().api().figures().generates());
    putImages(m, workload.images());
    if (workload.prefixLen() > 0) {
      m.put(WorkloadSettings.PREFIX_LEN.name(), Integer.toString(workload.prefixLen()));
    }
    if (workload.prefixGroups() > 1) {
      m.put(WorkloadSettings.PREFIX_GROUPS.name(), Integer.toString(workload.prefixGroups()));
    }
    m.put(
        WorkloadSettings.SEED.name(),
        workload.seed() + (workload.seedPinned() ? " (pinned)" : " (fresh; pin with -Dseed)"));
  }

  /** The dataset, a multi-turn run's turns and a trace's speed. */
  private static void putDataset(Map<String, String> m, WorkloadSettings workload) {
    m.put(
        WorkloadSettings.DATASET.name(),
        workload.describe()
            + (workload.dataset() == DatasetKind.PROFILES
                ? (workload.profilesMixed() ? " (mixed)" : " (in order)")
                : ""));
    if (workload.multiTurn()) {
      m.put(
          WorkloadSettings.TURNS.name(),
          workload.turns()
              + " per conversation"
              + (workload.thinkSeconds() > 0
                  ? ", " + workload.thinkSeconds() + " s think time between turns"
                  : "")
              + " (each turn sends the earlier turns and their streamed answers)");
    }
    if (isTrace(workload)) {
      m.put(
          WorkloadSettings.TRACE_SPEED.name(),
          workload.traceSpeed()
              + (workload.traceSpeed() == 1.0
                  ? " (the trace's own times)"
                  : " x the trace's pace"));
    }
  }

  /** The input and output lengths ({@code generates}: the API has an output to size). */
  private static void putLengths(
      Map<String, String> m, WorkloadSettings workload, boolean generates) {
    if (!isTrace(workload)) {
      m.put(WorkloadSettings.INPUT_LEN.name(), Integer.toString(workload.inputLen()));
      if (generates) {
        m.put(WorkloadSettings.OUTPUT_LEN.name(), Integer.toString(workload.outputLen()));
      }
    }
    if (workload.rangeRatio() > 0) {
      m.put(WorkloadSettings.RANGE_RATIO.name(), Double.toString(workload.rangeRatio()));
    }
    if (workload.rangeRatio() == 0 && !workload.inputLengths().isFixed()) {
      m.put("input lengths", workload.inputLengths().describe());
    }
    if (workload.rangeRatio() == 0 && !workload.outputLengths().isFixed()) {
      m.put("output lengths", workload.outputLengths().describe());
    }
  }

  private static void putImages(Map<String, String> m, Images images) {
    if (!images.counts().isEmpty()) {
      m.put(
          Images.IMAGES.name(),
          (images.counts().size() > 1
                  ? images.counts() + " per request, a level each"
                  : images.perRequest() + " per request")
              + ", "
              + (images.sizes().size() > 1 ? images.sizes() + ", a level each," : images.size())
              + " "
              + images.format().id()
              + ", random pixels from the seed");
    }
  }

  /** The server: its timeout, the calls besides the requests, what each request adds. */
  private static void putServerCalls(Map<String, String> m, ServerSettings server) {
    m.put(ServerSettings.TIMEOUT.name(), server.timeoutSeconds() + " s");
    ServerSettings.ServerCalls calls = server.calls();
    if (calls.readyTimeoutSeconds() > 0) {
      m.put(
          ServerSettings.READY_TIMEOUT.name(),
          calls.readyTimeoutSeconds() + " s (waited for GET /health or GET /v1/models first)");
    }
    if (calls.profile()) {
      m.put(
          ServerSettings.PROFILE.name(),
          "POST /start_profile before the first measured level, /stop_profile after the last");
    }
    if (calls.cacheReset()) {
      m.put(ServerSettings.CACHE_RESET.name(), "the server's prefix cache, before each level");
    }
    RequestOptions requestOptions = server.requestOptions();
    requestOptions
        .extraBodyJson()
        .ifPresent(
            json ->
                m.put(
                    ServerSettings.EXTRA_BODY.name(),
                    json
                        + (requestOptions.overriddenKitKeys().isEmpty()
                            ? ""
                            : " (replaces the kit's "
                                + String.join(", ", requestOptions.overriddenKitKeys())
                                + ")")));
    // the family's name ends with its dot: header.X-Route
    requestOptions
        .headers()
        .keySet()
        .forEach(name -> m.put(ServerSettings.HEADER.name() + name, "<set>"));
  }

  private static void putGatlingRecords(Map<String, String> m, GatlingRecords gatlingRecords) {
    if (gatlingRecords != GatlingRecords.REQUEST) {
      m.put(
          GatlingRecords.STATS_RECORDS.name(),
          gatlingRecords.id()
              + " (besides each request, Gatling's stats get "
              + (gatlingRecords == GatlingRecords.ALL
                  ? "its TTFT, TPOT and one ITL record per chunk gap)"
                  : "its TTFT and TPOT)"));
    }
  }

  /** A sharded or scheduled injector's share and start; nothing for a lone one. */
  private static void putInjector(
      Map<String, String> m, InjectorSettings injector, LoadSettings load) {
    if (injector.sharded() || injector.startAtMs().isPresent()) {
      m.put(
          InjectorSettings.INJECTOR.name(),
          injector
              + (injector.sharded() ? " (this process runs its share of each level)" : "")
              + injector.startAtMs().stream()
                  .mapToObj(
                      t ->
                          ", first phase at "
                              + Instant.ofEpochMilli(t)
                              + (load.levels().size() > 1 || load.warmupPrompts() > 0
                                  ? ", then every "
                                      + load.durationSeconds()
                                      + " s + "
                                      + injector.drainSeconds()
                                      + " s drain"
                                  : ""))
                  .findFirst()
                  .orElse(""));
    }
  }

  /** The models and, for a mix, each one's share: {@code a (70%), b (30%)}. */
  private static String models(ServerSettings.Routing routing) {
    if (routing.models().isEmpty()) {
      return "(first of GET /v1/models)";
    }
    if (!routing.severalModels()) {
      return routing.models().get(0);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < routing.models().size(); i++) {
      out.add(
          String.format(
              Locale.ROOT,
              "%s (%s%%)",
              routing.models().get(i),
              Level.plainNumber(Math.round(routing.weights().get(i) * 1000) / 10.0)));
    }
    return String.join(", ", out) + ", picked by the seed";
  }
}
