package io.github.llmbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.compare.CompareHistoryFixtures;
import io.github.llmbench.compare.RunComparison;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.TestRecords;
import io.github.llmbench.testing.TestReports;
import io.github.llmbench.testing.ThreeLevelRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compare command on two synthetic run folders written by {@link RunReport#write} (the 3-level
 * run of {@link ThreeLevelRun}, and a faster one without its c8 level): the console table,
 * compare.html in headless Chromium (three charts drawn, hostile label and model id shown as text),
 * the default output folder, and bad arguments.
 */
public class CompareMainTest {

  private static final LatencyFigure MEAN_TTFT = LatencyFigure.of(Metric.TTFT, Statistic.MEAN);
  public static final String LABEL_XSS = "<script>alert(4)</script>";
  public static final String MODEL_XSS = "<script>alert(3)</script>";

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return run(null, args);
  }

  private int run(Path base, String... args) {
    out.reset();
    err.reset();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    return base == null
        ? CompareMain.run(args, o, e)
        : CompareMain.run(args, o, e, base, LocalDateTime.of(2025, 1, 2, 3, 4, 5, 6_000_000));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** The baseline: ThreeLevelRun's 3 levels (c2, c4, c8). */
  public static Path baselineRun(Path dir) throws Exception {
    Path run = ThreeLevelRun.runFolder(Files.createDirectories(dir.resolve("tp1")));
    ThreeLevelRun.write(run, quiet());
    return run;
  }

  /** The other run: the same without c8, every TTFT halved; a hostile model id. */
  public static Path otherRun(Path dir) throws Exception {
    Path run = ThreeLevelRun.runFolder(Files.createDirectories(dir.resolve("tp2")));
    List<RequestRecord> rs =
        ThreeLevelRun.records().stream()
            .filter(r -> !"c8".equals(r.level()))
            .map(r -> TestRecords.from(r).ttft(r.ttftMs() == null ? null : r.ttftMs() / 2).build())
            .toList();
    Map<String, Object> meta = new LinkedHashMap<>(ThreeLevelRun.metadata());
    meta.put("model_id", MODEL_XSS);
    meta.put("seed", 1234);
    TestReports.write(run, rs, RunAnalysis.Telemetry.NONE, Map.of(), null, null, 1, meta, quiet());
    return run;
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }

  @Test
  @Tag("chromium")
  void consoleTableAndPageInChromium(@TempDir Path dir) throws Exception {
    Path tp1 = baselineRun(dir);
    Path tp2 = otherRun(dir);
    Path outDir = dir.resolve("cmp");
    // the second run named by its summary.json
    assertEquals(
        0,
        run(
            tp1.toString(),
            tp2.resolve("llm/summary.json").toString(),
            "--out",
            outDir.toString(),
            "--labels",
            "tp1," + LABEL_XSS),
        err());
    assertEquals("", err());
    String text = out();

    // the table: a block per level, a column per run, the ratio to the first
    assertTrue(text.startsWith("Comparing 2 runs (baseline: tp1)\n"), text);
    assertTrue(text.contains("  [2] " + LABEL_XSS + ": model " + MODEL_XSS), text);
    assertTrue(text.contains(", seed 1234\n"), text);
    for (String level : List.of(" c2 ", " c4 ", " c8 ")) {
      assertTrue(text.contains(level + "="), level);
    }
    assertTrue(
        text.indexOf(" c2 =") < text.indexOf(" c4 =")
            && text.indexOf(" c4 =") < text.indexOf(" c8 ="),
        text);
    assertTrue(text.contains("(level c8 not in " + LABEL_XSS + ")"), text);
    assertTrue(text.contains("Metric"), text);

    Summary s1 = TestReports.summary(tp1);
    Summary s2 = TestReports.summary(tp2);
    double ttft1 = s1.levels().get("c4").figures().latency(MEAN_TTFT);
    double ttft2 = s2.levels().get("c4").figures().latency(MEAN_TTFT);
    assertEquals(ttft1 / 2, ttft2, 1e-9); // what the other run was made of
    String c4 = block(text, "c4");
    // one run a side: the ratio is shown, but no verdict (run-to-run noise unknown), and why
    assertLine(c4, "Mean TTFT (ms)", f2(ttft1), f2(ttft2), "0.50x");
    assertTrue(
        text.contains(
            "[2] Mean TTFT                          0.500 no verdict: "
                + RunComparison.ONE_RUN_A_SIDE),
        text);
    double out1 = s1.levels().get("c4").figures().outputThroughput();
    assertLine(c4, "Output token throughput (tok/s)", f2(out1), f2(out1), "1.00x");
    assertLine(c4, "Failed requests", "1", "1", "1.00x");
    String c8 = block(text, "c8");
    assertLine(
        c8, "Mean TTFT (ms)", f2(s1.levels().get("c8").figures().latency(MEAN_TTFT)), "-", "-");
    assertTrue(text.contains("Comparison page:     " + outDir.resolve("compare.html")), text);

    // the page: beside the assets it needs, drawn from disk with no network
    Path page = outDir.resolve("compare.html");
    assertTrue(Files.isRegularFile(outDir.resolve("js/highstock.js")));
    assertTrue(Files.isRegularFile(outDir.resolve("style/style.css")));
    String html = Files.readString(page);
    assertFalse(
        html.contains("src=\"http") || html.contains("href=\"http"),
        "nothing from the" + " network");
    assertTrue(html.contains("llm-better") && html.contains("llm-worse"), "coloured cells");
    Chromium.Dump d = Chromium.open(page);
    Chromium.assertChartsDrawn(d, 3);
    String dom = d.dom();
    assertTrue(dom.contains("&lt;script&gt;alert(3)&lt;/script&gt;"), "model id escaped");
    assertTrue(dom.contains("&lt;script&gt;alert(4)&lt;/script&gt;"), "label escaped");
    assertTrue(dom.contains("Qwen/&lt;b&gt;Qwen2.5&lt;/b&gt;-7B"), "baseline model escaped");
    assertFalse(dom.contains("<script>alert("), "no injected script element");
    assertFalse(dom.contains("sk-secret-not-shown"), "secret shown");
    // each run's metadata and a link to its own page
    assertTrue(dom.contains("tp1 (baseline)"), "baseline");
    assertTrue(dom.contains(">1234<"), "seed");
    assertTrue(
        dom.contains("href=\"../tp1/servingbenchmarksimulation-20250101000000000/llm.html\""),
        "link to the run's page");
    // the ratio of c4's mean TTFT, not coloured: one run a side gets no verdict
    assertTrue(
        dom.contains(
            "<td class=\"value total\">0.50x (no verdict: one run a side: run-to-run noise"
                + " unknown; -Dtrials=N, or --history DIR of runs kept with -Dhistory)</td>"),
        "ratio cell");
    // the legend names both runs
    assertEquals(3, Chromium.count(dom, ">tp1</text>"), "a tp1 series per chart");
  }

  @Test
  void defaultOutputFolderAndFolderNamesAsLabels(@TempDir Path dir) throws Exception {
    Path tp1 = baselineRun(dir);
    Path tp2 = otherRun(dir);
    Path base = dir.resolve("target/gatling");
    // a run's llm/ folder is accepted too
    assertEquals(0, run(base, tp1.toString(), tp2.resolve("llm").toString()), err());
    Path page = base.resolve("compare-20250102030405006/compare.html");
    assertTrue(Files.isRegularFile(page), out());
    assertTrue(out().contains("Comparison page:     " + page), out());
    // both folders have the same name: the second is told apart
    assertTrue(out().contains("[1] servingbenchmarksimulation-20250101000000000: "), out());
    assertTrue(out().contains("[2] servingbenchmarksimulation-20250101000000000 #2: "), out());
  }

  @Test
  void badArgumentsGiveOneLine(@TempDir Path dir) throws Exception {
    Path tp1 = baselineRun(dir);
    String p = "gatling-llm-bench compare: ";

    assertBad(
        p
            + "Invalid run dirs=(none): expected two or more run folders (or paths of their"
            + " llm/summary.json); usage: "
            + CompareMain.USAGE);
    assertBad(
        p
            + "Invalid run dirs="
            + tp1
            + ": expected two or more run folders (or paths of"
            + " their llm/summary.json); usage: "
            + CompareMain.USAGE,
        tp1.toString());

    Path nowhere = dir.resolve("nowhere");
    assertBad(
        p
            + "Invalid run dir="
            + nowhere
            + ": expected a Gatling run folder holding"
            + " llm/summary.json, or the path of a summary.json (no such file or folder)",
        tp1.toString(),
        nowhere.toString());

    Path empty = Files.createDirectories(dir.resolve("empty-run"));
    assertBad(
        p
            + "Invalid run dir="
            + empty
            + ": expected a Gatling run folder holding"
            + " llm/summary.json, or the path of a summary.json (no llm/summary.json there)",
        tp1.toString(),
        empty.toString());

    Path broken = Files.createDirectories(dir.resolve("broken/llm"));
    Files.writeString(broken.resolve("summary.json"), "{\"levels\": {\"c8\": {\n");
    assertEquals(3, run(tp1.toString(), broken.getParent().toString()));
    assertOneLine();
    assertTrue(
        err()
            .startsWith(
                p
                    + "Invalid run dir="
                    + broken.getParent()
                    + ": expected a"
                    + " summary.json that is valid JSON ("
                    + broken.resolve("summary.json")
                    + ": "),
        err());

    Path notOurs = Files.createDirectories(dir.resolve("other/llm"));
    Files.writeString(notOurs.resolve("summary.json"), "[1, 2, 3]\n");
    assertEquals(3, run(tp1.toString(), notOurs.resolve("summary.json").toString()));
    assertOneLine();
    assertTrue(err().contains("expected a summary.json written by gatling-llm-bench"), err());

    assertBad(
        p
            + "Invalid --labels=a,b,c: expected one non-empty label per run, comma-separated"
            + " (2 runs)",
        tp1.toString(),
        tp1.toString(),
        "--labels",
        "a,b,c");
    assertBad(
        p
            + "Invalid --labels=a,: expected one non-empty label per run, comma-separated"
            + " (2 runs)",
        tp1.toString(),
        tp1.toString(),
        "--labels=a,");
    assertBad(
        p + "Invalid option=--fast: expected --out, --labels or --history",
        tp1.toString(),
        tp1.toString(),
        "--fast");
    assertBad(p + "Invalid --out=: expected a folder", tp1.toString(), tp1.toString(), "--out");
    Path file = tp1.resolve("index.html");
    assertBad(
        p + "Invalid --out=" + file + ": expected a folder (created when missing)",
        tp1.toString(),
        tp1.toString(),
        "--out",
        file.toString());
  }

  /** Two single runs, A at 20 ms mean TPOT and B at {@code tpotB}, and B's settings. */
  private String[] singleRuns(Path dir, double tpotB, int outputLenB) throws Exception {
    Path a =
        CompareHistoryFixtures.runFolder(dir, "run-a", CompareHistoryFixtures.settings(64), 20.0);
    Path b =
        CompareHistoryFixtures.runFolder(
            dir, "run-b", CompareHistoryFixtures.settings(outputLenB), tpotB);
    return new String[] {a.toString(), b.toString()};
  }

  private String[] withHistory(String[] runs, Path history, Path out) {
    return new String[] {
      runs[0], runs[1], "--history", history.toString(), "--out", out.toString()
    };
  }

  @Test
  void aHistoryGivesTwoSingleRunsTheirNoise(@TempDir Path dir) throws Exception {
    // the compared runs' own lines are in the history too, as a CI job keeps them: left out
    Path history =
        CompareHistoryFixtures.history(dir.resolve("hist"), 12, "run-a", 20.0, "run-b", 24.0);
    String[] runs = singleRuns(dir, 24.0, 64);
    String mean = "[2] Mean TPOT";

    // without the history: no verdict, as before
    assertEquals(0, run(runs[0], runs[1], "--out", dir.resolve("cmp0").toString()), err());
    assertTrue(
        out()
            .contains(
                mean
                    + "                          1.200 no verdict: "
                    + RunComparison.ONE_RUN_A_SIDE),
        out());

    // a clear 20% slowdown against a history whose noise is small: worse, the noise said
    Path page = dir.resolve("cmp1");
    assertEquals(0, run(withHistory(runs, history, page)), err());
    String text = out();
    assertTrue(
        text.contains(
            "History "
                + history.resolve("history.jsonl")
                + ": 14 run(s), 1 key(s); the compared runs' own lines left out of the noise\n"),
        text);
    assertTrue(text.contains("[1] key ") && text.contains(" (its line in the history)\n"), text);
    assertTrue(text.contains("[2] against [1]: key "), text);
    assertTrue(text.contains("12 earlier run(s) of it: the pair is judged with their noise"), text);
    Matcher worse =
        Pattern.compile(
                Pattern.quote(mean)
                    + " +1\\.200 \\[(\\d\\.\\d+), (\\d\\.\\d+)\\] history noise \\(12 runs\\): worse\n")
            .matcher(text);
    assertTrue(worse.find(), text);
    assertTrue(Double.parseDouble(worse.group(1)) > 1.1, worse.group());
    assertTrue(Double.parseDouble(worse.group(2)) < 1.3, worse.group());
    assertLine(block(text, "c8"), "Mean TPOT (ms)", "20.00", "24.00", "1.20x worse");
    // the throughput, which has no within-run interval, is judged with the history's noise too
    assertTrue(text.contains("[2] Output token throughput"), text);
    String html = Files.readString(page.resolve("compare.html"));
    assertTrue(html.contains("1.20x [1.1"), html);
    assertTrue(html.contains(" (history noise, 12 runs)</td>"), html);
    assertTrue(html.contains("12 earlier run(s) of it: the pair is judged with their noise"), html);
    assertTrue(html.contains("(model Qwen/&lt;b&gt;Qwen3&lt;/b&gt;-0.6B, api chat"), html);
    assertFalse(html.contains("<b>Qwen3"), "the key's model id escaped");

    // the same history, no change: no detectable difference
    String[] same = singleRuns(dir.resolve("same"), 20.1, 64);
    assertEquals(0, run(withHistory(same, history, dir.resolve("cmp2"))), err());
    assertTrue(
        Pattern.compile(
                Pattern.quote(mean)
                    + " +1\\.005 \\[0\\.9\\d+, 1\\.0\\d+\\] history noise \\(12 runs\\):"
                    + " no detectable difference \\(the data could show \\+/-\\d+% or more\\)\n")
            .matcher(out())
            .find(),
        out());
    assertLine(block(out(), "c8"), "Mean TPOT (ms)", "20.00", "20.10", "1.01x");
  }

  @Test
  void runsOfDifferentKeysOrTooShortAHistoryAreJudgedAsWithoutOne(@TempDir Path dir)
      throws Exception {
    Path history = CompareHistoryFixtures.history(dir.resolve("hist"), 12);
    // B asked for 128 output tokens: another workload, another key
    String[] other = singleRuns(dir, 24.0, 128);
    assertEquals(0, run(withHistory(other, history, dir.resolve("cmp1"))), err());
    String text = out();
    assertTrue(
        text.contains("[2] key ")
            && text.contains(" (from its summary.json: not in the history)\n"),
        text);
    assertTrue(
        Pattern.compile(
                "\\[2] against \\[1]: keys differ \\(\\[1] [0-9a-f]{12}, \\[2] [0-9a-f]{12}: output\\.len\\),"
                    + " the history gives this pair no noise; judged as without a history\n")
            .matcher(text)
            .find(),
        text);
    assertTrue(
        Pattern.compile(
                "\\[2] Mean TPOT +1\\.200 no verdict: one run a side: run-to-run noise unknown;"
                    + " keys differ \\(\\[1] [0-9a-f]{12}, \\[2] [0-9a-f]{12}: output\\.len\\), the"
                    + " history gives this pair no noise\n")
            .matcher(text)
            .find(),
        text);
    assertFalse(text.contains("history noise ("), text);

    // the same key, 3 runs of history: too few, said, and no verdict as before
    Path shortHistory = CompareHistoryFixtures.history(dir.resolve("short"), 3);
    String[] runs = singleRuns(dir.resolve("short-runs"), 24.0, 64);
    assertEquals(0, run(withHistory(runs, shortHistory, dir.resolve("cmp2"))), err());
    text = out();
    assertTrue(
        text.contains("3 earlier run(s) of it, 5 needed: judged as without a history\n"), text);
    assertTrue(
        Pattern.compile(
                "\\[2] Mean TPOT +1\\.200 no verdict: one run a side: run-to-run noise unknown; the"
                    + " history has 3 run\\(s\\) of key [0-9a-f]{12} with c8 tpot\\.mean \\(the"
                    + " compared runs left out\\), 5 needed to learn the noise\n")
            .matcher(text)
            .find(),
        text);
  }

  @Test
  void aBadHistoryGivesOneLine(@TempDir Path dir) throws Exception {
    String[] runs = singleRuns(dir, 24.0, 64);
    String p = "gatling-llm-bench compare: ";
    Path nowhere = dir.resolve("nowhere");
    assertBad(
        p
            + "Invalid --history="
            + nowhere
            + ": expected a history folder holding history.jsonl (the -Dhistory=DIR of earlier"
            + " runs) (no such file there)",
        runs[0],
        runs[1],
        "--history",
        nowhere.toString());
    assertBad(
        p
            + "Invalid --history=: expected a history folder holding history.jsonl (the"
            + " -Dhistory=DIR of earlier runs)",
        runs[0],
        runs[1],
        "--history");
  }

  private void assertBad(String line, String... args) {
    assertEquals(3, run(args), err());
    assertEquals(line + "\n", err());
    assertOneLine();
    assertFalse(out().contains("Comparison page"), out());
  }

  private void assertOneLine() {
    assertEquals(1, err().lines().count(), err());
    assertFalse(err().contains("Exception") || err().contains("\tat "), err());
  }

  /** The console block of a level: from its title line to the next blank line. */
  private static String block(String text, String level) {
    Matcher m = Pattern.compile("(?s)\n=+ " + level + " =+\n(.*?)\n\n").matcher(text);
    assertTrue(m.find(), "no block " + level + " in\n" + text);
    return m.group(1);
  }

  private static void assertLine(String block, String metric, String... cells) {
    StringBuilder re = new StringBuilder("(?m)^" + Pattern.quote(metric));
    for (String c : cells) {
      re.append(" +").append(Pattern.quote(c));
    }
    re.append("$");
    assertTrue(
        Pattern.compile(re.toString()).matcher(block).find(),
        metric + " " + String.join(" ", cells) + " in\n" + block);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
