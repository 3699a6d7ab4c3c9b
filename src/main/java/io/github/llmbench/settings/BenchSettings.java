package io.github.llmbench.settings;

import io.github.llmbench.settings.ServerSettings.Routing;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Every {@code -D} setting of the kit, read and validated: a record of the groups' records ({@code
 * settings.load().conc()}), each group one file with its settings, record, reader and checks (
 * {@link SettingsTable} lists them), and the checks across groups in {@link CrossChecks}.
 *
 * <p>Validation happens when the settings are read, before any server is contacted, so a bad value
 * stops the run with one line ({@link SettingsException}) and no load is sent. The API key is read
 * from the environment ({@code OPENAI_API_KEY}), never from a property (properties end up in build
 * logs), and is kept out of {@link #toString()} and of the settings' lines ({@code
 * SettingsDescription}).
 *
 * @param gatlingRecords what Gatling's stats get of each stream ({@code -Dstats.records}): by
 *     default the stream's own record only; every latency is in {@code requests.jsonl}, the
 *     console, {@code llm.html} and the kit's gates whatever this says (see docs/outputs.md)
 * @param mode the run mode, chosen once here ({@link RunModeSettings#choose}): planned levels, a
 *     capacity search, an interleaved A/B run or a sweep, each with its settings group
 * @param export the client's figures served live ({@code -Dexport.prometheus}), {@link
 *     ExportSettings#NONE} without
 * @param apiKey the API key, for the Authorization header only. Never print or persist it.
 */
public record BenchSettings(
    ServerSettings server,
    LoadSettings load,
    WorkloadSettings workload,
    SimulatorSettings simulator,
    ReportSettings report,
    GateSettings gates,
    RunModeSettings mode,
    TelemetrySettings metrics,
    ExportSettings export,
    InjectorSettings injector,
    GatlingRecords gatlingRecords,
    Optional<String> apiKey) {

  public static final String API_KEY_ENV = "OPENAI_API_KEY";

  /** The kind of dataset prompts come from ({@code -Ddataset}). */
  public enum DatasetKind {
    RANDOM,
    PROFILES,
    FILE,
    /** a recorded trace (Mooncake's JSONL) replayed at its times */
    TRACE,
    /** agent sessions from a session file */
    SESSIONS,
    /** agent sessions from recorded Weka agent traces */
    WEKA,
    /** synthetic agent sessions of {@code -Dsession.shape} */
    AGENTS
  }

  /** Reads the JVM's system properties and the {@code OPENAI_API_KEY} environment variable. */
  public static BenchSettings fromSystem() {
    return fromSystem(Set.of());
  }

  /**
   * As {@link #fromSystem()}, with properties that a simulation of one's own reads itself (they are
   * not refused as unknown settings).
   */
  public static BenchSettings fromSystem(Set<String> simulationOwn) {
    return from(systemProperties(), System::getenv, simulationOwn);
  }

  /** The JVM's system properties, as the user typed them (what {@link #fromSystem()} reads). */
  public static Map<String, String> systemProperties() {
    Map<String, String> props = new HashMap<>();
    System.getProperties().forEach((k, v) -> props.put(String.valueOf(k), String.valueOf(v)));
    // the Maven plugin's fork receives every -D value Java-escaped: read them as the user typed
    return PluginFork.restored(props, System.getProperty("sun.java.command"));
  }

  /**
   * Reads settings from any property source (tests pass a map).
   *
   * @throws SettingsException on the first bad value
   */
  public static BenchSettings from(
      Map<String, String> properties, Function<String, String> environment) {
    return from(properties, environment, Set.of());
  }

  /**
   * As {@link #from(Map, Function)}; {@code simulationOwn} names properties a simulation reads
   * itself, which are not refused as unknown settings. Reads group by group, each group's own
   * checks in its reader, the checks across groups as soon as the groups they compare are read.
   */
  public static BenchSettings from(
      Map<String, String> properties,
      Function<String, String> environment,
      Set<String> simulationOwn) {
    refuseUnknown(properties, simulationOwn);
    SettingReader r = new SettingReader(properties);
    ServerSettings server = ServerSettings.read(r);
    Images images = Images.read(r);
    SimulatorSettings simulator = SimulatorSettings.read(r, images.any());
    CrossChecks.simulatorSeesImages(server, simulator, images);
    LoadSettings load = LoadSettings.read(r, images);
    CrossChecks.openModelSettings(r, load);
    WorkloadSettings workload = WorkloadSettings.read(r, images);
    checkTheLoadsWorkload(r, server, load, workload);
    // the roofline's tensor parallelism follows the simulator's; a real server's is not known
    ReportSettings report =
        ReportSettings.read(r, server.embeddedSimulator() ? simulator.config().tp() : 1);
    GateSettings gates = GateSettings.read(r);
    GatlingRecords records = r.get(GatlingRecords.STATS_RECORDS);
    TelemetrySettings metrics = TelemetrySettings.read(r);
    ExportSettings export = ExportSettings.read(r);
    InjectorSettings injector = InjectorSettings.read(r);
    CrossChecks.injectorsShareTheLoad(injector, load, workload);
    RunModeSettings mode =
        RunModeSettings.choose(new RunModeSettings.Inputs(r, server, load, workload, report));
    return new BenchSettings(
        server,
        load,
        workload,
        simulator,
        report,
        gates,
        mode,
        metrics,
        export,
        injector,
        records,
        apiKey(environment));
  }

  /** The capacity search's settings, when that is the run's mode. */
  public Optional<SearchSettings> search() {
    return mode instanceof SearchSettings s ? Optional.of(s) : Optional.empty();
  }

  /** The interleaved A/B run's settings, when that is the run's mode. */
  public Optional<AbSettings> ab() {
    return mode instanceof AbSettings a ? Optional.of(a) : Optional.empty();
  }

  /** The sweep's settings, when that is the run's mode. */
  public Optional<SweepSettings> sweep() {
    return mode instanceof SweepSettings s ? Optional.of(s) : Optional.empty();
  }

  /** The first property that is no setting, though it looks like one, stops the run. */
  private static void refuseUnknown(Map<String, String> properties, Set<String> simulationOwn) {
    Optional<String> unknown = SettingsTable.unknown(properties, simulationOwn);
    if (unknown.isPresent()) {
      throw new SettingsException(unknown.get());
    }
  }

  /** The checks across the load and the workload: a trace, images, trials, an embeddings run. */
  private static void checkTheLoadsWorkload(
      SettingReader r, ServerSettings server, LoadSettings load, WorkloadSettings workload) {
    CrossChecks.traceSetsTheTimes(load, workload);
    CrossChecks.checkImages(r, server.api(), load, workload);
    CrossChecks.checkTrials(r, load, workload);
    CrossChecks.checkPooling(r, server.api(), workload);
  }

  /** {@code OPENAI_API_KEY}, trimmed; empty when not set or blank. */
  private static Optional<String> apiKey(Function<String, String> environment) {
    return Optional.ofNullable(environment.apply(API_KEY_ENV))
        .map(String::trim)
        .filter(s -> !s.isEmpty());
  }

  /**
   * A short form for debugging: the server, the load and the dataset. The lines shown to people are
   * {@link SettingsDescription}'s; neither shows the API key or a header's value.
   */
  @Override
  public String toString() {
    Routing routing = server.routing();
    return "BenchSettings[base.url="
        + (routing.baseUrls().isEmpty() ? "none" : routing.baseUrls().toString())
        + ", api="
        + server.api().id()
        + ", model="
        + (routing.models().isEmpty() ? "none" : String.join(",", routing.models()))
        + ", "
        + load
        + ", dataset="
        + workload.describe()
        + "]";
  }
}
