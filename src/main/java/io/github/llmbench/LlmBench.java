package io.github.llmbench;

import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.llmbench.capture.ClientProbe;
import io.github.llmbench.core.Level;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GatlingAssertions;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.injection.RequestChains;
import io.github.llmbench.injection.ServerControl;
import io.github.llmbench.injection.Target;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.telemetry.LiveExport;
import io.github.llmbench.telemetry.LiveMetrics;
import io.github.llmbench.telemetry.OtlpExport;
import io.github.llmbench.workload.FeederRecords;
import io.github.llmbench.workload.PreparedWorkload;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

  /** The dataset and the warmup's; its prompts are made before the load by {@link #prepared()}. */
  private final PreparedWorkload workload;

  /** What was found about the server before the load, and the metrics scraper it set up. */
  private final ServerChecks serverChecks;

  private final boolean exitOnBadInput;
  private final List<Phase> phases;
  private final RequestChains chains;

  /** The kit's own calls to the server between levels: the profiler, the prefix cache's reset. */
  private final ServerControl control;

  /** The capacity search (-Dsearch) that picks the probes of {@link #load()}, if any. */
  private final Optional<CapacitySearchRun> search;

  /** The interleaved A/B run (-Dcandidate.url) that picks the trials of {@link #load()}, if any. */
  private final Optional<AbRun> ab;

  /** The requests to an A/B run's server B; empty for other runs. */
  private final Optional<RequestChains> candidateChains;

  private final RunEnd runEnd;

  /** The live Prometheus endpoint ({@code -Dexport.prometheus}), if asked. */
  private final Optional<LiveExport> export;

  /** The OTLP push ({@code -Dexport.otlp}), if asked. */
  private final Optional<OtlpExport> otlp;

  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  private LlmBench(BenchSettings settings, boolean exitOnBadInput) {
    this.settings = settings;
    this.exitOnBadInput = exitOnBadInput;
    // the gates, the dataset's file and a local tokenizer are read before the server is asked
    // anything: a bad one costs nothing
    RunGates parsedGates = RunGates.of(settings);
    RunHistory history = RunHistory.of(settings);
    RunRecorder recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs, out));
    ClientProbe clientProbe = new ClientProbe(recorder::directory);
    PreparedWorkload.Sources sources = PreparedWorkload.Sources.read(settings);
    this.target = Target.resolve(settings, out);
    try {
      this.workload = PreparedWorkload.forServer(settings, sources, target.workloadServer(), out);
      this.phases =
          LoadPlan.forRun(settings, workload.traceSendTimes(), workload.sequentialProfiles());
      RooflineInputs roofline = RooflineInputs.of(settings, target);
      this.control = ServerControl.of(target, settings, out);
      this.serverChecks =
          ServerChecks.of(settings, target, workload, control, recorder::directory, out);
      this.search = CapacitySearchRun.forRun(settings);
      history = history.forKey(RunHistory.key(settings, target, phases, parsedGates));
      this.gates = parsedGates.withNoise(history.noise(parsedGates.set().needsBaseline(), out));
      this.ab = AbRun.forRun(settings, gates, target, phases, recorder, out);
      this.runEnd =
          new RunEnd(
              settings,
              gates,
              target,
              phases,
              recorder,
              roofline,
              serverChecks,
              serverChecks.scraper(),
              clientProbe,
              () -> search.flatMap(CapacitySearchRun::verdict),
              history,
              ab,
              out);
      this.chains = RequestChains.forRun(settings, target, workload, recorder, clientProbe);
      this.candidateChains =
          ab.map(
              r ->
                  RequestChains.forCandidate(
                      settings, target, r.candidate(), workload, recorder, clientProbe));
      this.export = liveExport(settings, target, recorder, clientProbe);
      this.otlp = otlpExport(settings, target, recorder, clientProbe, out);
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
    StartLines.print(out, settings, gates, target, serverChecks.startNotes());
    export.ifPresent(
        e -> out.println("gatling-llm-bench: live figures (Prometheus text) at " + e.url()));
    serverChecks.startScraper();
  }

  /** The live export of {@code -Dexport.prometheus}, fed by the recorder, or empty. */
  private static Optional<LiveExport> liveExport(
      BenchSettings settings, Target target, RunRecorder recorder, ClientProbe clientProbe) {
    return settings
        .export()
        .prometheus()
        .map(
            address -> {
              LiveMetrics metrics =
                  new LiveMetrics(
                      Map.of("model", target.model(), "endpoint", settings.server().api().id()));
              recorder.listen(metrics);
              clientProbe.listen(metrics::clientSample);
              try {
                return LiveExport.start(address, metrics);
              } catch (java.io.UncheckedIOException e) {
                throw new SettingsException(e.getMessage());
              }
            });
  }

  /** The OTLP push of {@code -Dexport.otlp}, fed by the recorder and the client probe, or empty. */
  private static Optional<OtlpExport> otlpExport(
      BenchSettings settings,
      Target target,
      RunRecorder recorder,
      ClientProbe clientProbe,
      PrintStream out) {
    return settings
        .export()
        .otlp()
        .map(
            o -> {
              OtlpExport e =
                  OtlpExport.start(
                      new OtlpExport.Destination(
                          o.url(), java.time.Duration.ofSeconds(o.intervalSeconds()), o.spans()),
                      Map.of("model", target.model(), "endpoint", settings.server().api().id()),
                      out);
              recorder.listen(e);
              clientProbe.listen(e::clientSample);
              return e;
            });
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
    EarlyExit.ifHelpAsked();
    Set<String> own = Set.of(simulationOwnProperties);
    BenchSettings settings = EarlyExit.onBadInput(() -> BenchSettings.fromSystem(own));
    if (settings.sweep().isPresent()) {
      // each combination runs this simulation in a JVM of its own; this one only leads them
      Class<?> simulation =
          StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
              .walk(
                  frames ->
                      frames
                          .map(StackWalker.StackFrame::getDeclaringClass)
                          .filter(c -> c != LlmBench.class)
                          .findFirst())
              .orElseThrow();
      EarlyExit.afterSweep(() -> SweepRun.run(settings, new GatlingChild(simulation), System.out));
    }
    return EarlyExit.onBadInput(() -> new LlmBench(settings, true));
  }

  /** Like {@link #start()}, but throws instead of ending the JVM (for tests and embedding). */
  public static LlmBench create(BenchSettings settings) {
    if (settings.sweep().isPresent()) {
      throw new SettingsException(
          "A sweep (-Dserve.cmd, -Dsweep) runs from LlmBench.start(), as mvn gatling:test does");
    }
    return new LlmBench(settings, false);
  }

  /**
   * Makes the prompts made before the load and checks the longest request against the server's
   * context, once (the first call that sends the dataset's requests), and prints what was found. On
   * a problem the JVM ends as in {@link #start()}; {@link #create} keeps the exception.
   */
  private synchronized void prepared() {
    PreparedWorkload.PlannedRequests planned = LoadPlan.planned(phases, settings);
    StartLines.print(out, EarlyExit.onBadInput(exitOnBadInput, () -> workload.prepare(planned)));
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
    if (ab.isPresent()) {
      return ab.get()
          .load(settings, phases, chains, candidateChains.orElseThrow(), runEnd::levelDrained);
    }
    if (search.isPresent()) {
      return search
          .get()
          .load(settings, chains, phases, control::beforeLevel, runEnd::levelDrained);
    }
    return Populations.planned(phases, settings, chains, control, runEnd::levelDrained);
  }

  /**
   * A closed-model level for simulations that write their own injection: one virtual user sends one
   * request, in the group {@code c<conc>}; e.g. {@code
   * bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(60))}.
   */
  public ScenarioBuilder closedLevel(int conc) {
    prepared();
    return chains.closedLevel(conc);
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

  /** The run's hard stop ({@link LoadPlan#maxDuration}): every phase's limit, a search's budget. */
  public Duration maxDuration() {
    Duration planned = LoadPlan.maxDuration(phases, settings);
    return ab.map(r -> planned.plus(r.loadLimit(settings.server().timeoutSeconds())))
        .orElse(planned);
  }

  /**
   * The gates Gatling can check, as Gatling assertions on the kit's records ({@link
   * GatlingAssertions}), for {@code setUp(...).assertions(...)}: Gatling's report and exit status
   * show them too. None for a profile run or a capacity search (see {@link RunAssertions#of}).
   */
  public List<Assertion> assertions() {
    return RunAssertions.of(settings, gates, phases);
  }

  /**
   * Ends the run: stops the server's profiler ({@code -Dprofile}), then summaries, gates, files
   * (see {@link RunEnd#finish()}); stops the simulator.
   */
  public void finish() {
    try {
      control.afterLoad();
      runEnd.finish();
    } finally {
      target.close();
      otlp.ifPresent(OtlpExport::close);
      export.ifPresent(e -> e.closeAfter(settings.export().holdSeconds(), out));
    }
  }

  /** The gates' results of this run (empty before {@link #finish()} or without gates). */
  public List<GateResult> gateResults() {
    return runEnd.gateResults();
  }
}
