package io.github.llmbench.report.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.summary.FailureCount;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RunInfo;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of a synthetic 3-level run (plus a warmup level): summary.json, the menu link in
 * Gatling's pages, and the page opened in headless Chromium (Debian's {@code chromium}; the test
 * fails when it is missing): every chart drawn, no script error, hostile text shown as text.
 */
public class LlmPageTest {

  @Test
  @Tag("chromium")
  void summaryLinkAndPageInChromium(@TempDir Path dir) throws Exception {
    Path run = ThreeLevelRun.runFolder(dir);
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunAnalysis a =
        ThreeLevelRun.write(run, new PrintStream(console, true, StandardCharsets.UTF_8));
    assertEquals(List.of("c2", "c4", "c8"), List.copyOf(a.levels().keySet()));

    String out = console.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("Serving Benchmark Result (c4)"), out);
    assertTrue(out.contains("=== Steady-State Metrics (c4) ==="), out);
    assertTrue(out.contains("Concurrency threshold:              >= 0.95 * 8 = 8"), out);
    assertTrue(out.contains("Decode only:"), out);
    assertTrue(out.contains("Too few levels to fit a knee: 3 levels"), out);
    assertFalse(out.contains("warmup"), out);

    // summary.json: vLLM's fields at the top, levels with both blocks, the knee
    Summary s = TestReports.summary(run);
    assertEquals("openai-chat", s.run().backend());
    // the key never reaches the file (no typed field can show it: the file's text is read)
    String written = Files.readString(run.resolve("llm/summary.json"));
    assertFalse(written.contains("api_key") || written.contains("sk-secret-not-shown"), written);
    assertTrue(s.overall().requestThroughput() > 0, s.overall().toString());
    assertTrue(
        Double.isFinite(s.overall().latency(LatencyFigure.of(Metric.TTFT, Statistic.P99))),
        s.overall().toString());
    assertEquals(3, s.overall().failed()); // warmup left out
    assertEquals(List.of("c2", "c4", "c8"), List.copyOf(s.levels().keySet()));
    LevelSummary c4 = s.levels().get("c4");
    assertEquals(4, c4.figures().maxConcurrency());
    assertEquals(4, c4.steadyState().threshold());
    assertTrue(c4.steadyState().reached());
    assertTrue(c4.roofline().decode().attainment() > 0);
    assertEquals("bandwidth", c4.roofline().decode().roof());
    assertTrue(s.knee().kneeVerdict().startsWith("Too few levels"));
    assertEquals("c8", s.knee().saturationLevel());
    assertEquals("qwen2.5-7b-instruct", s.reportInputs().model());
    for (String level : List.of("c2", "c4", "c8")) { // each level's one failure, its text as sent
      List<FailureCount> failures = s.levels().get(level).failures();
      assertEquals(1, failures.size(), level);
      assertEquals(ThreeLevelRun.XSS, failures.get(0).error());
      assertEquals(1, failures.get(0).count());
    }
    assertTrue(out.contains("- Failures (c4) -"), out);

