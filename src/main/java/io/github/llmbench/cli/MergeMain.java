package io.github.llmbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.Percentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.gates.GateCheck;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GateSet;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.report.MergedGatlingReport;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.settings.InjectorSettings;
import io.github.llmbench.settings.WorkloadSettings;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Merges the run folders of the injectors that shared one load ({@code -Dinjector=i/N}) into one
 * run folder: {@code llm/requests.jsonl} of all of them, then the result blocks, {@code
 * llm/summary.json} and {@code llm.html} over the union, as one run of the whole load would give.
 *
 * <pre>
 * mvn -q test-compile exec:java@merge -Dexec.args="target/gatling/run-a target/gatling/run-b --out target/gatling/merged"
 * </pre>
 *
 * <p>Checked first, each problem on its own line (exit status 3): every folder holds {@code
 * llm/requests.jsonl}; the runs are injectors 0..N-1 of one run (one N, every index once, the same
 * seed and settings). The clock offset of each injector against injector 0 is estimated from the
 * levels' first sends (they start together, on {@code -Dstart.at}) and stated; records keep each
 * host's own clock. The server's metrics are injector 0's (every injector read the same server).
 * Gatling's own report of the union is written beside {@code llm.html} ({@link
 * MergedGatlingReport}); each injector's stays in its folder and is listed in the merged summary.
 */
public final class MergeMain {
  public static final String PREFIX = "gatling-llm-bench merge: ";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Settings that are not compared: its index, and the seed (compared on its own, first). */
  private static final Set<String> OWN_SETTINGS =
      Set.of(InjectorSettings.INJECTOR.name(), WorkloadSettings.SEED.name());

  private MergeMain() {}

