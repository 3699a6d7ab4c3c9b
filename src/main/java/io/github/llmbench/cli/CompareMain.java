package io.github.llmbench.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.llmbench.analysis.Comparison;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.compare.CompareCells;
import io.github.llmbench.compare.CompareHistory;
import io.github.llmbench.compare.ComparePage;
import io.github.llmbench.compare.RunComparison;
import io.github.llmbench.compare.SweepComparison;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.sweep.SweepPage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Compares two or more runs:
 *
 * <pre>
 * mvn -q compile exec:java@compare \
 *     -Dexec.args="target/gatling/run-a target/gatling/run-b [--out dir] [--labels tp1,tp2]
 *                  [--history DIR]"
 * </pre>
 *
 * <p>Reads each run's {@code llm/summary.json} (a run folder, its {@code llm/} folder, or the path
 * of a {@code summary.json}), prints per level a table (a row per metric, a column per run, then
 * the ratio of each run to the first), writes {@code compare.html} and Gatling's assets into {@code
 * --out} (default {@code target/gatling/compare-<timestamp>/}) and prints its path. Labels default
 * to the run folders' names.
 *
 * <p>With {@code --history DIR} (a {@code -Dhistory} folder), each run is judged against the
 * baseline with the run-to-run noise the history learned for their key ({@link CompareHistory}), so
 * that single runs get a verdict; runs of different keys, or a key with too few runs, are judged as
 * without it, and the lines say why.
 *
 * <p>A bad argument (fewer than two runs, a missing folder or summary, malformed JSON, a wrong
 * number of labels) prints one line naming it, its value and what is accepted, and exits with
 * status 3; a page that cannot be written exits 1.
 */
public final class CompareMain {

