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
import io.gatling.javaapi.core.Assertion;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.core.Metric;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GatlingAssertions;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.injection.CapacityProbes;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.Dataset;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.workload.DatasetException;
import io.github.llmbench.workload.FileDataset;
import io.github.llmbench.workload.ProfilesDataset;
import io.github.llmbench.workload.RandomDataset;
import io.github.llmbench.workload.RequestBodies;
import io.github.llmbench.workload.RequestSpec;
import io.github.llmbench.workload.ContextFit;
import io.github.llmbench.workload.ServerTokenizer;
import io.github.llmbench.injection.ServerApi;
import java.util.OptionalInt;
import java.util.Iterator;
import java.util.stream.Stream;
import io.github.llmbench.workload.FeederRecords;
import io.github.llmbench.workload.TraceDataset;
import io.github.llmbench.telemetry.MetricsScraper;
import io.github.llmbench.injection.Conversations;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.analysis.RunAnalysis;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
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

  /** Sample prompts re-counted by the server's tokenizer before the load (the words method). */
  static final int CHECKED_SAMPLES = 5;

  /** Warmup prompts come from another seed than measured ones, so no measured prompt is cached. */
  static final long WARMUP_SEED_SALT = 0x3A3A_5EED_0000_0001L;

  private final BenchSettings settings;
  private final Target target;
  private final io.github.llmbench.workload.Dataset dataset;
  private final io.github.llmbench.workload.Dataset warmupDataset;
  private final List<String> sequentialProfiles;
  /** Start lines about the tokenizer, the prompts, the chat template and the context (filled as they are known). */
  private final Map<String, String> datasetNotes;
  /** Makes the prompts that are made before the load and checks the context; run once, by {@link #prepared()}. */
  private final Runnable preparation;
  private boolean prepared;
  private final boolean exitOnProblem;
  private final RunRecorder recorder;
  private final StreamCapture capture;
  private final List<Phase> phases;
  private final ModelSpec rooflineModel;
  private final GpuSpec rooflineGpu;
  private final RunEnd runEnd;
  private final RequestBodies bodies;
  private final MetricsScraper scraper;
  /** {@code -Dtokenizer}'s tokenizer, or null (the server's, if any, is used). */
  private final io.github.llmbench.workload.LocalTokenizer localTokenizer;
  private final AtomicLong measuredIndex = new AtomicLong();
  private final AtomicLong warmupIndex = new AtomicLong();
  private final AtomicLong conversationIds = new AtomicLong();
  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  private LlmBench(BenchSettings settings, boolean exitOnProblem) {
    this.settings = settings;
    this.exitOnProblem = exitOnProblem;
    this.recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs, out));
    BenchSettings.Workload w = settings.workload();
    // Read the dataset file before contacting the server: a bad file costs nothing.
    FileDataset file = w.dataset() == Dataset.FILE ? FileDataset.read(w.file().get(), w.outputLen(), w.seed()) : null;
    List<TraceDataset.Entry> trace = w.dataset() == Dataset.TRACE ? traceLines(w, settings.load()) : null;
    // a local tokenizer is read before the server is asked anything: a wrong path costs nothing
    this.localTokenizer = settings.tokenizerPath().map(io.github.llmbench.workload.LocalTokenizer::load).orElse(null);
    this.target = Target.resolve(settings);
    this.bodies = new RequestBodies(settings.api(), target.model(), settings.requestOptions().extraBody());
    try {
      ServerTokenizer serverTokenizer = target.api().tokenizer(target.model());
      ServerTokenizer tokenizer = localTokenizer != null ? localTokenizer : serverTokenizer;
      Map<String, String> notes = new LinkedHashMap<>();
      notes.put("tokenizer", localTokenizer == null ? tokenizer.describe()
          : localTokenizer.describe() + "; " + io.github.llmbench.workload.TokenizerCheck.against(localTokenizer, serverTokenizer));
      String why = "";
      String whyLengths;
      switch (w.dataset()) {
        case RANDOM -> {
          RandomDataset.Selection selection =
              RandomDataset.forServer(tokenizer, w.inputLen(), w.outputLen(), w.rangeRatio(), w.prefixLen(), w.seed(), CHECKED_SAMPLES);
          this.dataset = selection.dataset();
          this.sequentialProfiles = List.of();
          why = selection.why();
        }
        case TRACE -> {
          RandomDataset.Selection selection =
              RandomDataset.forServer(tokenizer, w.inputLen(), w.outputLen(), 0, 0, w.seed(), CHECKED_SAMPLES);
          TraceDataset replay = TraceDataset.of(trace, selection.dataset(), w.seed());
          this.dataset = replay;
          this.sequentialProfiles = List.of();
          why = selection.dataset().method() == RandomDataset.Method.TOKEN_IDS
              ? "words do not add up with this tokenizer (" + selection.why() + "): " + RandomDataset.check(replay, tokenizer, CHECKED_SAMPLES).describe()
              : RandomDataset.check(replay, tokenizer, CHECKED_SAMPLES).describe();
        }
        case PROFILES -> {
          ProfilesDataset profiles =
              new ProfilesDataset(w.profiles().group(), w.profiles().names(), ProfilesDataset.shippedSentence(), w.seed());
          this.dataset = profiles;
          this.sequentialProfiles = w.profilesMixed() ? List.of() : profiles.names();
        }
        default -> {
          this.dataset = file;
          this.sequentialProfiles = List.of();
        }
      }
      whyLengths = why;
      this.warmupDataset = dataset.withSeed(w.seed() ^ WARMUP_SEED_SALT);
      this.phases = dataset instanceof TraceDataset replay
          ? LoadPlan.trace(settings.load(), replay.sendTimesSeconds(w.traceSpeed()))
          : settings.search().isPresent() ? LoadPlan.search(settings.load())
          : LoadPlan.of(settings.load(), sequentialProfiles, settings.injector());
      if (settings.injector().sharded()) {
        for (io.github.llmbench.workload.Dataset d : List.of(dataset, warmupDataset)) {
          if (d instanceof RandomDataset random) {
            random.forInjector(settings.injector().index(), settings.injector().count());
          }
        }
      }
      OptionalInt template = settings.api() == BenchSettings.Api.CHAT && tokenizer.present()
          ? target.api().chatTemplateTokens(target.model(), tokenizer, "How fast is the server?")
          : OptionalInt.empty();
      if (settings.api() == BenchSettings.Api.CHAT) {
        notes.put("chat", template.isPresent()
            ? "the chat template adds " + template.getAsInt() + " tokens to each prompt (counted in the server's input tokens)"
            : "the chat template's tokens are unknown (the server's input tokens count them)");
      }
      this.datasetNotes = notes;
      // made when the simulation first asks for the dataset's requests (load(), feeder(),
      // closedLevel()): a simulation with its own feeder neither waits for them nor is stopped by them
      this.preparation = () -> {
        datasetNotes.put("lengths", preparePrompts(w, whyLengths));
        datasetNotes.put("context", checkContext(tokenizer, template.orElse(0)));
      };
      this.rooflineModel = rooflineModel(settings, target);
      this.rooflineGpu = rooflineGpu(settings, target);
      this.scraper = metricsScraper(notes);
      this.runEnd = new RunEnd(settings, target, phases, recorder, rooflineModel, rooflineGpu, datasetNotes, scraper, out);
      this.capture =
          new StreamCapture(
              recorder,
              Duration.ofSeconds(settings.timeoutSeconds()),
              target.baseUrl(),
              settings.api().path(),
              settings.apiKey(),
              settings.requestOptions().headers(),
              target.api().closesConnectionAfterStream(),
              Math.max(dataset.maxTokens(), settings.requestOptions().maxTokens().orElse(0)),
              settings.gatlingRecords().metrics(),
              w.multiTurn(),
              localTokenizer == null ? null : localTokenizer::countText,
              localTokenizer == null ? s -> null : LlmBench::countedInputTokens); // a count labelled "tokenizer" must be one
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
    printSettings();
    if (scraper != null) {
      scraper.start();
    }
  }

  /**
   * The scraper of the server's {@code /metrics} (when it answers with metrics the kit maps) and
   * of {@code -Dmetrics.urls}, or null when there is nothing to scrape; notes the start line.
   */
  private MetricsScraper metricsScraper(Map<String, String> notes) {
    BenchSettings.Metrics m = settings.metrics();
    if (!m.on()) {
      notes.put("metrics", "off (-Dmetrics.interval=0)");
      return null;
    }
    List<MetricsScraper.Endpoint> endpoints = new ArrayList<>();
    Map<String, String> own = new LinkedHashMap<>(settings.requestOptions().headers());
    settings.apiKey().ifPresent(k -> own.put("Authorization", "Bearer " + k));
    MetricsScraper.Endpoint server = new MetricsScraper.Endpoint(java.net.URI.create(target.baseUrl() + "/metrics"), own);
    java.util.Optional<String> problem = MetricsScraper.problem(server);
    List<String> said = new ArrayList<>();
    if (problem.isEmpty()) {
      endpoints.add(server);
      said.add("GET " + server.uri());
    } else {
      said.add("none from the server (GET " + server.uri() + ": " + problem.get() + ")");
    }
    for (java.net.URI u : m.urls()) {
      endpoints.add(new MetricsScraper.Endpoint(u, Map.of())); // another service: no key, no headers
      said.add("GET " + u);
    }
    notes.put("metrics", String.join(" + ", said) + (endpoints.isEmpty() ? ""
        : String.format(Locale.ROOT, ", every %s s, to %s/%s", BenchSettings.plainNumber(m.intervalSeconds()),
            io.github.llmbench.records.RunDirectory.LLM_FOLDER, io.github.llmbench.records.ServerMetricsFile.FILE_NAME)));
    return endpoints.isEmpty() ? null
        : new MetricsScraper(endpoints, Duration.ofMillis(Math.round(m.intervalSeconds() * 1000)), recorder::directory, out);
  }

  /**
   * Reads the settings and prepares the server. On a bad setting, dataset or an unusable server it
   * prints one line and ends the JVM (status {@value #EXIT_BAD_INPUT}) before any load is sent:
   * Gatling would otherwise print a stack trace. With {@code -Dhelp} it prints every setting and
   * ends the JVM (status 0).
   */
  public static LlmBench start() {
    return start(new String[0]);
  }

  /**
   * As {@link #start()}, for a simulation that reads properties of its own ({@code
   * LlmBench.start("users", "think")}): those are not refused as unknown or misspelled settings.
   */
  public static LlmBench start(String... simulationOwnProperties) {
    if (System.getProperty("help") != null) { // -Dhelp: the settings, and nothing loaded
      System.out.print(io.github.llmbench.settings.SettingsTable.help());
      System.out.flush();
      Runtime.getRuntime().halt(0);
    }
    java.util.Set<String> own = java.util.Set.of(simulationOwnProperties);
    return orExit(() -> new LlmBench(BenchSettings.fromSystem(own), true));
  }

  /** The value, or on a bad setting, dataset or unusable server one line and the end of the JVM. */
  private static <T> T orExit(java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (SettingsException | TargetException | DatasetException e) {
      System.out.flush();
      System.err.println("gatling-llm-bench: " + e.getMessage());
      System.err.flush();
      Runtime.getRuntime().halt(EXIT_BAD_INPUT);
      throw e;
    }
  }

  /**
   * Makes the dataset's prompts that are made before the load and checks the longest request
   * against the server's context, once, and prints what was found; the first simulation call that
   * sends the dataset's requests does it, before any load. On a problem the JVM ends as in
   * {@link #start()} (tests that {@link #create} keep the exception).
   */
  private synchronized void prepared() {
    if (prepared) {
      return;
    }
    prepared = true;
    Map<String, String> before = new LinkedHashMap<>(datasetNotes);
    if (exitOnProblem) {
      orExit(() -> {
        preparation.run();
        return null;
      });
    } else {
      preparation.run();
    }
    datasetNotes.forEach((k, v) -> {
      if (!before.containsKey(k)) {
        out.printf("  %-12s %s%n", k, v);
      }
    });
  }

  /** Like {@link #start()}, but throws instead of ending the JVM (for tests and embedding). */
  public static LlmBench create(BenchSettings settings) {
    return new LlmBench(settings, false);
  }

  public BenchSettings settings() {
    return settings;
  }

  /** The level tag of a closed-model level: Gatling records read {@code c128 / request}. */
  public static String level(int conc) {
    return LoadPlan.closedLevel(conc);
  }

  /**
   * Gatling's HTTP protocol for the run: the server, one shared connection pool (as vLLM's client).
   * The streaming requests go through this protocol's HTTP client; their headers (API key,
   * {@code Connection: close} for llama-server) are set by the kit's action.
   */
  public HttpProtocolBuilder http() {
    return http.baseUrl(target.baseUrl().toString()).shareConnections().disableWarmUp();
  }

  /** The whole load the settings describe: warmup, then each level, each drained before the next. */
  public PopulationBuilder load() {
    prepared();
    if (settings.search().isPresent()) {
      return searchLoad(settings.search().get());
    }
    List<java.util.OptionalLong> starts = LoadPlan.starts(phases, settings.injector(), settings.load().durationSeconds());
    return Populations.chain(phases, starts, this::oneRequest, this::ready, runEnd::levelDrained, settings.workload().seed());
  }

  /**
   * A closed-model level for simulations that write their own injection: one virtual user sends
   * one request, in the group {@code c<conc>}; e.g. {@code
   * bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(60))}.
   */
  public ScenarioBuilder closedLevel(int conc) {
    prepared();
    Phase phase = new Phase(level(conc), null, conc, java.util.OptionalInt.empty(), 0, 0, 0, false, true);
    return scenario(phase.scenarioName()).exec(oneRequest(phase));
  }

  /**
   * The configured dataset (random, profiles or a file) as a Gatling feeder: one record per
   * request ({@link FeederRecords}: {@code prompt} or {@code messages}, {@code max_tokens}, {@code
   * profile}, {@code input_tokens}), endless (a file starts over), for {@code feed(bench.feeder())}.
   */
  public Iterator<Map<String, Object>> feeder() {
    prepared();
    return feederOf(dataset, new AtomicLong(), null);
  }

  /**
   * One streamed request built from the session, for any scenario: its {@code prompt} or {@code
   * messages}, {@code max_tokens} (else {@code -Doutput.len}) and optional {@code profile}, e.g.
   * from {@code feed(csv("my-prompts.csv"))}; with the kit's capture, records, result blocks and
   * gates. Its level is the enclosing Gatling group, else the scenario's name. A record with
   * neither prompt nor messages fails that request, with the reason.
   */
  public ChainBuilder stream() {
    return capture.request(StreamCapture::enclosingGroup, LlmBench::profileOf, this::bodyOf, this::originOf);
  }

  /** The run's hard stop ({@link LoadPlan#maxDuration}): every phase's own limit, and a search's budget. */
  public Duration maxDuration() {
    return LoadPlan.maxDuration(phases, settings.timeoutSeconds(), settings.search().map(x -> x.budgetMinutes() * 60L).orElse(0L));
  }

  /** The trace's lines, read before the server is asked anything; {@code -Dprompts=N} keeps the first N. */
  private static List<TraceDataset.Entry> traceLines(BenchSettings.Workload w, BenchSettings.Load load) {
    List<TraceDataset.Entry> lines = TraceDataset.read(w.file().get());
    return load.prompts().isEmpty() ? lines : lines.subList(0, Math.min(lines.size(), load.prompts().get(0)));
  }

  /**
   * The model for the roofline: {@code -Dmodel.spec} (a catalog id or a Hugging Face {@code
   * config.json}), else the simulator's model, else the catalog entry whose Hugging Face id is the
   * served model's name; null when none is known (the roofline is then skipped, and says how).
   */
  private static ModelSpec rooflineModel(BenchSettings settings, Target target) {
    java.util.Optional<String> spec = settings.roofline().modelSpec();
    if (spec.isPresent()) {
      if (Catalog.models().containsKey(spec.get())) {
        return Catalog.model(spec.get());
      }
      try {
        return HfConfig.read(Path.of(spec.get()));
      } catch (RuntimeException e) {
        throw new SettingsException(
            "Invalid -Dmodel.spec=" + spec.get() + ": expected a catalog id (" + String.join(", ", Catalog.models().keySet())
                + ") or a Hugging Face config.json (" + e.getMessage() + ")");
      }
    }
    if (target.embedded()) {
      return Catalog.models().containsKey(settings.simModel()) ? Catalog.model(settings.simModel())
          : HfConfig.read(Path.of(settings.simModel()));
    }
    return Catalog.models().values().stream().filter(m -> m.hfId().equalsIgnoreCase(target.model())).findFirst().orElse(null);
  }

  private static GpuSpec rooflineGpu(BenchSettings settings, Target target) {
    if (settings.roofline().gpu().isPresent()) {
      return Catalog.gpu(settings.roofline().gpu().get());
    }
    return target.embedded() ? Catalog.gpu(settings.simGpu()) : null;
  }

  /**
   * The gates Gatling can check, as Gatling assertions on the kit's records ({@link
   * GatlingAssertions}: {@code failed.pct} and the latencies Gatling's stats hold, by default E2EL
   * as the request record's response time), so Gatling's report and exit status show them too.
   * Give them to {@code setUp(...).assertions(...)}. Profile runs nest records one group deeper:
   * there only the kit checks them. A capacity search plans no level (its probes are chosen as it
   * runs): it gets none.
   */
  public List<Assertion> assertions() {
    if (settings.workload().dataset() == Dataset.PROFILES) {
      return List.of();
    }
    List<String> levels = phases.stream().filter(p -> !p.warmup()).map(Phase::level).distinct().toList();
    Map<Metric, String> records = new EnumMap<>(Metric.class);
    settings.gatlingRecords().metrics().forEach(m -> records.put(m, StreamCapture.recordName(m)));
    return GatlingAssertions.of(settings.gates().set().gates(), levels, settings.gates().baselineFigures(),
        StreamCapture.REQUEST_RECORD, records);
  }

  /**
   * One request of {@code phase}, inside its level's group and, in profile runs, its profile's;
   * in multi-turn runs, one conversation of such requests.
   */
  private ChainBuilder oneRequest(Phase phase) {
    ChainBuilder request = capture.request(s -> phase.level(), LlmBench::profileOf, this::bodyOf, this::originOf, LlmBench::sendAt);
    boolean profiles = settings.workload().dataset() == Dataset.PROFILES;
    ChainBuilder inner = profiles ? exec(group("#{" + FeederRecords.PROFILE + "}").on(request)) : request;
    io.github.llmbench.workload.Dataset d = phase.warmup() ? warmupDataset : dataset;
    AtomicLong index = phase.warmup() ? warmupIndex : measuredIndex;
    BenchSettings.Workload w = settings.workload();
    if (w.multiTurn()) {
      Iterator<Map<String, Object>> conversations = Stream.generate(() -> {
        long n = datasetIndex(index.getAndIncrement());
        List<Map<String, Object>> turns = d.conversation(n, phase.profile(), w.turns()).stream().map(this::feederRecord).toList();
        return Conversations.record("conv-" + conversationIds.incrementAndGet(), turns);
      }).iterator();
      return Conversations.of(conversations, exec(group(phase.level()).on(inner)), Duration.ofMillis(Math.round(w.thinkSeconds() * 1000)));
    }
    Iterator<Map<String, Object>> records = feederOf(d, index, phase.profile());
    if (phase.trace() && !phase.warmup()) {
      // each record carries its send time: the request is built, then sent at it, and its record
      // tells how late it went; send times count from the replay's first feed plus the lead
      List<Double> times = phase.sendTimes();
      AtomicLong startNanos = new AtomicLong(Long.MIN_VALUE);
      records = Stream.generate(() -> {
        startNanos.compareAndSet(Long.MIN_VALUE, System.nanoTime() + TRACE_LEAD_NANOS);
        long n = index.getAndIncrement();
        double at = times.get((int) (n % times.size()));
        Map<String, Object> r = new LinkedHashMap<>(FeederRecords.of(d.request(n, null)));
        r.put(TRACE_MICROS, Math.round(at * 1e6));
        r.put(TRACE_START_NANOS, startNanos.get());
        return r;
      }).iterator();
    }
    // a user may send several requests: the last record's keys go first, so a prompt record never
    // keeps the messages (or profile) of the one before
    return exec(session -> session.removeAll(FEEDER_KEYS)).feed(records).exec(group(phase.level()).on(inner));
  }

  /**
   * Gets a trace phase's requests ready ({@link StreamCapture#ready}): a request of the warmup's
   * seed fed and built as the phase's are, and a connection from each event loop.
   */
  private ChainBuilder ready(Phase phase) {
    Iterator<Map<String, Object>> records = Stream.generate(() -> FeederRecords.of(warmupDataset.request(0, null))).iterator();
    return exec(session -> session.removeAll(FEEDER_KEYS)).feed(records).exec(capture.ready(this::bodyOf));
  }

  /**
   * The trace's clock starts this long after its first request is fed, so each request, the first
   * too, reaches its send action before its time and waits there (Gatling injects user n at its
   * time from the phase's start). Measured on a busy 2-core machine: the first user took 12-22 ms
   * from its start to that wait, and Gatling's ticks and timers started some users up to 64 ms late.
   */
  static final long TRACE_LEAD_NANOS = 250_000_000L;

  private static final String TRACE_MICROS = Populations.SEND_AT_MICROS;
  private static final String TRACE_START_NANOS = Populations.SEND_CLOCK_START_NANOS;

  private static final String[] FEEDER_KEYS = {
    FeederRecords.PROMPT, FeederRecords.MESSAGES, FeederRecords.MAX_TOKENS, FeederRecords.PROFILE, FeederRecords.INPUT_TOKENS
  };

  /** Requests {@code index}, {@code index + 1}, ... of a dataset (of one profile, or any) as feeder records. */
  private Iterator<Map<String, Object>> feederOf(io.github.llmbench.workload.Dataset d, AtomicLong index, String profile) {
    return Stream.generate(() -> feederRecord(d.request(datasetIndex(index.getAndIncrement()), profile))).iterator();
  }

  /**
   * A request as a feeder record; with a local tokenizer, a prompt of unknown length (a file's)
   * counted, once per prompt: a file's requests come round again, and the count runs as the
   * request is fed.
   */
  private Map<String, Object> feederRecord(io.github.llmbench.workload.RequestSpec spec) {
    Map<String, Object> r = FeederRecords.of(spec);
    if (localTokenizer != null && spec.promptTokens() < 0) {
      r = new LinkedHashMap<>(r);
      r.put(FeederRecords.INPUT_TOKENS, promptCounts.computeIfAbsent(spec, s -> localTokenizer.countText(s.promptText())));
    }
    return r;
  }

  /** A local tokenizer's counts of the dataset's prompts of unknown length. */
  private final java.util.concurrent.ConcurrentHashMap<io.github.llmbench.workload.RequestSpec, Integer> promptCounts =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The prompt's tokens the feeder record knows (a random prompt's, or counted by a local tokenizer). */
  private static Integer countedInputTokens(Session s) {
    if (!s.contains(FeederRecords.INPUT_TOKENS)) {
      return null;
    }
    Object v = s.get(FeederRecords.INPUT_TOKENS);
    return v instanceof Number n && n.intValue() >= 0 ? n.intValue() : null;
  }

  /**
   * A capacity search's load: probes of the concurrency (or request rate) {@link CapacitySearch}
   * picks from the probes before, each for {@code -Dduration} s, judged when it has drained: a
   * concurrency on its steady window (its whole level where it has none), a rate on its whole
   * level, as vLLM's goodput at a request rate is.
   */
  private PopulationBuilder searchLoad(BenchSettings.Search s) {
    CapacitySearch search = new CapacitySearch(s.min(), s.max(), s.precision(), !s.rate());
    List<CapacitySearch.Objective> objectives = new ArrayList<>();
    s.objectives().forEach((m, l) -> objectives.add(new CapacitySearch.Objective(m, l)));
    List<CapacitySearch.Probe> probes = java.util.Collections.synchronizedList(new ArrayList<>());
    long budgetMs = s.budgetMinutes() * 60_000L;
    int duration = settings.load().durationSeconds();
    AtomicLong started = new AtomicLong();
    runEnd.searchResult(() -> search.verdict(List.copyOf(probes)));
    java.util.function.DoubleSupplier next = () -> {
      started.compareAndSet(0, System.currentTimeMillis());
      if (!probes.isEmpty() && System.currentTimeMillis() - started.get() + duration * 1000L > budgetMs) {
        return 0; // the next probe would not end within the budget
      }
      return search.next(List.copyOf(probes)).orElse(0);
    };
    java.util.function.DoubleConsumer drained = load -> {
      String level = s.rate() ? LoadPlan.openLevel(load) : LoadPlan.closedLevel((int) load);
      RunAnalysis.Level l = runEnd.levelDrained(level); // the analysis printed is the one judged
      probes.add(CapacitySearch.judge(load, l == null ? Map.of() : probeFigures(l, !s.rate()), objectives));
    };
    ChainBuilder request = capture.request(session -> session.getString(CapacityProbes.LEVEL),
        LlmBench::profileOf, this::bodyOf, this::originOf, LlmBench::sendAt);
    ChainBuilder one = exec(session -> session.removeAll(FEEDER_KEYS))
        .feed(feederOf(dataset, measuredIndex, null))
        .exec(group("#{" + CapacityProbes.LEVEL + "}").on(request));
    int slots = CapacityProbes.slots(s.min(), s.max(), s.precision());
    BenchSettings.Load load = settings.load();
    PopulationBuilder probeChain = s.rate()
        ? CapacityProbes.open(slots, CapacityProbes.maxRequests(s.max(), duration, load.burstiness()), duration,
            load.burstiness(), load.maxConc().orElse(0), settings.workload().seed(), one, next, drained)
        : CapacityProbes.closed(slots, (int) s.max(), duration, one, () -> (int) next.getAsDouble(), c -> drained.accept(c));
    // the warmup (-Dwarmup.prompts, the search's only planned phase) first; the budget counts from the first probe
    return phases.isEmpty() ? probeChain
        : Populations.chain(phases, this::oneRequest, runEnd::levelDrained, settings.workload().seed()).andThen(probeChain);
  }

  /** A probe's figures under the gates' names; with {@code steadyWindow}, TTFT and TPOT of its steady window where it has one. */
  private static Map<String, Double> probeFigures(RunAnalysis.Level l, boolean steadyWindow) {
    Map<String, Double> f = new LinkedHashMap<>(io.github.llmbench.gates.GateCheck.figures(l, -1));
    if (steadyWindow && l.steady().reached()) {
      for (String metric : List.of("ttft", "tpot")) {
        io.github.llmbench.analysis.LatencyStats st = metric.equals("ttft") ? l.steady().ttft() : l.steady().tpot();
        if (st.count() > 0) {
          f.put(metric + ".mean", st.mean());
          f.put(metric + ".median", st.median());
          f.put(metric + ".p90", st.p90());
          f.put(metric + ".p99", st.p99());
        }
      }
    }
    return f;
  }

  /**
   * The run's request number of this injector's k-th request: injector i of N sends i, i + N,
   * i + 2N, ..., so no two injectors send the same request (and one alone sends 0, 1, 2, ...).
   */
  private long datasetIndex(long k) {
    return k * settings.injector().count() + settings.injector().index();
  }

  /** The request's origin, with this injector when several share the load. */
  private RequestOrigin originOf(Session s) {
    RequestOrigin origin = workloadOrigin(s);
    return settings.injector().sharded() ? RequestOrigin.fromInjector(origin, settings.injector().index()) : origin;
  }

  /** When a request with a set send time (a trace's, a rate probe's) is due, as {@link System#nanoTime()}. */
  private static long sendAt(Session s) {
    return s.contains(TRACE_MICROS) ? s.getLong(TRACE_START_NANOS) + s.getLong(TRACE_MICROS) * 1000 : StreamCapture.SEND_NOW;
  }

  /** Called as the request is sent (its body built): a trace request's send time is taken here. */
  private static RequestOrigin workloadOrigin(Session s) {
    if (s.contains(TRACE_MICROS)) {
      long sentNanos = System.nanoTime() - s.getLong(TRACE_START_NANOS);
      return RequestOrigin.trace(s.getLong(TRACE_MICROS), Math.round(sentNanos / 1e3));
    }
    return Conversations.originOf(s);
  }

  private static String profileOf(Session s) {
    return s.contains(FeederRecords.PROFILE) ? String.valueOf((Object) s.get(FeederRecords.PROFILE)) : null;
  }

  private String bodyOf(Session s) {
    return body(FeederRecords.read(name -> s.contains(name) ? s.get(name) : null, settings.outputLen()));
  }

  /**
   * Prompts to make before the load for the measured phases (or the warmup): each phase's {@code
   * prompts}, or for a phase that runs for a time, a pool of {@value #POOL_PER_SLOT} per request
   * in flight (open model: the expected arrivals + 20%); for a search's probes, the largest
   * one's pool; at most {@value #MAX_PREPARED}.
   */
  private int plannedRequests(boolean warmup) {
    long n = 0;
    if (!warmup && settings.search().isPresent()) { // the largest probe's, used in turn by every probe
      BenchSettings.Search s = settings.search().get();
      n = s.rate() ? (long) Math.ceil(s.max() * settings.load().durationSeconds() * 1.2) : (long) s.max() * POOL_PER_SLOT;
    }
    for (Phase p : phases) {
      if (p.warmup() != warmup) {
        continue;
      }
      if (p.prompts().isPresent()) {
        n += p.prompts().getAsInt();
      } else if (p.open()) {
        n += (long) Math.ceil(p.rate() * p.durationSeconds() * 1.2);
      } else {
        n += (long) p.conc() * POOL_PER_SLOT;
      }
    }
    return (int) Math.min(n * settings.workload().turns(), MAX_PREPARED);
  }

  static final int POOL_PER_SLOT = 8;
  static final int MAX_PREPARED = 10_000;

  /**
   * Checks that the longest request fits the server's context before any load.
   *
   * @return the start line about the context
   * @throws TargetException naming both numbers when it does not fit
   */
  private String checkContext(ServerTokenizer tokenizer, int templateTokens) {
    java.util.Optional<ServerApi.ContextLength> context = target.api().contextLength(target.model());
    if (context.isEmpty()) {
      return "unknown (the server tells no context length): requests are not checked against it";
    }
    ServerApi.ContextLength c = context.get();
    java.util.Optional<ContextFit.Longest> longest =
        ContextFit.longest(dataset.longestRequests(), tokenizer, templateTokens, settings.requestOptions().maxTokens());
    if (longest.isEmpty()) {
      return c.tokens() + " tokens per request (" + c.source() + "); the longest request was not counted (no tokenizer)";
    }
    BenchSettings.Workload w = settings.workload();
    if (w.multiTurn() && w.dataset() != Dataset.FILE) {
      // the last turn carries every earlier turn and its answer (at most max_tokens each)
      ContextFit.Longest one = longest.get();
      ContextFit.Longest last = new ContextFit.Longest(w.turns() * one.promptTokens() + (w.turns() - 1) * one.maxTokens(), one.maxTokens());
      ContextFit.problem(last, c.tokens(), c.source()).ifPresent(message -> {
        throw new TargetException(message.replace("The longest request", "The last turn of a conversation (-Dturns=" + w.turns() + ")")
            .replace("lower -Dinput.len", "lower -Dturns, -Dinput.len"));
      });
      return c.tokens() + " tokens per request (" + c.source() + "); the last turn of a conversation needs up to " + last.total();
    }
    ContextFit.problem(longest.get(), c.tokens(), c.source()).ifPresent(message -> {
      throw new TargetException(message);
    });
    return c.tokens() + " tokens per request (" + c.source() + "); the longest request needs " + longest.get().total()
        + (w.multiTurn() ? " (a turn; later turns also carry the conversation so far)" : "");
  }

  private String body(RequestSpec spec) {
    return bodies.streaming(spec);
  }

  /**
   * Makes the token-ids prompts, before the load (as many as the run sends when it sends a fixed
   * number, else a pool used in turn; the other methods make theirs on the fly), and returns the
   * start line about the prompts: the method that makes their lengths exact and how exact they
   * came out.
   */
  private String preparePrompts(BenchSettings.Workload w, String why) {
    if (w.dataset() == Dataset.PROFILES) {
      return "profiles " + w.profiles() + (w.profilesMixed() ? ", mixed" : ", in order") + ": " + ((ProfilesDataset) dataset).names();
    }
    if (w.dataset() == Dataset.FILE) {
      return ((FileDataset) dataset).size() + " requests in " + w.file().get();
    }
    if (dataset instanceof TraceDataset replay) {
      return String.format(Locale.ROOT, "%d requests over %.1f s of trace (sent over %.1f s), %d distinct blocks of %d tokens; %s",
          replay.size(), replay.spanMs() / 1000, replay.spanMs() / 1000 / w.traceSpeed(), replay.distinctBlocks(),
          TraceDataset.BLOCK_TOKENS, why);
    }
    RandomDataset random = (RandomDataset) dataset;
    String method = "method: " + (localTokenizer == null ? random.describeMethod()
        : random.describeMethod().replace("the server's ", "the local tokenizer's ").replace("by the server", "by the local tokenizer"));
    return switch (random.method()) {
      case ESTIMATE -> method + " (" + why + "): input tokens are reported from the server's usage";
      case WORDS -> method + "; " + why;
      case TOKEN_IDS -> {
        long startNanos = System.nanoTime();
        int measured = plannedRequests(false);
        out.println("gatling-llm-bench: making " + measured + " prompts of exact length with the "
            + (localTokenizer == null ? "server's" : "local") + " tokenizer...");
        int worst = random.prepare(measured);
        RandomDataset worstMade = random;
        int warmup = plannedRequests(true);
        if (warmup > 0 && ((RandomDataset) warmupDataset).prepare(warmup) > worst) {
          worstMade = (RandomDataset) warmupDataset;
        }
        boolean pool = settings.search().isPresent() || phases.stream().filter(p -> !p.warmup()).anyMatch(p -> p.prompts().isEmpty());
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        yield method + " (" + why + "); " + measured + (warmup > 0 ? " + " + warmup + " warmup" : "")
            + String.format(Locale.ROOT, " prompts made before the load in %.1f s", seconds)
            + (pool ? ", then used in turn (a server's prefix cache serves repeats: -Dprompts=N makes one per request)" : "")
            + ": " + worstMade.preparedExactness();
      }
    };
  }

  private void printSettings() {
    out.println("gatling-llm-bench settings:");
    Map<String, String> shown = new LinkedHashMap<>(settings.describe());
    shown.put("base.url", target.baseUrl() + (target.embedded() ? " (embedded vLLM simulator)" : ""));
    shown.put("model", target.model());
    shown.putAll(datasetNotes);
    if (target.api().closesConnectionAfterStream()) {
      shown.put("connections", "a new one per request (" + target.api().serverHeader().orElse("")
          + " closes the connection after each stream)");
    }
    shown.forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
  }

  /** Ends the run: summaries, gates, files (see {@link RunEnd#finish()}); stops the simulator. */
  public void finish() {
    try {
      runEnd.finish();
    } finally {
      target.close();
    }
  }

  /** The gates' results of this run (empty before {@link #finish()} or without gates). */
  public List<GateResult> gateResults() {
    return runEnd.gateResults();
  }
}
