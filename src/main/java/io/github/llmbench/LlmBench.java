package io.github.llmbench;

import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GatlingAssertions;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.injection.RequestChains;
import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SettingsTable;
import io.github.llmbench.telemetry.MetricsScraper;
import io.github.llmbench.telemetry.MetricsSetup;
import io.github.llmbench.workload.DatasetException;
import io.github.llmbench.workload.FeederRecords;
import io.github.llmbench.workload.PreparedWorkload;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

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

  /**
   * The dataset and the warmup's; makes the prompts made before the load, once, by {@link
   * #prepared()}.
   */
  private final PreparedWorkload workload;

  /**
   * Start lines known before the load is prepared: the tokenizer, the chat template, the metrics.
   */
  private final Map<String, String> startNotes;

  private final boolean exitOnProblem;
  private final List<Phase> phases;
  private final RequestChains chains;

  /** The capacity search (-Dsearch) that picks the probes of {@link #load()}, if any. */
  private final Optional<CapacitySearchRun> search;

  private final RunEnd runEnd;
  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  private LlmBench(BenchSettings settings, boolean exitOnProblem) {
    this.settings = settings;
    // the gates file and the baseline are read first: a bad one costs nothing
    this.gates = RunGates.of(settings);
    this.exitOnProblem = exitOnProblem;
    RunRecorder recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs, out));
    // the dataset's file and a local tokenizer are read before the server is asked anything: a bad
    // path costs nothing
    PreparedWorkload.Sources sources = PreparedWorkload.Sources.read(settings);
    this.target = Target.resolve(settings);
    MetricsScraper scraper;
    try {
      this.workload = PreparedWorkload.forServer(settings, sources, target.workloadServer(), out);
      this.phases =
          workload.traceSendTimes().isPresent()
              ? LoadPlan.trace(settings.load(), workload.traceSendTimes().get())
              : settings.search().isPresent()
                  ? LoadPlan.search(settings.load())
                  : LoadPlan.of(
                      settings.load(), workload.sequentialProfiles(), settings.injector());
      RooflineInputs roofline = RooflineInputs.of(settings, target);
      MetricsSetup metrics =
          MetricsSetup.of(
              target.baseUrl(),
              settings.requestOptions().headers(),
              settings.apiKey(),
              settings.metrics().urls(),
              settings.metrics().intervalSeconds(),
              recorder::directory,
              out);
      scraper = metrics.scraper();
      Map<String, String> notes = new LinkedHashMap<>(workload.startNotes());
      notes.put("metrics", metrics.note());
      this.startNotes = Collections.unmodifiableMap(notes);
      this.search =
          settings
              .search()
              .map(
                  s ->
                      new CapacitySearchRun(
                          s, settings.load().durationSeconds(), System::currentTimeMillis));
      this.runEnd =
          new RunEnd(
              settings,
              gates,
              target,
              phases,
              recorder,
              roofline,
              this::serverChecks,
              scraper,
              () -> search.flatMap(CapacitySearchRun::verdict),
              out);
      this.chains = RequestChains.forRun(settings, target, workload, recorder);
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
   * What was found before the load, for summary.json: the start lines, then the preparation's once
   * it has run.
   */
  private Map<String, String> serverChecks() {
    Map<String, String> checks = new LinkedHashMap<>(startNotes);
    checks.putAll(workload.preparedNotes());
    return Collections.unmodifiableMap(checks);
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
      System.out.print(SettingsTable.help());
      System.out.flush();
      Runtime.getRuntime().halt(0);
    }
    Set<String> own = Set.of(simulationOwnProperties);
    return orExit(() -> new LlmBench(BenchSettings.fromSystem(own), true));
  }

  /** The value, or on a bad setting, dataset or unusable server one line and the end of the JVM. */
  private static <T> T orExit(Supplier<T> step) {
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
   * sends the dataset's requests does it, before any load. On a problem the JVM ends as in {@link
   * #start()} (tests that {@link #create} keep the exception).
   */
  private synchronized void prepared() {
    PreparedWorkload.PlannedRequests planned =
        LoadPlan.planned(
            phases,
            settings.search(),
            settings.load().durationSeconds(),
            settings.workload().turns());
    Map<String, String> added =
        exitOnProblem ? orExit(() -> workload.prepare(planned)) : workload.prepare(planned);
    added.forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
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
   * The streaming requests go through this protocol's HTTP client; their headers (API key, {@code
   * Connection: close} for llama-server) are set by the kit's action.
   */
  public HttpProtocolBuilder http() {
    return http.baseUrl(target.baseUrl().toString()).shareConnections().disableWarmUp();
  }

  /**
   * The whole load the settings describe: warmup, then each level, each drained before the next.
   */
  public PopulationBuilder load() {
    prepared();
    if (search.isPresent()) {
      return search
          .get()
          .load(settings.load(), settings.workload().seed(), chains, phases, runEnd::levelDrained);
    }
    List<OptionalLong> starts =
        LoadPlan.starts(phases, settings.injector(), settings.load().durationSeconds());
    return Populations.chain(
        phases,
        starts,
        chains::oneRequest,
        chains::ready,
        runEnd::levelDrained,
        settings.workload().seed());
  }

  /**
   * A closed-model level for simulations that write their own injection: one virtual user sends one
   * request, in the group {@code c<conc>}; e.g. {@code
   * bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(60))}.
   */
  public ScenarioBuilder closedLevel(int conc) {
    prepared();
    // the simulation's own injection decides how long it runs: no count, no duration of the kit's
    Phase phase = new Phase.Closed(Level.closed(conc), null, conc, OptionalInt.empty(), 0, true);
    return scenario(phase.scenarioName()).exec(chains.oneRequest(phase));
  }

  /**
   * The configured dataset (random, profiles or a file) as a Gatling feeder: one record per request
   * ({@link FeederRecords}: {@code prompt} or {@code messages}, {@code max_tokens}, {@code
   * profile}, {@code input_tokens}), endless (a file starts over), for {@code
   * feed(bench.feeder())}.
   */
  public Iterator<Map<String, Object>> feeder() {
    prepared();
    return chains.feeder();
  }

  /**
   * One streamed request built from the session, for any scenario: its {@code prompt} or {@code
   * messages}, {@code max_tokens} (else {@code -Doutput.len}) and optional {@code profile}, e.g.
   * from {@code feed(csv("my-prompts.csv"))}; with the kit's capture, records, result blocks and
   * gates. Its level is the enclosing Gatling group, else the scenario's name. A record with
   * neither prompt nor messages fails that request, with the reason.
   */
  public ChainBuilder stream() {
    return chains.stream();
  }

  /**
   * The run's hard stop ({@link LoadPlan#maxDuration}): every phase's own limit, and a search's
   * budget.
   */
  public Duration maxDuration() {
    return LoadPlan.maxDuration(
        phases,
        settings.timeoutSeconds(),
        settings.search().map(x -> x.budgetMinutes() * 60L).orElse(0L));
  }

  /**
   * The gates Gatling can check, as Gatling assertions on the kit's records ({@link
   * GatlingAssertions}: {@code failed.pct} and the latencies Gatling's stats hold, by default E2EL
   * as the request record's response time), so Gatling's report and exit status show them too. Give
   * them to {@code setUp(...).assertions(...)}. Profile runs nest records one group deeper: there
   * only the kit checks them. A capacity search plans no level (its probes are chosen as it runs):
   * it gets none.
   */
  public List<Assertion> assertions() {
    if (settings.workload().dataset() == DatasetKind.PROFILES) {
      return List.of();
    }
    List<String> levels =
        phases.stream()
            .map(Phase::level)
            .filter(Level::measured)
            .map(Level::tag)
            .distinct()
            .toList();
    Map<Metric, String> records = new EnumMap<>(Metric.class);
    settings.gatlingRecords().metrics().forEach(m -> records.put(m, StreamCapture.recordName(m)));
    return GatlingAssertions.of(
        gates.set().gates(),
        levels,
        gates.baselineFigures(),
        StreamCapture.REQUEST_RECORD,
        records);
  }

  private void printSettings() {
    out.println("gatling-llm-bench settings:");
    Map<String, String> shown = new LinkedHashMap<>(settings.describe(gates.describe()));
    shown.put(
        "base.url", target.baseUrl() + (target.embedded() ? " (embedded vLLM simulator)" : ""));
    shown.put("model", target.model());
    shown.putAll(startNotes);
    if (target.api().closesConnectionAfterStream()) {
      shown.put(
          "connections",
          "a new one per request ("
              + target.api().serverHeader().orElse("")
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
