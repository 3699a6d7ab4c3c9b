package io.github.llmbench.run;

import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.llmbench.capture.ClientProbe;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.Phase;
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
import io.github.llmbench.workload.PreparedWorkload;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run of a {@link LoadMode} in this JVM, composed: the settings, the server (the embedded
 * simulator when none is given), the dataset, the mode's plan and load, and the run's end. The
 * public {@code LlmBench} is its face for simulations.
 */
public final class BenchRun {
  private final BenchSettings settings;
  private final LoadMode mode;
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

  /** The mode's part of this run: its load, its answer, its gates' judging. */
  private final LoadMode.Running running;

  private final RunEnd runEnd;

  /** The live Prometheus endpoint ({@code -Dexport.prometheus}), if asked. */
  private final Optional<LiveExport> export;

  /** The OTLP push ({@code -Dexport.otlp}), if asked. */
  private final Optional<OtlpExport> otlp;

  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  /**
   * Prepares the run: reads the gates, the dataset's file and a local tokenizer before the server
   * is asked anything (a bad one costs nothing), then checks the server and plans the load.
   *
   * @param exitOnBadInput whether a problem found while preparing the prompts ends the JVM ({@link
   *     EarlyExit}) rather than throws
   */
  public BenchRun(BenchSettings settings, LoadMode mode, boolean exitOnBadInput) {
    this.settings = settings;
    this.mode = mode;
    this.exitOnBadInput = exitOnBadInput;
    RunGates parsedGates = mode.gates(settings);
    RunHistory history = RunHistory.of(settings);
    RunRecorder recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs, out));
    ClientProbe clientProbe = new ClientProbe(recorder::directory);
    PreparedWorkload.Sources sources = PreparedWorkload.Sources.read(settings);
    this.target = mode.target(settings, out);
    try {
      this.workload = PreparedWorkload.forServer(settings, sources, target.workloadServer(), out);
      this.phases = mode.phases(settings, workload);
      RooflineInputs roofline = RooflineInputs.of(settings, target);
      this.control = ServerControl.of(target, settings, out);
      this.serverChecks =
          ServerChecks.of(
              settings, target, mode.otherServers(), workload, control, recorder::directory, out);
      history = history.forKey(RunHistory.key(settings, target, phases, parsedGates));
      this.gates = parsedGates.withNoise(history.noise(parsedGates.set().needsBaseline(), out));
      this.running =
          mode.begin(
              new LoadMode.Context(
                  settings, gates, target, phases, workload, recorder, clientProbe, out));
      this.runEnd =
          RunEnd.builder()
              .settings(settings)
              .mode(mode, running)
              .gates(gates)
              .target(target)
              .phases(phases)
              .recorder(recorder)
              .roofline(roofline)
              .serverChecks(serverChecks)
              .clientProbe(clientProbe)
              .history(history)
              .out(out)
              .build();
      this.chains =
          RequestChains.forRun(
              settings, target, workload, recorder, clientProbe, mode.namesServers());
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
   * Makes the prompts made before the load and checks the longest request against the server's
   * context, once (the first call that sends the dataset's requests), and prints what was found.
   */
  private synchronized void prepared() {
    PreparedWorkload.PlannedRequests planned = mode.plannedRequests(phases, settings);
    StartLines.print(out, EarlyExit.onBadInput(exitOnBadInput, () -> workload.prepare(planned)));
  }

  public BenchSettings settings() {
    return settings;
  }

  /** Gatling's HTTP protocol for the run: the server, one shared connection pool. */
  public HttpProtocolBuilder http() {
    return http.baseUrl(target.baseUrl().toString()).shareConnections().disableWarmUp();
  }

  /** The whole load the mode runs: warmup, then its levels. */
  public PopulationBuilder load() {
    prepared();
    return running.load(
        new LoadMode.Levels(settings, phases, chains, control, runEnd::levelDrained));
  }

  /** A closed-model level for simulations that write their own injection. */
  public ScenarioBuilder closedLevel(int conc) {
    prepared();
    return chains.closedLevel(conc);
  }

  /** The configured dataset as a Gatling feeder. */
  public Iterator<Map<String, Object>> feeder() {
    prepared();
    return chains.feeder();
  }

  /** One streamed request built from the session, for any scenario. */
  public ChainBuilder stream() {
    return chains.stream();
  }

  /** The run's hard stop: every phase's limit, and what the mode runs after them. */
  public Duration maxDuration() {
    return mode.maxDuration(phases, settings);
  }

  /** The gates Gatling can check, as Gatling assertions on the kit's records. */
  public List<Assertion> assertions() {
    return RunAssertions.of(settings, gates, phases);
  }

  /** Ends the run: the profiler stopped, then summaries, gates, files; the simulator stopped. */
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