  public static final String PREFIX = "gatling-llm-bench compare: ";
  public static final String USAGE =
      "CompareMain <run dir> <run dir> [...] [--out <dir>] [--labels a,b,...] [--history <dir>]";
  private static final String HISTORY_ACCEPTED =
      "a history folder holding " + HistoryFile.NAME + " (the -Dhistory=DIR of earlier runs)";
  private static final String RUN_ACCEPTED =
      "a Gatling run folder holding llm/summary.json, or the path of a summary.json";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT);
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private CompareMain() {}

  public static void main(String[] args) {
    int rc = run(args, System.out, System.err);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** A run as read: where from, its label, its summary, its folder (null when unknown). */
  record LoadedRun(String arg, String label, Summary summary, Path runDir) {}

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, Paths.get("target", "gatling"), LocalDateTime.now());
  }

  /** As {@link #run(String[], PrintStream, PrintStream)}, the default output under {@code base}. */
  static int run(String[] args, PrintStream out, PrintStream err, Path base, LocalDateTime now) {
    try {
      Arguments a = Arguments.parse(args);
      List<String> labels = labels(a.labels(), a.runs().size());
      Path outDir =
          a.out() != null ? outDir(a.out()) : base.resolve("compare-" + STAMP.format(now));
      Optional<List<SweepPage.Labeled>> sweeps = sweeps(a, labels);
      if (sweeps.isPresent()) {
        out.print(SweepComparison.text(sweeps.get()));
        Path page = SweepComparison.write(outDir, sweeps.get());
        out.println("Comparison page:     " + page);
        return 0;
      }
      HistoryFile.Read history = a.history() == null ? null : history(a.history());

      List<LoadedRun> runs = new ArrayList<>();
      for (String r : a.runs()) {
        runs.add(load(r));
      }
      List<String> finalLabels =
          labels != null ? labels : unique(runs.stream().map(LoadedRun::label).toList());
      List<RunComparison.Input> inputs = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        inputs.add(new RunComparison.Input(finalLabels.get(i), runs.get(i).summary()));
      }
      RunComparison c =
          RunComparison.of(
              inputs,
              history == null
                  ? CompareHistory.NONE
                  : CompareHistory.of(
                      HistoryFile.of(Paths.get(a.history())).toString(),
                      history,
                      runs.stream()
                          .map(r -> new CompareHistory.Run(folderName(r.runDir()), r.summary()))
                          .toList()));
      out.print(consoleText(c));

      List<String> pages = new ArrayList<>();
      for (LoadedRun r : runs) {
        pages.add(runPageHref(outDir, r.runDir()));
      }
      Path page = ComparePage.write(outDir, c, a.runs(), pages);
      out.println("Comparison page:     " + page);
      return 0;
    } catch (BadArgument e) {
      err.println(PREFIX + e.getMessage());
      return 3;
    } catch (UncheckedIOException e) {
      err.println(PREFIX + e.getMessage());
      return 1;
    }
  }

  /**
   * The sweeps to compare when every argument is a sweep's folder ({@code
   * target/gatling/sweep-...}, its {@code summary.json} holding {@code sweep}); empty when none is.
   *
   * @throws BadArgument when some are sweeps and some runs, or with {@code --history}
   */
  static Optional<List<SweepPage.Labeled>> sweeps(Arguments a, List<String> labels) {
    List<SweepPage.Labeled> sweeps = new ArrayList<>();
    for (String r : a.runs()) {
      Path file = Paths.get(r).resolve(SweepSummary.FILE);
      if (Files.isRegularFile(file)) {
        try {
          SweepSummary s = SweepSummary.read(file);
          String name = Paths.get(r).toAbsolutePath().normalize().getFileName().toString();
          sweeps.add(
              new SweepPage.Labeled(labels != null ? labels.get(sweeps.size()) : name, s.sweep()));
        } catch (IllegalArgumentException e) {
          // a run folder's own summary.json: not a sweep
        }
      }
    }
    if (sweeps.isEmpty()) {
      return Optional.empty();
    }
    if (sweeps.size() < a.runs().size()) {
      throw new BadArgument(
          "run dir", String.join(" ", a.runs()), "sweeps' folders only, or runs only, not both");
    }
    if (a.history() != null) {
      throw new BadArgument("--history", a.history(), "no --history with sweeps");
    }
    return Optional.of(sweeps);
  }

  /**
   * The command's arguments as given.
   *
   * @param runs the runs' folders or files, two or more
   * @param out {@code --out}, or null
   * @param labels {@code --labels}, or null
   * @param history {@code --history}, or null
   */
  record Arguments(List<String> runs, String out, String labels, String history) {

    /** Parses {@code --name value} or {@code --name=value} options among the runs. */
    static Arguments parse(String[] args) {
      List<String> runs = new ArrayList<>();
      Map<String, String> options = new HashMap<>();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        if (OPTIONS.containsKey(name)) {
          if (a.contains("=")) {
            options.put(name, a.substring(a.indexOf('=') + 1));
          } else if (i + 1 < args.length) {
            options.put(name, args[++i]);
          } else {
            throw new BadArgument(name, "", OPTIONS.get(name));
          }
        } else if (a.startsWith("-")) {
          throw new BadArgument("option", a, "--out, --labels or --history");
        } else {
          runs.add(a);
        }
      }
      if (runs.size() < 2) {
        throw new BadArgument(
            "run dirs",
            runs.isEmpty() ? "(none)" : String.join(",", runs),
            "two or more run folders (or paths of their llm/summary.json); usage: " + USAGE);
      }
      return new Arguments(
          List.copyOf(runs),
          options.get("--out"),
          options.get("--labels"),
          options.get("--history"));
    }

    /** Each option and what its value must be. */
    private static final Map<String, String> OPTIONS =
        Map.of(
            "--out", "a folder",
            "--labels", "one label per run, comma-separated",
            "--history", HISTORY_ACCEPTED);
  }

  private static List<String> labels(String arg, int runs) {
    if (arg == null) {
      return null;
    }
    List<String> labels = new ArrayList<>();
    for (String s : arg.split(",", -1)) {
      labels.add(s.strip());
    }
    if (labels.size() != runs || labels.stream().anyMatch(String::isEmpty)) {
      throw new BadArgument(
          "--labels", arg, "one non-empty label per run, comma-separated (" + runs + " runs)");
    }
    return labels;
  }

  private static Path outDir(String arg) {
    try {
      Path p = Paths.get(arg);
      if (arg.isBlank() || (Files.exists(p) && !Files.isDirectory(p))) {
        throw new BadArgument("--out", arg, "a folder (created when missing)");
      }
      return p;
    } catch (InvalidPathException e) {
      throw new BadArgument("--out", arg, "a folder (created when missing)");
    }
  }

  /** The history in the folder {@code arg}: it must hold a history file. */
  private static HistoryFile.Read history(String arg) {
    Path dir;
    try {
      dir = Paths.get(arg);
    } catch (InvalidPathException e) {
      throw new BadArgument("--history", arg, HISTORY_ACCEPTED);
    }
    if (arg.isBlank() || !Files.isRegularFile(HistoryFile.of(dir))) {
      throw new BadArgument("--history", arg, HISTORY_ACCEPTED + " (no such file there)");
    }
    try {
      return HistoryFile.read(dir);
    } catch (IOException | UncheckedIOException e) {
      throw new BadArgument(
          "--history",
          arg,
          "a readable " + HistoryFile.NAME + " (" + oneLine(e.getMessage()) + ")");
    }
  }

  private static String folderName(Path runDir) {
    return runDir == null || runDir.getFileName() == null ? null : runDir.getFileName().toString();
  }

  /** Reads one run: a run folder, its llm/ folder, or a summary.json. */
  static LoadedRun load(String arg) {
    Path p;
    try {
      p = Paths.get(arg);
    } catch (InvalidPathException e) {
      throw new BadArgument("run dir", arg, RUN_ACCEPTED);
    }
    Path file;
    Path runDir;
    if (Files.isDirectory(p)) {
      Path nested = RunFiles.ofRun(p).summary();
      if (Files.isRegularFile(nested)) {
        file = nested;
        runDir = p;
      } else if (Files.isRegularFile(p.resolve(RunFiles.SUMMARY))) {
        file = p.resolve(RunFiles.SUMMARY);
        runDir = runDirOf(file);
      } else {
        throw new BadArgument("run dir", arg, RUN_ACCEPTED + " (no llm/summary.json there)");
      }
    } else if (Files.isRegularFile(p)) {
      file = p;
      runDir = runDirOf(file);
    } else {
      throw new BadArgument("run dir", arg, RUN_ACCEPTED + " (no such file or folder)");
    }
    Summary summary;
    try {
      summary = Summary.read(file);
    } catch (Summary.NotASummary e) {
      throw new BadArgument(
          "run dir",
          arg,
          "a summary.json written by gatling-llm-bench (a JSON"
              + " object with levels or vLLM's metric fields) in "
              + file);
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw new BadArgument(
          "run dir",
          arg,
          "a summary.json that is valid JSON ("
              + file
              + ": "
              + oneLine(e.getOriginalMessage())
              + where
              + ")");
    } catch (IOException e) {
      throw new BadArgument(
          "run dir",
          arg,
          "a readable summary.json (" + file + ": " + oneLine(e.getMessage()) + ")");
    }
    String label =
        runDir != null && runDir.getFileName() != null
            ? runDir.getFileName().toString()
            : file.getFileName().toString();
    return new LoadedRun(arg, label, summary, runDir);
  }

  /** The run folder of a summary.json: above its llm/ folder, else its folder. */
  private static Path runDirOf(Path summaryFile) {
    Path dir = summaryFile.toAbsolutePath().normalize().getParent();
    if (dir != null
        && dir.getFileName() != null
        && dir.getFileName().toString().equals(RunFiles.LLM_FOLDER)
        && dir.getParent() != null) {
      return dir.getParent();
    }
    return dir;
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s+", " ").strip();
  }

  private static List<String> unique(List<String> labels) {
    List<String> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String l : labels) {
      String u = l;
      for (int n = 2; !seen.add(u); n++) {
        u = l + " #" + n;
      }
      out.add(u);
    }
    return out;
  }

  /** The href of a run's llm.html from the output folder, or null when it has none. */
  private static String runPageHref(Path outDir, Path runDir) {
    if (runDir == null || !Files.isRegularFile(runDir.resolve(RunFiles.PAGE))) {
      return null;
    }
    Path page = runDir.resolve(RunFiles.PAGE).toAbsolutePath().normalize();
    try {
      Path rel = outDir.toAbsolutePath().normalize().relativize(page);
      return rel.toString().replace('\\', '/');
    } catch (IllegalArgumentException e) {
      return page.toUri().toString();
    }
  }

  // ---------------------------------------------------------------- console

  /**
   * The console form: the runs, numbered, then per level a block with a row per metric, a column
   * per run and a column per other run with its ratio to the first ({@code [2]/[1]}, marked better
   * or worse).
   */
  public static String consoleText(RunComparison c) {
    List<RunComparison.ComparedRun> runs = c.runs();
    StringBuilder sb = new StringBuilder(runsText(runs));
    c.history().lines().forEach(line -> sb.append(line).append('\n'));
    Columns columns = Columns.of(runs);
    for (RunComparison.ComparedLevel l : c.levels()) {
      sb.append(levelText(l, runs, columns));
    }
    sb.append('\n')
        .append(
            "Ratios: each run over the baseline; better/worse: higher throughput,"
                + " lower latency, fewer failures: where the verdicts list a figure, as the data"
                + " shows it, else beyond ")
        .append(Math.round(RunComparison.SAME_WITHIN * 100))
        .append("%; -: missing.\n");
    return sb.toString();
  }

  /** The runs compared, numbered, with what each was run against. */
  private static String runsText(List<RunComparison.ComparedRun> runs) {
    StringBuilder sb = new StringBuilder();
    sb.append("Comparing ")
        .append(runs.size())
        .append(" runs (baseline: ")
        .append(runs.get(0).label())
        .append(")\n");
    for (int i = 0; i < runs.size(); i++) {
      RunComparison.ComparedRun r = runs.get(i);
      sb.append("  [")
          .append(i + 1)
          .append("] ")
          .append(r.label())
          .append(": model ")
          .append(orDash(r.model()))
          .append(", base URL ")
          .append(orDash(r.baseUrl()))
          .append(", dataset ")
          .append(orDash(r.dataset()))
          .append(", date ")
          .append(orDash(r.date()))
          .append(", seed ")
          .append(orDash(r.seed()))
          .append('\n');
    }
    return sb.toString();
  }

  /**
   * The columns of every level's table: the metric labels' width, then a header and a width per run
   * and per ratio to the baseline.
   *
   * @param labelWidth the width of the metric labels' column
   * @param headers the runs' labels, then {@code [2]/[1]}, ... for the ratios
   * @param widths each header's column width
   */
  private record Columns(int labelWidth, List<String> headers, int[] widths) {

    static Columns of(List<RunComparison.ComparedRun> runs) {
      List<String> headers = new ArrayList<>();
      runs.forEach(r -> headers.add(r.label()));
      for (int i = 1; i < runs.size(); i++) {
        headers.add("[" + (i + 1) + "]/[1]");
      }
      int labelWidth = 0;
      for (RunComparison.Figure m : RunComparison.METRICS) {
        labelWidth = Math.max(labelWidth, metricLabel(m).length());
      }
      int[] widths = new int[headers.size()];
      for (int i = 0; i < headers.size(); i++) {
        widths[i] = Math.max(i < runs.size() ? 10 : 15, headers.get(i).length());
      }
      return new Columns(labelWidth, headers, widths);
    }

    /** The table's width: the label column and each column after two spaces. */
    int total() {
      int total = labelWidth;
      for (int w : widths) {
        total += 2 + w;
      }
      return total;
    }
  }

  /** One level's block: its title, the runs without it, the table, then the verdicts. */
  private static String levelText(
      RunComparison.ComparedLevel l, List<RunComparison.ComparedRun> runs, Columns columns) {
    StringBuilder sb = new StringBuilder();
    StringBuilder title = new StringBuilder(" ").append(l.name());
    if (l.concurrencyNotInName()) {
      title.append(" (concurrency ").append(l.concurrency()).append(')');
    }
    title.append(' ');
    sb.append('\n')
        .append(center(title.toString(), Math.max(columns.total(), 50), '='))
        .append('\n');
    for (int i = 0; i < runs.size(); i++) {
      if (!l.present().get(i)) {
        sb.append("(level ")
            .append(l.name())
            .append(" not in ")
            .append(runs.get(i).label())
            .append(")\n");
      }
    }
    sb.append(pad("Metric", columns.labelWidth(), false));
    for (int i = 0; i < columns.headers().size(); i++) {
      sb.append("  ").append(pad(columns.headers().get(i), columns.widths()[i], true));
    }
    sb.append('\n');
    for (RunComparison.Row r : l.rows()) {
      sb.append(rowText(r, runs.size(), columns));
    }
    sb.append(verdictLines(l, runs));
    return sb.toString();
  }

  /** One metric's row: its value in each run, then each other run's ratio to the baseline. */
  private static String rowText(RunComparison.Row r, int runs, Columns columns) {
    StringBuilder sb = new StringBuilder();
    sb.append(pad(metricLabel(r.figure()), columns.labelWidth(), false));
    for (int i = 0; i < runs; i++) {
      sb.append("  ")
          .append(
              pad(
                  CompareCells.value(r.figure(), r.cells().get(i).value()),
                  columns.widths()[i],
                  true));
    }
    for (int i = 1; i < runs; i++) {
      RunComparison.Cell cell = r.cells().get(i);
      String text = CompareCells.ratio(cell.ratio());
      if (cell.verdict() == RunComparison.Verdict.BETTER) {
        text += " better";
      } else if (cell.verdict() == RunComparison.Verdict.WORSE) {
        text += " worse";
      }
      sb.append("  ").append(pad(text, columns.widths()[runs + i - 1], true));
    }
    sb.append('\n');
    return sb.toString();
  }

  /**
   * Per other run, each figure with an interval: the ratio to the baseline, its interval, the
   * verdict and, without a difference, the smallest one the data could have shown.
   */
  static String verdictLines(RunComparison.ComparedLevel l, List<RunComparison.ComparedRun> runs) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < runs.size(); i++) {
      for (RunComparison.Row r : l.rows()) {
        RunComparison.Cell cell = r.cells().get(i);
        Comparison t = cell.test();
        if (t == null && cell.noVerdict() == null) {
          continue;
        }
        if (sb.isEmpty()) {
          sb.append(
              String.format(
                  Locale.ROOT,
                  "Verdicts (%.0f%% intervals of the ratio to [1]):%n",
                  100 * RunComparison.CONFIDENCE));
        }
        if (t == null) {
          sb.append(
              String.format(
                  Locale.ROOT,
                  "  [%d] %-34s %s no verdict: %s%n",
                  i + 1,
                  r.figure().label(),
                  cell.ratio() == null
                      ? "-"
                      : String.format(Locale.ROOT, "%.3f", cell.ratio().doubleValue()),
                  cell.noVerdict()));
          continue;
        }
        Interval ratio = t.ratio();
        sb.append(
            String.format(
                Locale.ROOT,
                "  [%d] %-34s %.3f [%.3f, %.3f] %s: %s%n",
                i + 1,
                r.figure().label(),
                ratio.estimate(),
                ratio.low(),
                ratio.high(),
                basis(cell),
                switch (t.change()) {
                  case WORSE -> "worse";
                  case BETTER -> "better";
                  case NO_DETECTABLE_DIFFERENCE ->
                      Double.isFinite(t.minimumDetectableRatio())
                          ? String.format(
                              Locale.ROOT,
                              "no detectable difference (the data could show +/-%.0f%% or more)",
                              100 * Math.abs(t.minimumDetectableRatio() - 1))
                          : "no detectable difference";
                }));
      }
    }
    return sb.toString();
  }

  /** What a verdict's interval rests on. */
  private static String basis(RunComparison.Cell cell) {
    if (cell.noise() != null) {
      return "history noise (" + cell.noise().runs() + " runs)";
    }
    return cell.test().ratio().basis() == Interval.Basis.TRIALS
        ? "across trials"
        : "within each run only";
  }

  private static String metricLabel(RunComparison.Figure m) {
    return m.label() + (m.unit().isEmpty() ? "" : " (" + m.unit() + ")");
  }

  private static String orDash(String s) {
    return s == null || s.isBlank() ? "-" : s;
  }

  private static String pad(String s, int width, boolean right) {
    if (s.length() >= width) {
      return s;
    }
    String fill = " ".repeat(width - s.length());
    return right ? fill + s : s + fill;
  }

  private static String center(String s, int width, char c) {
    if (s.length() >= width) {
      return s;
    }
    int left = (width - s.length()) / 2;
    return String.valueOf(c).repeat(left) + s + String.valueOf(c).repeat(width - s.length() - left);
  }
}