    // the link: in both Gatling pages, once, and a second report leaves it once
    TestReports.write(
        run,
        ThreeLevelRun.records(),
        RunAnalysis.Telemetry.NONE,
        Map.of(),
        null,
        null,
        1,
        ThreeLevelRun.metadata(),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    for (String page : List.of("index.html", "group_c2-1.html")) {
      String html = Files.readString(run.resolve(page));
      assertEquals(1, Chromium.count(html, "id=\"llm_link\""), page);
      assertTrue(
          html.contains(
              "Details</a></div>\n<div class=\"item\"><a id=\"llm_link\""
                  + " href=\"llm.html\">LLM</a></div>"),
          html);
    }
    assertTrue(
        TestReports.summary(run)
            .levels()
            .get("c4")
            .roofline()
            .skipped()
            .contains("Roofline skipped: no model or GPU spec"));

    // the page without a roofline: 5 charts; with one: 6
    assertChromium(run, 5);
    ThreeLevelRun.write(
        run, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    String dom = assertChromium(run, 6);
    assertTrue(dom.contains("Roofline (Qwen/Qwen2.5-7B-Instruct"), "roofline table");
    assertTrue(dom.contains("Failed requests (c8): 1, by reason"), "failure table");
  }

  @Test
  @Tag("chromium")
  void aRampGetsItsChartOverTimeWithTheLineWhereLatencyBroke(@TempDir Path dir) throws Exception {
    Path run = ThreeLevelRun.runFolder(dir);
    Ramp ramp = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 2, 20);
    List<RequestRecord> records = new ArrayList<>();
    long t0 = 1_700_000_000_000L;
    for (int i = 0; i < 200; i++) { // sent when the ramp expects them; TTFT grows after 12 s
      double t = ramp.timeOf(i + 0.5, 20);
      records.add(
          TestRecords.ok(ramp.tag())
              .start(t0 + Math.round(t * 1000))
              .ttft(t < 12 ? 50 : 50 + 100 * (t - 11))
              .build());
    }
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    TestReports.write(
        run,
        records,
        RunAnalysis.Telemetry.NONE,
        Map.of(),
        null,
        null,
        1,
        ThreeLevelRun.metadata(),
        new PrintStream(console, true, StandardCharsets.UTF_8));
    assertTrue(
        console.toString(StandardCharsets.UTF_8).contains("- Ramp -"),
        console.toString(StandardCharsets.UTF_8));
    Chromium.Dump d = Chromium.open(run.resolve("llm.html"));
    Chromium.assertChartsDrawn(d, 6);
    Matcher verdict =
        Pattern.compile("Ramp linear 2 to 20 req/s: latency broke at ([0-9.]+) req/s")
            .matcher(d.dom());
    assertTrue(verdict.find(), "the verdict under the chart");
    // the chart's legend names the line, to two decimals, drawn by its script
    Matcher line =
        Pattern.compile("Latency broke at ([0-9]+\\.[0-9]{2}) req/s \\(the red line\\)")
            .matcher(d.dom());
    assertTrue(line.find(), "the chart's line where latency broke");
    assertEquals(Double.parseDouble(verdict.group(1)), Double.parseDouble(line.group(1)), 0.006);
  }

  /**
   * c2 fails for 12 reasons (reason i i times, one of them hostile), c4 never: c2's table shows the
   * 10 most frequent, most first, and says what it left out; c4 gets no table.
   */
  @Test
  void failureTablesPerLevelTopTenMostFirstEscaped() {
    List<RequestRecord> rs = new ArrayList<>();
    long t = ThreeLevelRun.T;
    for (int i = 1; i <= 12; i++) {
      String reason =
          i == 11 ? "HTTP 400: " + ThreeLevelRun.XSS + " & more" : "HTTP 500: reason " + i;
      for (int k = 0; k < i; k++) {
        rs.add(
            TestRecords.failed("c2", reason)
                .id("f" + i + "-" + k)
                .start(t)
                .end(t + 10)
                .inputTokens(100)
                .status(i == 11 ? 400 : 500)
                .build());
        t += 10;
      }
    }
    rs.add(TestRecords.ok("c4").id("ok").start(t + 1_000).end(t + 1_100).build());
    String html =
        LlmPage.html(
            RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build()),
            RunInfo.NONE,
            null,
            "run");

    String errors =
        html.substring(html.indexOf("<div id=\"llm-errors\""), html.indexOf("<div id=\"llm-run\""));
    assertTrue(errors.contains("Failed requests (c2): 78, by reason"), errors);
    assertFalse(errors.contains("(c4)"), errors);
    Matcher row =
        Pattern.compile(
                "<tr><td class=\"total\">(\\d+)</td><td class=\"value total\">([^<]*)</td></tr>")
            .matcher(errors);
    List<Integer> counts = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    while (row.find()) {
      counts.add(Integer.parseInt(row.group(1)));
      reasons.add(row.group(2));
    }
    assertEquals(List.of(12, 11, 10, 9, 8, 7, 6, 5, 4, 3), counts);
    assertEquals("HTTP 400: &lt;script&gt;alert(1)&lt;/script&gt; &amp; more", reasons.get(1));
    assertEquals("HTTP 500: reason 3", reasons.get(9));
    assertFalse(errors.contains(ThreeLevelRun.XSS), "unescaped error text");
    assertTrue(
        errors.contains("3 more failed requests with 2 other reasons in llm/requests.jsonl."),
        errors);

