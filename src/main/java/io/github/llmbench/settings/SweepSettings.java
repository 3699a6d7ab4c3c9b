package io.github.llmbench.settings;

import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.SweepGrid;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A sweep: the server started by the kit for each combination of its settings ({@code -Dserve.cmd},
 * {@code -Dserve.params}), several workload settings at once ({@code -Dsweep}), or both crossed;
 * each combination is an ordinary run of the other settings, and the sweep's report compares them
 * (Pareto frontier, the best combination under {@code -Dslo}).
 *
 * @param serve the server the kit starts per combination of its parameters, empty when the sweep
 *     loads a server given by {@code -Dbase.url} (or the embedded simulator)
 * @param workload the workload settings' axes ({@code -Dsweep}), no axes when only the server's
 *     settings are swept
 * @param slo the objectives the best combination meets ({@code -Dslo}), empty for none
 * @param resume the folder of a sweep to continue ({@code -Dsweep.resume}), empty for a new one
 * @param runProperties every other kit setting as given: each combination's run gets them, with its
 *     own values of the swept ones
 * @param gpus the GPUs behind each combination's server ({@code -Dgpus}): a number, or the name of
 *     the server's parameter that gives it ({@code tensor-parallel-size})
 */
public record SweepSettings(
    Optional<Serve> serve,
    SweepGrid workload,
    Map<SloFigure, Double> slo,
    Optional<Path> resume,
    Map<String, String> runProperties,
    String gpus)
    implements RunModeSettings {

  private static final String HEADING = SettingsTable.REPORT;

  /** {@code -Dserve.cmd}'s word for the kit's own simulator, run as a server process. */
  public static final String SIMULATOR = "simulator";

  /** How long a started server may take to be ready when {@code -Dready.timeout} does not say. */
  public static final int DEFAULT_READY_SECONDS = 600;

  /** How long a stopped server may take to end when {@code -Dserve.grace} does not say. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(30);

  /**
   * The server the kit starts for each combination of its parameters.
   *
   * @param command the command's template ({@link ServeTemplate}): split into words as {@code sh}
   *     splits them, {@code {port}} and {@code {NAME}} filled in, each value one argument that no
   *     shell reads; {@link #SIMULATOR} is the kit's simulator
   * @param params its parameters' axes; one not named in the command as {@code {NAME}} is added as
   *     {@code --NAME VALUE} ({@code true}: {@code --NAME}, {@code false}: {@code --no-NAME})
   * @param readyTimeout how long each start may take to be ready
   * @param grace how long a stopped server may take to end after SIGTERM, before SIGKILL
   */
  public record Serve(String command, SweepGrid params, Duration readyTimeout, Duration grace) {}

  public SweepSettings {
    slo = Collections.unmodifiableMap(new LinkedHashMap<>(slo));
    runProperties = Collections.unmodifiableMap(new LinkedHashMap<>(runProperties));
  }

  public static final Setting<String> SERVE_CMD =
      Setting.without(
          HEADING,
          "serve.cmd",
          "none",
          "a command with {port} (and {NAME} for a parameter), written as for sh, or simulator"
              + " [OPTIONS]",
          "start this server for each combination of -Dserve.params (its own log, stopped after"
              + " its runs), as vllm bench sweep serve",
          Parser.text());
  public static final Setting<String> SERVE_PARAMS =
      Setting.without(
          HEADING,
          "serve.params",
          "none: one start",
          SweepGrid.FORM + ", or @FILE (a JSON list of objects, as vllm bench sweep's)",
          "the server's settings swept: {NAME} in -Dserve.cmd, else added as --NAME VALUE",
          Parser.text());
  public static final Setting<Double> SERVE_GRACE =
      Setting.of(
          HEADING,
          "serve.grace",
          (double) DEFAULT_GRACE.toSeconds(),
          "seconds above 0",
          "how long a sweep's server may take to end after SIGTERM, before SIGKILL",
          Parser.positiveDouble());
  public static final Setting<String> SWEEP =
      Setting.without(
          HEADING,
          "sweep",
          "none",
          "SETTING:VALUE,VALUE;SETTING:... e.g. input.len:128,1024;output.len:128,1024, or @FILE",
          "the workload settings swept: one run of the load per combination",
          Parser.text());
  public static final Setting<String> SWEEP_COMBINE =
      Setting.of(
          HEADING,
          "sweep.combine",
          "grid",
          "grid or zip",
          "a sweep's axes crossed (grid) or taken value by value (zip)",
          Parser.word(List.of("grid", "zip"), "grid or zip"));
  public static final Setting<String> SWEEP_RESUME =
      Setting.without(
          HEADING,
          "sweep.resume",
          "none",
          "the folder of a sweep (target/gatling/sweep-...)",
          "continue that sweep: the combinations it finished are kept, not run again",
          Parser.text());

  public static final Setting<String> GPUS =
      Setting.of(
          HEADING,
          "gpus",
          "1",
          "a whole number from 1, or a -Dserve.params name that gives it, e.g. tensor-parallel-size",
          "the GPUs behind each combination's server: a sweep's throughput is per GPU",
          Parser.text());

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<Setting<?>> SETTINGS =
      List.of(SERVE_CMD, SERVE_PARAMS, SERVE_GRACE, SWEEP, SWEEP_COMBINE, SWEEP_RESUME, GPUS);

  /** Settings a combination's run may not be given by {@code -Dsweep}: the sweep's own. */
  private static final Set<String> NOT_SWEPT =
      Set.of(
          "base.url",
          "ready.timeout",
          "injector",
          "start.at",
          "candidate.url",
          "candidate.model",
          "help",
          SearchSettings.SLO.name());

  /**
   * The mode: it leads a child run for each combination, each run reading its own settings (of any
   * other mode); the sweep runs on one machine.
   */
  static final RunModeSettings.Kind KIND =
      new RunModeSettings.Kind(
          "a sweep",
          Optional.of(new SettingsTable.Topic("sweep", SETTINGS)),
          // with -Dcandidate.serve.cmd, -Dserve.cmd is server A of an A/B run of fresh deployments
          r -> (r.isSet(SERVE_CMD) || r.isSet(SWEEP)) && !AbSettings.startsServers(r),
          r -> r.isSet(SERVE_CMD) ? "-Dserve.cmd" : "-Dsweep=" + r.raw(SWEEP).orElse(""),
          List.of(SERVE_PARAMS, SERVE_GRACE, SWEEP_COMBINE, SWEEP_RESUME, GPUS),
          "-Dserve.cmd=... or -Dsweep=...",
          List.of(
              RunModeSettings.Refusal.always(
                  "-Dinjector does not split a sweep: run the sweep on one machine",
                  LoadShape.INJECTOR)),
          in -> read(in.reader(), in.server()));

  @Override
  public RunModeSettings.Kind modeKind() {
    return KIND;
  }

  /** Reads the group once the mode is chosen. */
  static SweepSettings read(SettingReader r, ServerSettings server) {
    boolean serving = r.isSet(SERVE_CMD);
    boolean zipped = r.get(SWEEP_COMBINE).equals("zip");
    Optional<Serve> serve = serving ? Optional.of(serve(r, server, zipped)) : Optional.empty();
    SweepGrid workload = r.optional(SWEEP).map(w -> workload(w, zipped)).orElse(EMPTY);
    Map<SloFigure, Double> slo =
        r.isSet(SearchSettings.SLO)
            ? SearchSettings.objectives(r, "a sweep's best combination")
            : Map.of();
    Optional<Path> resume = r.optional(SWEEP_RESUME).map(SweepSettings::resumed);
    if (serving && r.isSet(AbSettings.CANDIDATE_URL)) {
      throw new SettingsException(
          "-Dcandidate.url with -Dserve.cmd: a sweep compares its combinations itself");
    }
    Map<String, String> run = new LinkedHashMap<>();
    r.properties()
        .forEach(
            (k, v) -> {
              if (SettingsTable.get(k).isPresent()
                  && !SETTINGS.contains(SettingsTable.get(k).get())) {
                run.put(k, v);
              }
            });
    if (!slo.isEmpty() && !r.isSet(SearchSettings.SEARCH)) {
      run.remove(SearchSettings.SLO.name()); // the runs' own -Dslo is a search's
    }
    String gpus = r.get(GPUS);
    checkGpus(gpus, serve.map(Serve::params).orElse(EMPTY));
    return new SweepSettings(serve, workload, slo, resume, run, gpus);
  }

  private static final SweepGrid EMPTY = new SweepGrid(Map.of(), false);

  private static Serve serve(SettingReader r, ServerSettings server, boolean zipped) {
    String command = r.get(SERVE_CMD);
    SweepGrid params =
        r.optional(SERVE_PARAMS).map(p -> grid(SERVE_PARAMS.name(), p, zipped)).orElse(EMPTY);
    ServeTemplate template;
    try {
      template = ServeTemplate.parse(command);
      template.checkNames(params.axes().keySet());
    } catch (IllegalArgumentException e) {
      throw SettingsException.invalid(SERVE_CMD.name(), command, e.getMessage());
    }
    boolean port = startsTheSimulator(command) || template.names().contains("port");
    if (port == !server.routing().baseUrls().isEmpty()) {
      throw SettingsException.invalid(
          SERVE_CMD.name(),
          command,
          port
              ? "a command with {port} and no -Dbase.url (the kit picks the port and the URL)"
              : "a command with {port} (a free port the kit picks), or one on a fixed port"
                  + " with -Dbase.url naming it");
    }
    int ready = r.get(ServerSettings.READY_TIMEOUT);
    return new Serve(
        command,
        params,
        Duration.ofSeconds(ready > 0 ? ready : DEFAULT_READY_SECONDS),
        Duration.ofMillis(Math.round(r.get(SERVE_GRACE) * 1000)));
  }

  private static void checkGpus(String gpus, SweepGrid params) {
    List<String> counts = params.axes().getOrDefault(gpus, List.of(gpus));
    for (String c : counts) {
      if (!c.matches("[1-9][0-9]{0,5}")) {
        throw SettingsException.invalid(
            GPUS.name(),
            gpus,
            "a whole number from 1, or a -Dserve.params name whose values are such numbers"
                + (params.axes().isEmpty()
                    ? ""
                    : " (" + String.join(", ", params.axes().keySet()) + ")"));
      }
    }
  }

  /** The GPUs behind the server of {@code serverCombination}. */
  public int gpusOf(Map<String, String> serverCombination) {
    return Parser.asciiInt(serverCombination.getOrDefault(gpus, gpus));
  }

  private static SweepGrid workload(String raw, boolean zipped) {
    SweepGrid grid = SweepFile.withKitNames(grid(SWEEP.name(), raw, zipped));
    for (String name : grid.axes().keySet()) {
      Optional<Setting<?>> s = SettingsTable.get(name);
      if (s.isEmpty() || SETTINGS.contains(s.get()) || NOT_SWEPT.contains(name)) {
        throw SettingsException.invalid(
            SWEEP.name(),
            raw,
            "axes of the kit's settings (-Dhelp lists them), not "
                + name
                + (s.isEmpty() ? "" : ", which the sweep sets itself or does not split"));
      }
    }
    return grid;
  }

  private static SweepGrid grid(String name, String raw, boolean zipped) {
    try {
      return raw.startsWith("@")
          ? SweepFile.read(Path.of(raw.substring(1)))
          : SweepGrid.parse(raw, zipped);
    } catch (IllegalArgumentException e) {
      throw SettingsException.invalid(name, raw, e.getMessage());
    }
  }

  private static Path resumed(String raw) {
    Path folder = Path.of(raw);
    if (!Files.isDirectory(folder)) {
      throw SettingsException.invalid(
          SWEEP_RESUME.name(), raw, "the folder of a sweep that exists (target/gatling/sweep-...)");
    }
    return folder;
  }

  /**
   * Whether {@code command} is the kit's simulator: {@value #SIMULATOR}, alone or with its options
   * ({@code simulator --model sim-tiny}).
   */
  public static boolean startsTheSimulator(String command) {
    return command.equals(SIMULATOR) || command.startsWith(SIMULATOR + " ");
  }

  /** The combinations of the server's parameters: one empty one when none are swept. */
  public List<Map<String, String>> serverCombinations() {
    return combinationsOf(serve.map(Serve::params).orElse(EMPTY));
  }

  /** The combinations of the workload's settings: one empty one when none are swept. */
  public List<Map<String, String>> workloadCombinations() {
    return combinationsOf(workload);
  }

  private static List<Map<String, String>> combinationsOf(SweepGrid grid) {
    return grid.axes().isEmpty() ? List.of(Map.of()) : grid.combinations();
  }
}
