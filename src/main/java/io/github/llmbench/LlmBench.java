package io.github.llmbench;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.report.ServingResultBlock;
import io.github.llmbench.report.SummaryJson;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.Dataset;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.workload.DatasetException;
import io.github.llmbench.workload.FileDataset;
import io.github.llmbench.workload.ProfilesDataset;
import io.github.llmbench.workload.RandomDataset;
import io.github.llmbench.workload.RequestBodies;
import io.github.llmbench.workload.RequestSpec;
import io.github.llmbench.workload.TokenCounter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a simulation needs to load an LLM server: the settings, the server (the embedded simulator
 * when none is given), the dataset, the load plan, and the summaries.
 *
 * <p>Simulations stay thin: they create one of these, set up {@link #load()} (or their own
 * injection of {@link #closedLevel(int)}), and call {@link #finish()} from {@code after()}.
 */
public final class LlmBench {
  public static final String SUMMARY_FILE = "summary.json";

  /** Exit status for a bad setting or an unusable server (Gatling uses 1 and 2 itself). */
  public static final int EXIT_BAD_INPUT = 3;

  /** Warmup prompts come from another seed than measured ones, so no measured prompt is cached. */
  static final long WARMUP_SEED_SALT = 0x3A3A_5EED_0000_0001L;

  private static final String SPEC_KEY = "llmRequest";
  private static final String PROFILE_KEY = "llmProfile";

  private final BenchSettings settings;
  private final Target target;
  private final io.github.llmbench.workload.Dataset dataset;
  private final io.github.llmbench.workload.Dataset warmupDataset;
  private final List<String> sequentialProfiles;
  private final String datasetNote;
  private final RunRecorder recorder;
  private final StreamCapture capture;
  private final List<Phase> phases;
  private final AtomicLong measuredIndex = new AtomicLong();
  private final AtomicLong warmupIndex = new AtomicLong();
  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  private LlmBench(BenchSettings settings) {
    this.settings = settings;
    this.recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs));
    BenchSettings.Workload w = settings.workload();
    // Read the dataset file before contacting the server: a bad file costs nothing.
    FileDataset file = w.dataset() == Dataset.FILE ? FileDataset.read(w.file().get(), w.outputLen(), w.seed()) : null;
    this.target = Target.resolve(settings);
    try {
      switch (w.dataset()) {
        case RANDOM -> {
          TokenCounter counter = target.api().tokenCounter(target.model());
          RandomDataset random =
              new RandomDataset(
                  RandomDataset.Calibration.measure(RandomDataset.shippedVocabulary(), counter),
                  w.inputLen(), w.outputLen(), w.rangeRatio(), w.prefixLen(), w.seed());
          this.dataset = random;
          this.datasetNote = random.check(counter, 5);
          this.sequentialProfiles = List.of();
        }
        case PROFILES -> {
          ProfilesDataset profiles =
              new ProfilesDataset(w.profiles().group(), w.profiles().names(), ProfilesDataset.shippedSentence(), w.seed());
          this.dataset = profiles;
          this.datasetNote = "profiles " + w.profiles() + (w.profilesMixed() ? ", mixed" : ", in order") + ": " + profiles.names();
          this.sequentialProfiles = w.profilesMixed() ? List.of() : profiles.names();
        }
        default -> {
          this.dataset = file;
          this.datasetNote = file.size() + " requests in " + w.file().get();
          this.sequentialProfiles = List.of();
        }
      }
      this.warmupDataset = dataset.withSeed(w.seed() ^ WARMUP_SEED_SALT);
      this.phases = LoadPlan.of(settings.load(), sequentialProfiles);
      this.capture =
          new StreamCapture(recorder, Duration.ofSeconds(settings.timeoutSeconds()), settings.api().path(), maxOutputTokens());
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
    printSettings();
  }

  /**
   * Reads the settings and prepares the server. On a bad setting, dataset or an unusable server it
   * prints one line and ends the JVM (status {@value #EXIT_BAD_INPUT}) before any load is sent:
   * Gatling would otherwise print a stack trace.
   */
  public static LlmBench start() {
    try {
      return create(BenchSettings.fromSystem());
    } catch (SettingsException | TargetException | DatasetException e) {
      System.out.flush();
      System.err.println("gatling-llm-bench: " + e.getMessage());
      System.err.flush();
      Runtime.getRuntime().halt(EXIT_BAD_INPUT);
      throw e;
    }
  }

  /** Like {@link #start()}, but throws instead of ending the JVM (for tests and embedding). */
  public static LlmBench create(BenchSettings settings) {
    return new LlmBench(settings);
  }

  public BenchSettings settings() {
    return settings;
  }

  /** The level tag of a closed-model level: records read {@code c128 / TTFT}. */
  public static String level(int conc) {
    return LoadPlan.closedLevel(conc);
  }

  /** HTTP settings: the server, the API key, one shared connection pool (as vLLM's client). */
  public HttpProtocolBuilder http() {
    HttpProtocolBuilder h =
        http.baseUrl(target.baseUrl().toString())
            .shareConnections()
            .disableWarmUp()
            .sseUnmatchedInboundMessageBufferSize(capture.bufferSize());
    if (settings.apiKey().isPresent()) {
      h = h.header("Authorization", "Bearer " + settings.apiKey().get());
    }
    if (target.api().closesConnectionAfterStream()) {
      // llama-server closes after each stream: reusing the connection would fail the next request
      h = h.header("Connection", "close");
    }
    return h;
  }

  /** The whole load the settings describe: warmup, then each level, each drained before the next. */
  public PopulationBuilder load() {
    return Populations.chain(phases, this::oneRequest, this::levelDrained, settings.workload().seed());
  }

  /**
   * A closed-model level for simulations that write their own injection: one virtual user sends
   * one request, in the group {@code c<conc>}; e.g. {@code
   * bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(60))}.
   */
  public ScenarioBuilder closedLevel(int conc) {
    Phase phase = new Phase(level(conc), null, conc, java.util.OptionalInt.empty(), 0, 0, 0, false, true);
    return scenario(phase.scenarioName()).exec(oneRequest(phase));
  }

  /** The run's hard stop: every phase's own limit, plus time for the last requests to time out. */
  public Duration maxDuration() {
    long seconds = 0;
    for (Phase p : phases) {
      if (p.prompts().isPresent()) {
        int inFlight = p.conc() > 0 ? p.conc() : 1;
        seconds += (long) Math.ceil((double) p.prompts().getAsInt() / inFlight) * settings.timeoutSeconds();
      } else {
        seconds += p.durationSeconds();
      }
      seconds += settings.timeoutSeconds() + 10L;
    }
    return Duration.ofSeconds(seconds + 30);
  }

  private int maxOutputTokens() {
    int max = (int) Math.ceil(settings.outputLen() * (1 + settings.workload().rangeRatio()));
    if (settings.workload().dataset() != Dataset.RANDOM) {
      for (int i = 0; i < 1000; i++) {
        max = Math.max(max, dataset.request(i, null).maxTokens());
      }
    }
    return max;
  }

  /** One request of {@code phase}, inside its level's group and, in profile runs, its profile's. */
  private ChainBuilder oneRequest(Phase phase) {
    ChainBuilder request =
        capture.request(phase.level(), s -> s.getString(PROFILE_KEY), s -> body(s.get(SPEC_KEY)));
    boolean profiles = settings.workload().dataset() == Dataset.PROFILES;
    ChainBuilder inner = profiles ? exec(group("#{" + PROFILE_KEY + "}").on(request)) : request;
    return exec(session -> nextRequest(session, phase)).exec(group(phase.level()).on(inner));
  }

  private Session nextRequest(Session session, Phase phase) {
    RequestSpec spec =
        phase.warmup()
            ? warmupDataset.request(warmupIndex.getAndIncrement(), phase.profile())
            : dataset.request(measuredIndex.getAndIncrement(), phase.profile());
    Session s = session.set(SPEC_KEY, spec);
    return spec.profile() == null ? s.remove(PROFILE_KEY) : s.set(PROFILE_KEY, spec.profile());
  }

  private String body(RequestSpec spec) {
    return RequestBodies.streaming(settings.api(), target.model(), spec);
  }

  private void printSettings() {
    out.println("gatling-llm-bench settings:");
    Map<String, String> shown = new LinkedHashMap<>(settings.describe());
    shown.put("base.url", target.baseUrl() + (target.embedded() ? " (embedded vLLM simulator)" : ""));
    shown.put("model", target.model());
    shown.put("prompts", datasetNote);
    if (target.api().closesConnectionAfterStream()) {
      shown.put("connections", "a new one per request (" + target.api().serverHeader().orElse("")
          + " closes the connection after each stream)");
    }
    shown.forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
  }

  /** Prints a level's result block as soon as its last request has finished. */
  private void levelDrained(String level) {
    if (level.equals(LoadPlan.WARMUP)) {
      out.println("warmup done: " + ofLevel(recorder.finishedSoFar(), level).size() + " requests (left out of every summary)");
      return;
    }
    List<RequestRecord> records = ofLevel(recorder.finishedSoFar(), level);
    out.println();
    out.print(ServingResultBlock.format(metrics(level, records), ServingResultBlock.titleFor(level)));
    printProfiles(records);
  }

  private void printProfiles(List<RequestRecord> records) {
    Map<String, List<RequestRecord>> byProfile = byProfile(records);
    if (byProfile.isEmpty()) {
      return;
    }
    out.printf("%-8s %9s %7s %14s %14s %14s %12s%n", "profile", "completed", "failed", "mean TTFT ms", "mean TPOT ms", "mean E2EL ms", "out tok/s");
    byProfile.forEach(
        (profile, rs) -> {
          ServingMetrics m = ServingMetricsCalculator.compute(rs, null, io.github.llmbench.analysis.LatencyStats.DEFAULT_PERCENTILES);
          out.printf(Locale.ROOT, "%-8s %9d %7d %14.2f %14.2f %14.2f %12.2f%n",
              profile, m.completed(), m.failed(), m.ttft().mean(), m.tpot().mean(), m.e2el().mean(), m.outputThroughput());
        });
  }

  /**
   * Ends the run: records the requests still in flight as failed, prints a line per level, writes
   * {@code llm/summary.json}, stops the embedded simulator.
   */
  public void finish() {
    try {
      List<RequestRecord> all = recorder.close(System.currentTimeMillis(), "unfinished when the run ended");
      List<RequestRecord> measured = all.stream().filter(r -> !LoadPlan.WARMUP.equals(r.level())).toList();
      Map<String, ServingMetrics> levels = new LinkedHashMap<>();
      for (String level : levelsInOrder(measured)) {
        levels.put(level, metrics(level, ofLevel(measured, level)));
      }
      Path dir = recorder.directory();
      boolean oneLevel = levels.size() == 1;
      ServingMetrics overall =
          oneLevel ? levels.values().iterator().next()
              : ServingMetricsCalculator.compute(measured, null, io.github.llmbench.analysis.LatencyStats.DEFAULT_PERCENTILES);
      if (oneLevel && phases.stream().noneMatch(Phase::lastOfLevel)) {
        out.println();
        out.print(ServingResultBlock.format(overall)); // custom simulations: no drained marker ran
      }
      printLevelLines(levels);
      SummaryJson.write(dir.resolve(SUMMARY_FILE), SummaryJson.build(metadata(all.size() - measured.size(), measured), overall, levels));
      out.println("Per-request records: " + dir.resolve(RunRecorder.FILE_NAME));
      out.println("Summary:             " + dir.resolve(SUMMARY_FILE));
    } finally {
      target.close();
    }
  }

  private void printLevelLines(Map<String, ServingMetrics> levels) {
    out.println();
    out.println("=================== Levels ===================");
    out.printf("%-8s %9s %7s %10s %12s %14s %13s%n", "level", "completed", "failed", "req/s", "out tok/s", "mean TPOT ms", "P99 TTFT ms");
    levels.forEach(
        (level, m) ->
            out.printf(Locale.ROOT, "%-8s %9d %7d %10.2f %12.2f %14.2f %13.2f%n",
                level, m.completed(), m.failed(), m.requestThroughput(), m.outputThroughput(), m.tpot().mean(), m.ttft().p99()));
  }

  private Map<String, Object> metadata(int warmupRequests, List<RequestRecord> measured) {
    BenchSettings.Workload w = settings.workload();
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("date", SummaryJson.date(LocalDateTime.now()));
    meta.put("backend", target.embedded() ? "vllm-simulator" : "openai-" + settings.api().id());
    meta.put("model_id", target.model());
    meta.put("base_url", target.baseUrl().toString());
    meta.put("endpoint", settings.api().path());
    meta.put("dataset", w.describe());
    meta.put("seed", w.seed());
    meta.put("input_len", settings.inputLen());
    meta.put("output_len", settings.outputLen());
    meta.put("range_ratio", w.rangeRatio());
    meta.put("prefix_len", w.prefixLen());
    meta.put("warmup_requests", warmupRequests);
    Map<String, Object> profiles = new LinkedHashMap<>();
    for (String level : levelsInOrder(measured)) {
      byProfile(ofLevel(measured, level)).forEach(
          (profile, rs) -> profiles.put(level + "/" + profile,
              SummaryJson.metricFields(ServingMetricsCalculator.compute(rs, null, io.github.llmbench.analysis.LatencyStats.DEFAULT_PERCENTILES))));
    }
    if (!profiles.isEmpty()) {
      meta.put("profiles", profiles);
    }
    meta.put("settings", settings.describe());
    return meta;
  }

  private ServingMetrics metrics(String level, List<RequestRecord> records) {
    Integer conc = null;
    for (Phase p : phases) {
      if (p.level().equals(level) && p.conc() > 0) {
        conc = p.conc();
      }
    }
    if (conc == null && level.matches("c\\d+")) {
      conc = Integer.parseInt(level.substring(1));
    }
    return ServingMetricsCalculator.compute(records, conc, io.github.llmbench.analysis.LatencyStats.DEFAULT_PERCENTILES);
  }

  private static List<RequestRecord> ofLevel(List<RequestRecord> records, String level) {
    return records.stream().filter(r -> level.equals(r.level())).toList();
  }

  private static List<String> levelsInOrder(List<RequestRecord> records) {
    return new ArrayList<>(ServingMetricsCalculator.byLevel(records).keySet());
  }

  private static Map<String, List<RequestRecord>> byProfile(List<RequestRecord> records) {
    Map<String, List<RequestRecord>> out = new LinkedHashMap<>();
    for (RequestRecord r : records) {
      if (r.profile() != null) {
        out.computeIfAbsent(r.profile(), k -> new ArrayList<>()).add(r);
      }
    }
    return out;
  }
}
