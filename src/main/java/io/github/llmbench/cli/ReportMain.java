package io.github.llmbench.cli;

import io.github.llmbench.analysis.PeerTool;
import io.github.llmbench.analysis.PrefixSharing;
import io.github.llmbench.analysis.RampWindows;
import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.records.ClientSamplesFile;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.report.PeerReport;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.settings.Parser;
import io.github.llmbench.settings.ReportSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SimulatorSettings;
import io.github.llmbench.settings.WorkloadSettings;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Re-does the report of an existing run folder, e.g. after changing the model or GPU spec:
 *
 * <pre>
 * mvn -q compile exec:java@report \
 *     -Dexec.args="target/gatling/servingbenchmarksimulation-20250101120000000 \
 *                  --model qwen2.5-7b-instruct --gpu rtx4080-32gb --tp 1"
 * </pre>
 *
 * <p>Reads {@code llm/requests.jsonl} and the metadata of the existing {@code llm/summary.json}
 * (the run's settings, the configured concurrency per level, the model/GPU/tp the last report
 * used), then rewrites the console output, {@code llm/summary.json} and {@code llm.html}.
 *
 * <p>Model, GPU and tp: the arguments, else those of the last report ({@code report_inputs}), else,
 * for a run against the embedded simulator, the simulator's {@code sim.model} and {@code sim.gpu};
 * without a model and a GPU the roofline is skipped. {@code --model} takes a catalog id or the path
 * of a Hugging Face {@code config.json} (or of its folder); {@code --model none} and {@code --gpu
 * none} drop them.
 *
 * <p>{@code --as vllm|aiperf|guidellm} prints instead, per level, the run's figures under that
 * tool's definitions ({@link PeerTool}), each beside the kit's own, so that a user comparing tools
 * sees the numbers the other tool would print from the same records; it rewrites nothing (the run's
 * report stays the kit's), and {@code --model}, {@code --gpu} and {@code --tp} do not matter to it.
 *
 * <p>A bad argument prints one line naming it, its value and what is accepted, and exits with
 * status 3 (as a bad {@code -D} setting does); usage errors exit 2.
 */
public final class ReportMain {

  public static final String PREFIX = "gatling-llm-bench report: ";

  private ReportMain() {}

  public static void main(String[] args) {
    int rc = run(args, System.out, System.err);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      Arguments arguments = Arguments.parse(args);
      if (arguments.runDir() == null) {
        err.println(
            PREFIX
                + "usage: ReportMain <run dir> [--model <catalog id|config.json>]"
                + " [--gpu <catalog id>] [--tp N] [--as "
                + String.join("|", PeerTool.all().stream().map(PeerTool::name).toList())
                + "]");
        return 2;
      }
      if (arguments.as() != null) {
        printAs(arguments.runDir(), arguments.as(), out);
      } else {
        reReport(arguments, out);
      }
      return 0;
    } catch (BadArgument e) {
      err.println(PREFIX + e.getMessage());
      return 3;
    } catch (IllegalArgumentException | UncheckedIOException | SettingsException e) {
      err.println(PREFIX + e.getMessage());
      return 1;
    }
  }

  /**
   * The command line as given: the run folder (null when it names none), the {@code --model},
   * {@code --gpu} and {@code --tp} values (each null when not given) and the tool of {@code --as}
   * (null when not given).
   */
  record Arguments(Path runDir, String model, String gpu, String tp, PeerTool as) {

    /** Reads the arguments; a bad option, a missing value or a second folder is a bad argument. */
    static Arguments parse(String[] args) {
      Path runDir = null;
      String model = null;
      String gpu = null;
      String tp = null;
      PeerTool as = null;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        boolean option =
            name.equals("--model")
                || name.equals("--gpu")
                || name.equals("--tp")
                || name.equals("--as");
        if (option) {
          String value;
          if (a.contains("=")) {
            value = a.substring(a.indexOf('=') + 1);
          } else if (i + 1 < args.length) {
            value = args[++i];
          } else {
            throw new BadArgument(name, "", valueHelp(name));
          }
          switch (name) {
            case "--model" -> model = value;
            case "--gpu" -> gpu = value;
            case "--as" -> as = peerTool(value);
            default -> tp = value;
          }
        } else if (a.startsWith("-")) {
          throw new BadArgument("option", a, "--model, --gpu, --tp or --as");
        } else if (runDir == null) {
          runDir = Paths.get(a);
        } else {
          throw new BadArgument("argument", a, "one run folder only");
        }
      }
      return new Arguments(runDir, model, gpu, tp, as);
    }
  }

  /**
   * The model, GPU and tensor parallelism the roofline is computed for (model and GPU null when
   * unknown or dropped).
   */
  record Deployment(ModelSpec model, GpuSpec gpu, int tp) {

    /**
     * The arguments' model, GPU and tp, else those of the run's last report, else, for a run
     * against the embedded simulator, the simulator's model and GPU; tp 1 by default.
     */
    static Deployment of(
        Arguments arguments,
        Summary.ReportInputs lastReport,
        RunInfo.AnalysisInputs analysisInputs) {
      Summary.ReportInputs inputs =
          lastReport == null ? new Summary.ReportInputs(null, null, null, null) : lastReport;
      String model =
          arguments.model() != null
              ? arguments.model()
              : orElse(inputs.model(), analysisInputs.simModel());
      String gpu =
          arguments.gpu() != null ? arguments.gpu() : orElse(inputs.gpu(), analysisInputs.simGpu());
      String tp =
          arguments.tp() != null
              ? arguments.tp()
              : inputs.tp() != null ? inputs.tp().toString() : "1";
      return new Deployment(ReportMain.model(model), ReportMain.gpu(gpu), ReportMain.tp(tp));
    }
  }

  /** Analyses the run folder's records again and rewrites its console output, summary and page. */
  private static void reReport(Arguments arguments, PrintStream out) {
    Path runDir = arguments.runDir();
    Path jsonl = requestsFile(runDir);
    Summary previous = readSummary(runDir);
    RunInfo.AnalysisInputs analysisInputs = analysisInputs(previous.run());
    Deployment deployment = Deployment.of(arguments, previous.reportInputs(), analysisInputs);
    RunAnalysis a = analyse(RequestsJsonl.read(jsonl), runDir, previous, deployment);
    // the goodput against the run's own objectives, as the run's end measured it
    Optional<GoodputSpec> goodput =
        Optional.ofNullable(previous.run().goodputObjectives()).map(GoodputSpec::parse);
    RunReport.of(a, previous.run().withAnalysisInputs(analysisInputs))
        .withGoodput(RunFigures.of(a, goodput).goodput())
        .write(runDir, Set.of(), out);
  }

  /**
   * Prints each measured level's figures under the tool's definitions, beside the kit's; writes
   * nothing. The levels' configured concurrency and the percentiles shown are the run's last
   * summary's.
   */
  private static void printAs(Path runDir, PeerTool tool, PrintStream out) {
    Path jsonl = requestsFile(runDir);
    Summary previous = readSummary(runDir);
    Map<String, Integer> concurrencies = concurrencies(previous);
    List<Double> shown = percentiles(previous).shown();
    out.print(PeerReport.heading(tool.name(), runDir.toString()));
    // the warmup is left out, as from the kit's own report
    List<RequestRecord> measured =
        RequestsJsonl.read(jsonl).stream().filter(r -> !RunAnalysis.isWarmup(r)).toList();
    ServingMetricsCalculator.byLevel(measured)
        .forEach(
            (level, records) ->
                out.print(
                    PeerReport.format(
                        tool.figures(
                            new PeerTool.Level(level, records, concurrencies.get(level), shown)))));
  }

  /** The tool {@code --as} names; another name is a bad argument. */
  static PeerTool peerTool(String value) {
    return PeerTool.named(value)
        .orElseThrow(() -> new BadArgument("--as", value, PeerTool.names()));
  }

  /** The run folder's {@code llm/requests.jsonl}; a folder without one is a bad argument. */
  private static Path requestsFile(Path runDir) {
    Path jsonl = RunFiles.ofRun(runDir).requests();
    if (!Files.isRegularFile(jsonl)) {
      throw new BadArgument(
          "run dir", runDir.toString(), "a Gatling run folder holding llm/requests.jsonl");
    }
    return jsonl;
  }

  /** The analysis of the run's records, with the settings and telemetry its last summary holds. */
  private static RunAnalysis analyse(
      List<RequestRecord> records, Path runDir, Summary previous, Deployment deployment) {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(records)
            .telemetry(telemetry(runDir, previous.run()))
            .concurrencyByLevel(concurrencies(previous))
            .ramps(rampTimings(previous))
            .model(deployment.model())
            .gpu(deployment.gpu())
            .tp(deployment.tp())
            .rooflineHint(RunReport.ROOFLINE_HINT)
            .percentiles(percentiles(previous))
            .build());
  }

  /** The server's metrics and client samples the run wrote, and the prefixes it shared. */
  private static RunAnalysis.Telemetry telemetry(Path runDir, RunInfo run) {
    // the server's metrics, when the run scraped some, are read back with the model it sent to
    return new RunAnalysis.Telemetry(
        ServerMetricsFile.read(runDir.resolve(RunFiles.LLM_FOLDER)),
        orElse(run.modelId(), null),
        ClientSamplesFile.read(runDir.resolve(RunFiles.LLM_FOLDER)),
        prefixSharing(run));
  }

  private static String valueHelp(String name) {
    return switch (name) {
      case "--model" ->
          "a catalog id ("
              + String.join(", ", Catalog.models().keySet())
              + "), the path of a Hugging Face config.json, or none";
      case "--gpu" -> "a catalog id (" + String.join(", ", Catalog.gpus().keySet()) + ") or none";
      case "--as" -> PeerTool.names();
      default -> "a whole number from 1 to 64";
    };
  }

  static ModelSpec model(String value) {
    if (value == null || value.equalsIgnoreCase("none")) {
      return null;
    }
    if (Catalog.models().containsKey(value)) {
      return Catalog.model(value);
    }
    Path p = Paths.get(value);
    if (Files.isRegularFile(p) || Files.isRegularFile(p.resolve("config.json"))) {
      try {
        return HfConfig.read(p);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        throw new BadArgument(
            "--model", value, "a readable Hugging Face config.json (" + e.getMessage() + ")");
      }
    }
    throw new BadArgument("--model", value, valueHelp("--model"));
  }

  static GpuSpec gpu(String value) {
    if (value == null || value.equalsIgnoreCase("none")) {
      return null;
    }
    if (!Catalog.gpus().containsKey(value)) {
      throw new BadArgument("--gpu", value, valueHelp("--gpu"));
    }
    return Catalog.gpu(value);
  }

  static int tp(String value) {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1 && n <= 64) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new BadArgument("--tp", value, valueHelp("--tp"));
  }

  /** The run's summary, if it has one: what the run was, and the inputs of its last report. */
  private static Summary readSummary(Path runDir) {
    Path file = RunFiles.ofRun(runDir).summary();
    if (!Files.isRegularFile(file)) {
      return new Summary(RunInfo.NONE, null, Map.of(), null, null, null, null, null);
    }
    try {
      return Summary.read(file);
    } catch (IOException | Summary.NotASummary e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The run's {@code -Dpercentiles} (its settings' line) and every other percentile its levels hold
   * (those its gates named), to compute them again.
   */
  static ReportedPercentiles percentiles(Summary summary) {
    Optional<List<Double>> shown = Optional.ofNullable(analysisInputs(summary.run()).percentiles());
    Set<Double> needed = new LinkedHashSet<>();
    summary
        .levels()
        .values()
        .forEach(
            l ->
                l.figures().latencyFigures().stream()
                    .map(LatencyFigure::statistic)
                    .filter(Statistic::isPercentile)
                    .forEach(s -> needed.add(s.percentile())));
    return ReportedPercentiles.of(shown, needed);
  }

  /** Configured concurrency per level from the previous summary's levels. */
  static Map<String, Integer> concurrencies(Summary summary) {
    Map<String, Integer> out = new LinkedHashMap<>();
    summary
        .levels()
        .forEach(
            (name, l) -> {
              Integer c = l.figures().maxConcurrency();
              if (c != null && c > 0) {
                out.put(name, c);
              }
            });
    return out;
  }

  /** How the run that wrote the summary timed each ramp level. */
  static Map<String, RampWindows.Timing> rampTimings(Summary summary) {
    Map<String, RampWindows.Timing> out = new LinkedHashMap<>();
    summary
        .levels()
        .forEach(
            (name, l) -> {
              if (l.ramp() != null) {
                out.put(name, l.ramp().timing());
              }
            });
    return out;
  }

  private static String orElse(String value, String fallback) {
    return value != null && !value.isBlank() ? value : fallback;
  }

  /** The prefixes a run's prompts shared on purpose, as its settings said. */
  static PrefixSharing prefixSharing(RunInfo run) {
    Integer groups = analysisInputs(run).prefixGroups();
    return run.prefixLen() == null || run.prefixLen() == 0
        ? PrefixSharing.NONE
        : new PrefixSharing(run.prefixLen(), groups == null ? 1 : groups);
  }

  /**
   * The settings the run's records are analysed with: the summary's typed {@code analysis_inputs},
   * or, in a summary written before them, read back from its {@code settings} lines.
   */
  static RunInfo.AnalysisInputs analysisInputs(RunInfo run) {
    if (run.analysisInputs() != null) {
      return run.analysisInputs();
    }
    Map<String, String> settings = run.settings() == null ? Map.of() : run.settings();
    String percentiles = settings.get(ReportSettings.PERCENTILES.name());
    String groups = settings.get(WorkloadSettings.PREFIX_GROUPS.name());
    boolean simulated = run.simulated();
    return new RunInfo.AnalysisInputs(
        percentiles == null
            ? null
            : Parser.percentiles().parse(ReportSettings.PERCENTILES.name(), percentiles),
        simulated ? orElse(settings.get(SimulatorSettings.SIM_MODEL.name()), null) : null,
        simulated ? orElse(settings.get(SimulatorSettings.SIM_GPU.name()), null) : null,
        run.prefixLen() == null || run.prefixLen() == 0
            ? null
            : groups == null ? 1 : Integer.parseInt(groups));
  }
}
