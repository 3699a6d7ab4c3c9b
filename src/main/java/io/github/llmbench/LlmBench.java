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
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.LevelFigures;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.gates.GatlingAssertions;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.core.Level;
import io.github.llmbench.injection.CapacityProbes;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.workload.Dataset;
import io.github.llmbench.workload.DatasetException;
import io.github.llmbench.workload.LocalTokenizer;
import io.github.llmbench.workload.PreparedWorkload;
import io.github.llmbench.workload.RequestBodies;
import io.github.llmbench.workload.RequestSpec;
import io.github.llmbench.workload.ServerTokenizer;
import io.github.llmbench.injection.ServerApi;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Iterator;
import java.util.stream.Stream;
import io.github.llmbench.workload.FeederRecords;
import io.github.llmbench.telemetry.MetricsScraper;
import io.github.llmbench.injection.Conversations;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.analysis.RunAnalysis;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import io.github.llmbench.records.RunFiles;

/**
 * What a simulation needs to load an LLM server: the settings, the server (the embedded simulator
 * when none is given), the dataset, the load plan, and the summaries.
 *
 * <p>Simulations stay thin: they create one of these, set up {@link #load()} (or their own
 * injection of {@link #closedLevel(int)}), and call {@link #finish()} from {@code after()}.
 */
public final class LlmBench {

  /** Exit status for a bad setting or an unusable server (Gatling uses 1 and 2 itself). */
  public static final int EXIT_BAD_INPUT = 3;