  public static void main(String[] args) {
    int rc = run(args, System.out, System.err);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** One injector's run folder, read. */
  private record Injector(
      Path dir, int index, int count, Summary summary, List<RequestRecord> records) {}

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<Path> dirs = new ArrayList<>();
    Path outDir = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--out") && i + 1 < args.length) {
        outDir = Paths.get(args[++i]);
      } else if (args[i].startsWith("--out=")) {
        outDir = Paths.get(args[i].substring(6));
      } else if (args[i].startsWith("-")) {
        err.println(PREFIX + "Invalid option=" + args[i] + ": expected --out DIR");
        return 3;
      } else {
        dirs.add(Paths.get(args[i]));
      }
    }
    if (dirs.size() < 2 || outDir == null) {
      err.println(
          PREFIX
              + "usage: MergeMain RUN_DIR RUN_DIR ... --out DIR (the run folders of the injectors of one run)");
      return 2;
    }
    List<String> problems = new ArrayList<>();
    List<Injector> injectors = new ArrayList<>();
    for (Path d : dirs) {
      Path jsonl = RunFiles.ofRun(d).requests();
      Path summary = RunFiles.ofRun(d).summary();
      if (!Files.isRegularFile(jsonl) || !Files.isRegularFile(summary)) {
        problems.add(
            "Invalid run folder="
                + d
                + ": expected a Gatling run folder holding llm/requests.jsonl and llm/summary.json");
        continue;
      }
      try {
        Summary s = Summary.read(summary);
        String[] injector = (s.run().injector() == null ? "0/1" : s.run().injector()).split("/");
        injectors.add(
            new Injector(
                d,
                Integer.parseInt(injector[0]),
                Integer.parseInt(injector[1]),
                s,
                RequestsJsonl.read(jsonl)));
      } catch (IOException | RuntimeException e) {
        problems.add(
            "Invalid run folder=" + d + ": cannot read its llm/ files (" + e.getMessage() + ")");
      }
    }
    if (problems.isEmpty()) {
      problems.addAll(sameRun(injectors));
    }
    if (Files.exists(outDir.resolve(RunFiles.LLM_FOLDER))) {
      problems.add(
          "Invalid --out=" + outDir + ": expected a new folder (it already holds a run's llm/)");
    }
    if (!problems.isEmpty()) {
      problems.forEach(p -> err.println(PREFIX + p));
      return 3;
    }
    injectors.sort(Comparator.comparingInt(Injector::index));
    try {
      merge(injectors, outDir, out);
      return 0;
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      err.println(PREFIX + e.getMessage());
      return 1;
    }
  }

  /** One line per reason the folders are not the injectors of one run. */
  static List<String> sameRun(List<Injector> injectors) {
    List<String> problems = new ArrayList<>();
    Injector first = injectors.get(0);
    int n = first.count();
    Map<Integer, Path> byIndex = new TreeMap<>();
    for (Injector i : injectors) {
      if (i.count() != n) {
        problems.add(
            "Run "
                + i.dir()
                + " is injector "
                + i.index()
                + "/"
                + i.count()
                + ", run "
                + first.dir()
                + " one of "
                + n
                + ": expected the injectors of one run");
      } else if (byIndex.put(i.index(), i.dir()) != null) {
        problems.add(
            "Injector " + i.index() + "/" + n + " is given twice (" + byIndex.get(i.index()) + ")");
      }
      if (!Objects.equals(i.summary().run().seed(), first.summary().run().seed())) {
        problems.add(
            "Run "
                + i.dir()
                + " has -Dseed="
                + i.summary().run().seed()
                + ", run "
                + first.dir()
                + " -Dseed="
                + first.summary().run().seed()
                + ": expected the injectors of one run (one seed)");
      }
      Map<String, String> a = settings(first);
      Map<String, String> b = settings(i);
      Set<String> keys = new TreeSet<>(a.keySet());
      keys.addAll(b.keySet());
      for (String k : keys) {
        if (!OWN_SETTINGS.contains(k) && !Objects.equals(a.get(k), b.get(k))) {
          problems.add(
              "Run "
                  + i.dir()
                  + " differs from run "
                  + first.dir()
                  + " in -D"
                  + k
                  + ": "
                  + b.getOrDefault(k, "(unset)")
                  + " vs "
                  + a.getOrDefault(k, "(unset)"));
        }
      }
    }
    for (int k = 0; k < n && problems.isEmpty(); k++) {
      if (!byIndex.containsKey(k)) {
        problems.add(
            "Injector "
                + k
                + "/"
                + n
                + " is missing: expected the run folders of all "
                + n
                + " injectors");
      }
    }
    return problems;
  }

  private static Map<String, String> settings(Injector i) {
    return i.summary().run().settings() == null ? Map.of() : i.summary().run().settings();
  }

  private static void merge(List<Injector> injectors, Path outDir, PrintStream out)
      throws IOException {
    List<RequestRecord> all = new ArrayList<>();
    injectors.forEach(i -> all.addAll(i.records()));
    all.sort(Comparator.comparingLong(RequestRecord::startMs));
    Path llm = outDir.resolve(RunFiles.LLM_FOLDER);
    Files.createDirectories(llm);
    try (BufferedWriter w =
        Files.newBufferedWriter(llm.resolve(RunFiles.REQUESTS), StandardCharsets.UTF_8)) {
      for (RequestRecord r : all) {
        w.write(JSON.writeValueAsString(r));
        w.write('\n');
      }
    }
    Injector first = injectors.get(0);
    Path firstLlm = first.dir().resolve(RunFiles.LLM_FOLDER);
    if (Files.isRegularFile(firstLlm.resolve(RunFiles.SERVER_METRICS))) {
      Files.copy(firstLlm.resolve(RunFiles.SERVER_METRICS), llm.resolve(RunFiles.SERVER_METRICS));
    }
    List<RunInfo.InjectorRun> list = new ArrayList<>();
    for (Injector i : injectors) {
      list.add(
          new RunInfo.InjectorRun(
              i.index() + "/" + i.count(),
              i.dir().toString(),
              i.records().size(),
              clockOffsetMs(first.records(), i.records()),
              // relative to the merged folder, so llm.html links it wherever the folders are
              // copied together
              outDir
                  .toAbsolutePath()
                  .normalize()
                  .relativize(i.dir().toAbsolutePath().normalize().resolve("index.html"))
                  .toString()));
    }
    RunInfo info = first.summary().run().asMerge(list);
    Summary.ReportInputs inputs = first.summary().reportInputs();
    ModelSpec model =
        inputs != null && inputs.model() != null ? ReportMain.model(inputs.model()) : null;
    GpuSpec gpu = inputs != null && inputs.gpu() != null ? ReportMain.gpu(inputs.gpu()) : null;
    int tp = inputs != null && inputs.tp() != null ? inputs.tp() : 1;
    RunAnalysis.Telemetry telemetry =
        new RunAnalysis.Telemetry(
            ServerMetricsFile.read(llm), info.modelId(), List.of(), ReportMain.prefixSharing(info));
    out.println(
        PREFIX + all.size() + " requests of " + injectors.size() + " injectors into " + outDir);
    for (RunInfo.InjectorRun i : list) {
      out.println(
          "  injector "
              + i.injector()
              + ": "
              + i.requests()
              + " requests from "
              + i.run()
              + (i.clockOffsetMs() == null
                  ? ""
                  : String.format(
                      Locale.ROOT,
                      ", first sends %+.0f ms from injector 0's (clock offset and start jitter)",
                      i.clockOffsetMs())));
    }
    // each level's whole concurrency comes from its name (c128): the injectors' own summaries hold
    // their shares
    RunAnalysis a =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(all)
                .telemetry(telemetry)
                .ramps(ReportMain.rampTimings(first.summary()))
                .model(model)
                .gpu(gpu)
                .tp(tp)
                .rooflineHint(RunReport.ROOFLINE_HINT)
                .percentiles(ReportMain.percentiles(first.summary()))
                .build());
    RunReport.of(a, info).withGates(gates(info.gateDefinitions(), a)).write(outDir, Set.of(), out);
    gatlingReport(injectors, all, outDir, out);
  }

  /**
   * Gatling's own report over the union of the records, beside {@code llm.html}: a merged run is
   * shared as any other. Without it (Gatling's writer cannot run here) the merge still stands, and
   * says so.
   */
  private static void gatlingReport(
      List<Injector> injectors, List<RequestRecord> all, Path outDir, PrintStream out)
      throws IOException {
    // a run folder is <simulation>-<yyyyMMddHHmmssSSS>: the simulation as the injectors' runs named
    String folder = injectors.get(0).dir().toAbsolutePath().normalize().getFileName().toString();
    String simulation =
        folder.contains("-") ? folder.substring(0, folder.lastIndexOf('-')) : folder;
    try {
      Path index =
          MergedGatlingReport.write(
              outDir, simulation, "merged from " + injectors.size() + " injectors", all);
      out.println(PREFIX + "Gatling's report of the merged records: " + index.toUri());
    } catch (IllegalStateException e) {
      out.println(PREFIX + "no Gatling report of the merged records: " + e.getMessage());
    }
  }

  /**
   * The injectors' gates over the merged levels (each injector checked them on its own share).
   * Gates relative to a baseline are left to the injectors (the merge has no baseline).
   */
  private static List<GateResult> gates(Map<String, String> definitions, RunAnalysis a) {
    Map<String, String> absolute = new LinkedHashMap<>();
    if (definitions != null) {
      definitions.forEach(
          (name, limit) -> {
            if (!limit.endsWith("%")) {
              absolute.put(name, limit);
            }
          });
    }
    if (absolute.isEmpty()) {
      return List.of();
    }
    GateSet set = GateSet.parse(absolute, "summary.json gate ");
    return GateCheck.check(set, RunFigures.of(a, Optional.empty()), RunFigures.NONE);
  }

  /**
   * How much later (ms) injector {@code other} sent each level's first request than injector 0, the
   * median over the levels: the levels start together, so this is the hosts' clock offset plus the
   * start's jitter. Null when they share no level.
   */
  static Double clockOffsetMs(List<RequestRecord> first, List<RequestRecord> other) {
    Map<String, Long> a = firstSends(first);
    Map<String, Long> b = firstSends(other);
    List<Double> d = new ArrayList<>();
    a.forEach(
        (level, t) -> {
          if (b.containsKey(level)) {
            d.add((double) (b.get(level) - t));
          }
        });
    return d.isEmpty() ? null : Percentiles.median(d);
  }

  private static Map<String, Long> firstSends(List<RequestRecord> records) {
    Map<String, Long> m = new TreeMap<>();
    for (RequestRecord r : records) {
      m.merge(r.level(), r.startMs(), Math::min);
    }
    return m;
  }
}
