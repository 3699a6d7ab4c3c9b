package io.github.llmbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.Percentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.gates.GateCheck;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GateSet;
import io.github.llmbench.gates.GatesXml;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.records.ServerMetricsFile;
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
 * mvn -q exec:java@merge -Dexec.args="target/gatling/run-a target/gatling/run-b --out target/gatling/merged"
 * </pre>
 *
 * <p>Checked first, each problem on its own line (exit status 3): every folder holds {@code
 * llm/requests.jsonl}; the runs are injectors 0..N-1 of one run (one N, every index once, the same
 * seed and settings). The clock offset of each injector against injector 0 is estimated from the
 * levels' first sends (they start together, on {@code -Dstart.at}) and stated; records keep each
 * host's own clock. The server's metrics are injector 0's (every injector read the same server).
 * Each injector's own Gatling report stays in its folder and is listed in the merged summary.
 */
public final class MergeMain {
  public static final String PREFIX = "gatling-llm-bench merge: ";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Settings every injector of one run shares; the others (its index, the simulator's port) may
   * differ.
   */
  private static final Set<String> OWN_SETTINGS = Set.of("injector");

  private MergeMain() {}

  public static void main(String[] args) {
    int rc = run(args, System.out, System.err);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** One injector's run folder, read. */
  private record Injector(
      Path dir, int index, int count, JsonNode summary, List<RequestRecord> records) {}

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
        JsonNode s = JSON.readTree(summary.toFile());
        String[] injector = s.path("injector").asText("0/1").split("/");
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
      if (!Objects.equals(
          i.summary().path("seed").asText(), first.summary().path("seed").asText())) {
        problems.add(
            "Run "
                + i.dir()
                + " has -Dseed="
                + i.summary().path("seed").asText()
                + ", run "
                + first.dir()
                + " -Dseed="
                + first.summary().path("seed").asText()
                + ": expected the injectors of one run (one seed)");
      }
      JsonNode a = first.summary().path("settings");
      JsonNode b = i.summary().path("settings");
      Set<String> keys = new TreeSet<>();
      a.fieldNames().forEachRemaining(keys::add);
      b.fieldNames().forEachRemaining(keys::add);
      for (String k : keys) {
        if (!OWN_SETTINGS.contains(k)
            && !k.equals("seed")
            && !Objects.equals(a.path(k).asText(null), b.path(k).asText(null))) {
          problems.add(
              "Run "
                  + i.dir()
                  + " differs from run "
                  + first.dir()
                  + " in -D"
                  + k
                  + ": "
                  + b.path(k).asText("(unset)")
                  + " vs "
                  + a.path(k).asText("(unset)"));
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
    Map<String, Object> metadata = ReportMain.metadata(first.summary());
    metadata.put("injector", "merged: " + injectors.size() + " injectors");
    List<Map<String, Object>> list = new ArrayList<>();
    for (Injector i : injectors) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("injector", i.index() + "/" + i.count());
      m.put("run", i.dir().toString());
      m.put("requests", i.records().size());
      m.put("clock_offset_ms", clockOffsetMs(first.records(), i.records()));
      // relative to the merged folder, so llm.html links it wherever the folders are copied
      // together
      m.put(
          "gatling_report",
          outDir
              .toAbsolutePath()
              .normalize()
              .relativize(i.dir().toAbsolutePath().normalize().resolve("index.html"))
              .toString());
      list.add(m);
    }
    metadata.put("injectors", list);
    JsonNode inputs = first.summary().path("report_inputs");
    ModelSpec model =
        inputs.hasNonNull("model") ? ReportMain.model(inputs.get("model").asText()) : null;
    GpuSpec gpu = inputs.hasNonNull("gpu") ? ReportMain.gpu(inputs.get("gpu").asText()) : null;
    int tp = inputs.hasNonNull("tp") ? inputs.get("tp").asInt() : 1;
    RunAnalysis.Telemetry telemetry =
        new RunAnalysis.Telemetry(
            ServerMetricsFile.read(llm), first.summary().path("model_id").asText(null));
    out.println(
        PREFIX + all.size() + " requests of " + injectors.size() + " injectors into " + outDir);
    for (Map<String, Object> m : list) {
      out.println(
          "  injector "
              + m.get("injector")
              + ": "
              + m.get("requests")
              + " requests from "
              + m.get("run")
              + (m.get("clock_offset_ms") == null
                  ? ""
                  : String.format(
                      Locale.ROOT,
                      ", first sends %+.0f ms from injector 0's (clock offset and start jitter)",
                      (Double) m.get("clock_offset_ms"))));
    }
    // each level's whole concurrency comes from its name (c128): the injectors' own summaries hold
    // their shares
    RunAnalysis a =
        RunReport.write(outDir, all, telemetry, Map.of(), model, gpu, tp, metadata, out);
    checkGates(first.summary().path("gate_definitions"), a, llm, out);
  }

  /**
   * The injectors' gates over the merged levels (each injector checked them on its own share):
   * printed and written to {@code llm/gates.xml}. Gates relative to a baseline are left to the
   * injectors (the merge has no baseline).
   */
  private static void checkGates(JsonNode definitions, RunAnalysis a, Path llm, PrintStream out)
      throws IOException {
    Map<String, String> absolute = new LinkedHashMap<>();
    definitions
        .fields()
        .forEachRemaining(
            e -> {
              if (!e.getValue().asText().endsWith("%")) {
                absolute.put(e.getKey(), e.getValue().asText());
              }
            });
    if (absolute.isEmpty()) {
      return;
    }
    GateSet set = GateSet.parse(absolute, "summary.json gate ");
    List<GateResult> results =
        GateCheck.check(set, RunFigures.of(a, Optional.empty()), RunFigures.NONE);
    out.println();
    out.println("=================== Gates (merged) ===========");
    results.forEach(r -> out.println(r.line()));
    Files.writeString(
        llm.resolve(RunFiles.GATES_XML), GatesXml.of(results, "gatling-llm-bench gates (merged)"));
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