  private final BenchSettings settings;
  private final RunGates gates;
  private final Target target;
  /** The dataset and the warmup's; makes the prompts made before the load, once, by {@link #prepared()}. */
  private final PreparedWorkload workload;
  private final Dataset dataset;
  private final Dataset warmupDataset;
  /** Start lines known before the load is prepared: the tokenizer, the chat template, the metrics. */
  private final Map<String, String> startNotes;
  private final boolean exitOnProblem;
  private final RunRecorder recorder;
  private final StreamCapture capture;
  private final List<Phase> phases;
  private final ModelSpec rooflineModel;
  private final GpuSpec rooflineGpu;
  private final RunEnd runEnd;
  private final RequestBodies bodies;
  private final MetricsScraper scraper;
  private final AtomicLong measuredIndex = new AtomicLong();
  private final AtomicLong warmupIndex = new AtomicLong();
  private final AtomicLong conversationIds = new AtomicLong();
  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  private LlmBench(BenchSettings settings, boolean exitOnProblem) {
    this.settings = settings;
    // the gates file and the baseline are read first: a bad one costs nothing
    this.gates = RunGates.of(settings);
    this.exitOnProblem = exitOnProblem;
    this.recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs, out));
    BenchSettings.Workload w = settings.workload();
    // the dataset's file and a local tokenizer are read before the server is asked anything: a bad path costs nothing
    PreparedWorkload.Sources sources = PreparedWorkload.Sources.read(settings);
    this.target = Target.resolve(settings);
    this.bodies = new RequestBodies(settings.api(), target.model(), settings.requestOptions().extraBody());
    try {
      this.workload = PreparedWorkload.forServer(settings, sources, workloadServer(target), out);
      this.dataset = workload.dataset();
      this.warmupDataset = workload.warmupDataset();
      this.phases = workload.traceSendTimes().isPresent()
          ? LoadPlan.trace(settings.load(), workload.traceSendTimes().get())
          : settings.search().isPresent() ? LoadPlan.search(settings.load())
          : LoadPlan.of(settings.load(), workload.sequentialProfiles(), settings.injector());
      Map<String, String> notes = new LinkedHashMap<>(workload.startNotes());
      this.rooflineModel = rooflineModel(settings, target);
      this.rooflineGpu = rooflineGpu(settings, target);
      this.scraper = metricsScraper(notes);
      this.startNotes = Collections.unmodifiableMap(notes);
      this.runEnd = new RunEnd(settings, gates, target, phases, recorder, rooflineModel, rooflineGpu, this::serverChecks, scraper, out);
      LocalTokenizer localTokenizer = workload.localTokenizer().orElse(null);
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

  /** The server as the workload asks it before the load: its tokenizer, chat template and context. */
  private static PreparedWorkload.Server workloadServer(Target target) {
    ServerApi api = target.api();
    String model = target.model();
    return new PreparedWorkload.Server() {
      @Override
      public ServerTokenizer tokenizer() {
        return api.tokenizer(model);
      }

      @Override
      public OptionalInt chatTemplateTokens(ServerTokenizer tokenizer, String content) {
        return api.chatTemplateTokens(model, tokenizer, content);
      }

      @Override
      public Optional<PreparedWorkload.ContextLength> contextLength() {
        return api.contextLength(model).map(c -> new PreparedWorkload.ContextLength(c.tokens(), c.source()));
      }
    };
  }

  /** What was found before the load, for summary.json: the start lines, then the preparation's once it has run. */
  private Map<String, String> serverChecks() {
    Map<String, String> checks = new LinkedHashMap<>(startNotes);
    checks.putAll(workload.preparedNotes());
    return Collections.unmodifiableMap(checks);
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
            RunFiles.LLM_FOLDER, RunFiles.SERVER_METRICS)));
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
    PreparedWorkload.PlannedRequests planned = new PreparedWorkload.PlannedRequests(
        plannedRequests(false), plannedRequests(true), LoadPlan.reusesPlannedRequests(phases, settings.search()));
    Map<String, String> added = exitOnProblem ? orExit(() -> workload.prepare(planned)) : workload.prepare(planned);
    added.forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
  }

  /** Requests of the measured phases (or the warmup) to make prompts for before the load. */
  private int plannedRequests(boolean warmup) {
    return LoadPlan.plannedRequests(phases, settings.search(), settings.load().durationSeconds(), settings.workload().turns(), warmup);
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
    return Level.closed(conc).tag();
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
    List<OptionalLong> starts = LoadPlan.starts(phases, settings.injector(), settings.load().durationSeconds());
    return Populations.chain(phases, starts, this::oneRequest, this::ready, runEnd::levelDrained, settings.workload().seed());
  }

  /**
   * A closed-model level for simulations that write their own injection: one virtual user sends
   * one request, in the group {@code c<conc>}; e.g. {@code
   * bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(60))}.
   */
  public ScenarioBuilder closedLevel(int conc) {
    prepared();
    // the simulation's own injection decides how long it runs: no count, no duration of the kit's
    Phase phase = new Phase.Closed(Level.closed(conc), null, conc, OptionalInt.empty(), 0, true);
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
    if (settings.workload().dataset() == DatasetKind.PROFILES) {
      return List.of();
    }
    List<String> levels = phases.stream().map(Phase::level).filter(Level::measured).map(Level::tag).distinct().toList();
    Map<Metric, String> records = new EnumMap<>(Metric.class);
    settings.gatlingRecords().metrics().forEach(m -> records.put(m, StreamCapture.recordName(m)));
    return GatlingAssertions.of(gates.set().gates(), levels, gates.baselineFigures(), StreamCapture.REQUEST_RECORD, records);
  }

  /**
   * One request of {@code phase}, inside its level's group and, in profile runs, its profile's;
   * in multi-turn runs, one conversation of such requests.
   */
  private ChainBuilder oneRequest(Phase phase) {
    String level = phase.level().tag();
    ChainBuilder request = capture.request(s -> level, LlmBench::profileOf, this::bodyOf, this::originOf, LlmBench::sendAt);
    boolean profiles = settings.workload().dataset() == DatasetKind.PROFILES;
    ChainBuilder inner = profiles ? exec(group("#{" + FeederRecords.PROFILE + "}").on(request)) : request;
    boolean measured = phase.level().measured();
    Dataset d = measured ? dataset : warmupDataset;
    AtomicLong index = measured ? measuredIndex : warmupIndex;
    BenchSettings.Workload w = settings.workload();
    if (w.multiTurn()) {
      Iterator<Map<String, Object>> conversations = Stream.generate(() -> {
        long n = datasetIndex(index.getAndIncrement());
        List<Map<String, Object>> turns = d.conversation(n, phase.profile(), w.turns()).stream().map(workload::feederRecord).toList();
        return Conversations.record("conv-" + conversationIds.incrementAndGet(), turns);
      }).iterator();
      return Conversations.of(conversations, exec(group(level).on(inner)), Duration.ofMillis(Math.round(w.thinkSeconds() * 1000)));
    }
    Iterator<Map<String, Object>> records = feederOf(d, index, phase.profile());
    if (phase instanceof Phase.Trace trace) {
      // each record carries its send time: the request is built, then sent at it, and its record
      // tells how late it went; send times count from the replay's first feed plus the lead
      List<Double> times = trace.sendTimes();
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
    return exec(session -> session.removeAll(FEEDER_KEYS)).feed(records).exec(group(level).on(inner));
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
  private Iterator<Map<String, Object>> feederOf(Dataset d, AtomicLong index, String profile) {
    return Stream.generate(() -> workload.feederRecord(d.request(datasetIndex(index.getAndIncrement()), profile))).iterator();
  }

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
    s.objectives().forEach((f, l) -> objectives.add(new CapacitySearch.Objective(f, l)));
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
    BiConsumer<Level, Double> drained = (level, load) -> {
      RunAnalysis.Level l = runEnd.levelDrained(level); // the analysis printed is the one judged
      probes.add(CapacitySearch.judge(load, l == null ? Map.of() : probeFigures(l, !s.rate()).slo(), objectives));
    };
    ChainBuilder request = capture.request(session -> CapacityProbes.levelOf(session).tag(),
        LlmBench::profileOf, this::bodyOf, this::originOf, LlmBench::sendAt);
    ChainBuilder one = exec(session -> session.removeAll(FEEDER_KEYS))
        .feed(feederOf(dataset, measuredIndex, null))
        .exec(group(session -> CapacityProbes.levelOf(session).tag()).on(request));
    int slots = CapacityProbes.slots(s.min(), s.max(), s.precision());
    BenchSettings.Load load = settings.load();
    PopulationBuilder probeChain = s.rate()
        ? CapacityProbes.open(slots, CapacityProbes.maxRequests(s.max(), duration, load.burstiness()), duration,
            load.burstiness(), load.maxConc().orElse(0), settings.workload().seed(), one, next, probe -> drained.accept(probe, probe.rate()))
        : CapacityProbes.closed(slots, (int) s.max(), duration, one, () -> (int) next.getAsDouble(),
            probe -> drained.accept(probe, (double) probe.conc()));
    // the warmup (-Dwarmup.prompts, the search's only planned phase) first; the budget counts from the first probe
    return phases.isEmpty() ? probeChain
        : Populations.chain(phases, this::oneRequest, runEnd::levelDrained, settings.workload().seed()).andThen(probeChain);
  }

  /** A probe's figures; with {@code steadyWindow}, TTFT and TPOT of its steady window where it has one. */
  private static LevelFigures probeFigures(RunAnalysis.Level l, boolean steadyWindow) {
    LevelFigures f = LevelFigures.of(l, OptionalLong.empty());
    return steadyWindow && l.steady().reached()
        ? f.withLatency(Metric.TTFT, l.steady().ttft()).withLatency(Metric.TPOT, l.steady().tpot()) : f;
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

  private String body(RequestSpec spec) {
    return bodies.streaming(spec);
  }

  private void printSettings() {
    out.println("gatling-llm-bench settings:");
    Map<String, String> shown = new LinkedHashMap<>(settings.describe(gates.describe()));
    shown.put("base.url", target.baseUrl() + (target.embedded() ? " (embedded vLLM simulator)" : ""));
    shown.put("model", target.model());
    shown.putAll(startNotes);
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
