package io.github.llmbench;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.llmbench.core.Level;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GatlingAssertions;
import io.github.llmbench.run.BenchRun;
import io.github.llmbench.run.EarlyExit;
import io.github.llmbench.run.LoadMode;
import io.github.llmbench.run.RunMode;
import io.github.llmbench.run.RunModes;
import io.github.llmbench.run.SweepLeader;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.workload.FeederRecords;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a simulation needs to load an LLM server: the settings, the server (the embedded simulator
 * when none is given), the dataset, the load plan, and the summaries.
 *
 * <p>Simulations stay thin: they create one of these, set up {@link #load()} (or their own
 * injection of {@link #closedLevel(int)}), and call {@link #finish()} from {@code after()}. The run
 * itself is the {@code run} package's: its mode is chosen once from the settings ({@link
 * RunModes#of}).
 */
public final class LlmBench {

  /** Exit status for a bad setting or an unusable server (Gatling uses 1 and 2 itself). */
  public static final int EXIT_BAD_INPUT = EarlyExit.EXIT_BAD_INPUT;

  private final BenchRun run;

  private LlmBench(BenchRun run) {
    this.run = run;
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
    RunMode mode = RunModes.of(settings);
    if (mode instanceof SweepLeader sweep) {
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
      EarlyExit.afterSweep(() -> sweep.lead(settings, simulation, System.out));
    }
    return EarlyExit.onBadInput(() -> new LlmBench(new BenchRun(settings, (LoadMode) mode, true)));
  }

  /** Like {@link #start()}, but throws instead of ending the JVM (for tests and embedding). */
  public static LlmBench create(BenchSettings settings) {
    if (!(RunModes.of(settings) instanceof LoadMode mode)) {
      throw new SettingsException(
          "A sweep (-Dserve.cmd, -Dsweep) runs from LlmBench.start(), as mvn gatling:test does");
    }
    return new LlmBench(new BenchRun(settings, mode, false));
  }

  public BenchSettings settings() {
    return run.settings();
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
    return run.http();
  }

  /**
   * The whole load the settings describe: warmup, then each level, each drained before the next (a
   * capacity search's probes, an A/B run's pairs, as the run's mode picks them).
   */
  public PopulationBuilder load() {
    return run.load();
  }

  /**
   * A closed-model level for simulations that write their own injection: one virtual user sends one
   * request, in the group {@code c<conc>}; e.g. {@code
   * bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(60))}.
   */
  public ScenarioBuilder closedLevel(int conc) {
    return run.closedLevel(conc);
  }

  /**
   * The configured dataset (random, profiles or a file) as a Gatling feeder: one record per request
   * ({@link FeederRecords}: {@code prompt} or {@code messages}, {@code max_tokens}, {@code
   * profile}, {@code input_tokens}), endless (a file starts over), for {@code
   * feed(bench.feeder())}.
   */
  public Iterator<Map<String, Object>> feeder() {
    return run.feeder();
  }

  /**
   * One streamed request built from the session, for any scenario: its {@code prompt} or {@code
   * messages}, {@code max_tokens} (else {@code -Doutput.len}) and optional {@code profile}, e.g.
   * from {@code feed(csv("my-prompts.csv"))}; with the kit's capture, records, result blocks and
   * gates. Its level is the enclosing Gatling group, else the scenario's name. A record with
   * neither prompt nor messages fails that request, with the reason.
   */
  public ChainBuilder stream() {
    return run.stream();
  }

  /** The run's hard stop: every phase's limit, a search's budget, an A/B run's pairs. */
  public Duration maxDuration() {
    return run.maxDuration();
  }

  /**
   * The gates Gatling can check, as Gatling assertions on the kit's records ({@link
   * GatlingAssertions}), for {@code setUp(...).assertions(...)}: Gatling's report and exit status
   * show them too. None for a profile run or a capacity search.
   */
  public List<Assertion> assertions() {
    return run.assertions();
  }

  /**
   * Ends the run: stops the server's profiler ({@code -Dprofile}), then summaries, gates, files;
   * stops the simulator.
   */
  public void finish() {
    run.finish();
  }

  /** The gates' results of this run (empty before {@link #finish()} or without gates). */
  public List<GateResult> gateResults() {
    return run.gateResults();
  }
}
