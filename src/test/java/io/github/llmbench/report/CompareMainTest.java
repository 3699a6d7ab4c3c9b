package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.TestRecords;
import io.github.llmbench.testing.TestReports;
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
 * run of {@link LlmPageTest}, and a faster one without its c8 level): the console table,
 * compare.html in headless Chromium (three charts drawn, hostile label and model id shown as text),
 * the default output folder, and bad arguments.
 */
class CompareMainTest {

  private static final LatencyFigure MEAN_TTFT = LatencyFigure.of(Metric.TTFT, Statistic.MEAN);
  static final String LABEL_XSS = "<script>alert(4)</script>";
  static final String MODEL_XSS = "<script>alert(3)</script>";

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

  /** The baseline: LlmPageTest's 3-level run (c2, c4, c8). */
  static Path baselineRun(Path dir) throws Exception {
    Path run = LlmPageTest.runFolder(Files.createDirectories(dir.resolve("tp1")));
    TestReports.write(
        run,
        LlmPageTest.threeLevelRun(),
        RunAnalysis.Telemetry.NONE,
        Map.of(),
        Catalog.model("qwen2.5-7b-instruct"),
        Catalog.gpu("rtx4080-32gb"),
        1,
        LlmPageTest.metadata(),
        quiet());
    return run;
  }

  /** The other run: the same without c8, every TTFT halved; a hostile model id. */
  static Path otherRun(Path dir) throws Exception {
    Path run = LlmPageTest.runFolder(Files.createDirectories(dir.resolve("tp2")));
    List<RequestRecord> rs =
        LlmPageTest.threeLevelRun().stream()
            .filter(r -> !"c8".equals(r.level()))
            .map(r -> TestRecords.from(r).ttft(r.ttftMs() == null ? null : r.ttftMs() / 2).build())
            .toList();
    Map<String, Object> meta = new LinkedHashMap<>(LlmPageTest.metadata());
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
            "[2] Mean TTFT                          0.500 no verdict: one run a side: run-to-run"
                + " noise unknown; -Dtrials=N or -Dhistory"),
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
                + " unknown; -Dtrials=N or -Dhistory)</td>"),
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
        p + "Invalid option=--fast: expected --out or --labels",
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