    String clean =
        LlmPage.html(
            RunAnalysis.of(
                RunAnalysis.Inputs.builder(rs.subList(rs.size() - 1, rs.size()))
                    .rooflineHint("hint")
                    .build()),
            RunInfo.NONE,
            null,
            "run");
    assertTrue(
        clean.contains(
            "<div id=\"llm-errors\" class=\"llm-section\">\n<p class=\"llm-note\">No failed"
                + " requests.</p>"),
        clean);
  }

  @Test
  void aLadderPointOfALevelWithTrialsCarriesItsIntervals() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      for (int i = 0; i < 10; i++) {
        long start = ThreeLevelRun.T + 100_000L * k + i * 1000L;
        rs.add(
            TestRecords.ok("c2")
                .id("t" + k + "-" + i)
                .start(start)
                .end(start + 1000)
                .ttft(100 + k)
                .tpot(10.0 + k)
                .e2el(1000)
                .inputTokens(50)
                .outputTokens(10)
                .origin(RequestOrigin.inTrial(null, k))
                .build());
      }
    }
    rs.add(
        TestRecords.ok("c4")
            .id("once")
            .start(ThreeLevelRun.T + 900_000)
            .end(ThreeLevelRun.T + 901_000)
            .build());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> ladder =
        (List<Map<String, Object>>)
            LlmPage.chartData(
                    RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build()))
                .get("ladder");
    Map<String, Object> c2 = ladder.get(0);
    double low = (Double) c2.get("tpotLow");
    double high = (Double) c2.get("tpotHigh");
    assertTrue(low < 12 && 12 < high, "the trials' 11, 12, 13 ms: " + c2);
    assertTrue(c2.containsKey("outLow") && c2.containsKey("ttftP99High"), c2.toString());
    assertFalse(ladder.get(1).containsKey("tpotLow"), "c4 ran once: " + ladder.get(1));
  }

  @Test
  void ttftByTurnAndTraceLatenessTablesOnlyWhereTheRunHasThem() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      rs.add(
          TestRecords.ok(ThreeLevelRun.XSS)
              .id("t" + k)
              .start(ThreeLevelRun.T + k * 100)
              .end(ThreeLevelRun.T + k * 100 + 50)
              .ttft(10.0 * k)
              .inputTokens(100 * k)
              .origin(RequestOrigin.turn("conv-1", k))
              .build());
    }
    rs.add(
        TestRecords.ok("trace")
            .id("r1")
            .start(ThreeLevelRun.T)
            .end(ThreeLevelRun.T + 50)
            .origin(RequestOrigin.trace(0, 3_000))
            .build());
    rs.add(
        TestRecords.ok("trace")
            .id("r2")
            .start(ThreeLevelRun.T + 500)
            .end(ThreeLevelRun.T + 550)
            .origin(RequestOrigin.trace(500_000, 510_500))
            .build());
    String html =
        LlmPage.html(
            RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build()),
            RunInfo.NONE,
            null,
            "run");
    String section =
        html.substring(
            html.indexOf("<div id=\"llm-workload\""), html.indexOf("<div id=\"llm-errors\""));
    assertTrue(section.contains("TTFT by turn (&lt;script&gt;"), section);
    assertFalse(section.contains(ThreeLevelRun.XSS), "the level's name escaped");
    assertTrue(
        section.contains(
            "<tr><td class=\"total\">3</td><td class=\"value total\">1</td><td class=\"value total\">0</td>"
                + "<td class=\"value total\">300.0</td><td class=\"value total\">30.00</td>"),
        section);
    assertTrue(section.contains("Trace replay (trace)"), section);
    assertTrue(
        section.contains("<td class=\"total\">2</td><td class=\"value total\">3.8</td>"),
        "median of 0 and 7.5 ms late: " + section);
    String plain =
        LlmPage.html(
            RunAnalysis.of(
                RunAnalysis.Inputs.builder(rs.subList(3, 4)).rooflineHint("hint").build()),
            RunInfo.NONE,
            null,
            "run");
    assertTrue(plain.contains("llm-workload"), "one trace record still has a lateness row");
    rs.replaceAll(r -> r.toBuilder().origin(null).build());
    assertFalse(
        LlmPage.html(
                RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build()),
                RunInfo.NONE,
                null,
                "run")
            .contains("llm-workload"));
  }

  /** Opens llm.html headless; checks charts, errors and escaping; returns the DOM. */
  public static String assertChromium(Path run, int charts) throws Exception {
    Chromium.Dump d = Chromium.open(run.resolve("llm.html"));
    Chromium.assertChartsDrawn(d, charts);
    String dom = d.dom();
    // hostile texts shown as text, never as markup
    assertTrue(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "error text escaped");
    assertTrue(
        dom.contains("Summarise: &lt;script&gt;alert(2)&lt;/script&gt; &amp;"), "prompt escaped");
    assertTrue(dom.contains("Qwen/&lt;b&gt;Qwen2.5&lt;/b&gt;-7B"), "model id escaped");
    assertFalse(dom.contains("<script>alert("), "no injected script element");
    assertFalse(dom.contains("sk-secret-not-shown"), "secret shown");
    // one click away: the page links back to Gatling's pages
    assertTrue(dom.contains("href=\"index.html\"") && dom.contains("href=\"group_c2-1.html\""));
    return dom;
  }
}
