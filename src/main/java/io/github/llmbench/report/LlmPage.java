package io.github.llmbench.report;

import static io.github.llmbench.report.Html.esc;
import static io.github.llmbench.report.PageParts.chartBox;
import static io.github.llmbench.report.PageParts.navItem;
import static io.github.llmbench.report.PageParts.row;
import static io.github.llmbench.report.PageParts.tableEnd;
import static io.github.llmbench.report.PageParts.tableStart;

import io.github.llmbench.analysis.ClientHealth;
import io.github.llmbench.analysis.DeliveredLoad;
import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.analysis.ImageLadder;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Intervals;
import io.github.llmbench.analysis.Knee;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.RampWindows;
import io.github.llmbench.analysis.ReasoningStats;
import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.analysis.TokenArrivals;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Trials;
import io.github.llmbench.analysis.TurnLatency;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.settings.Images;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code llm.html}: the kit's page beside Gatling's {@code index.html}, in Gatling's look (its
 * {@code style/} and page structure) with charts drawn by the Highcharts Gatling ships in {@code
 * js/}; nothing comes from the network, so it works opened from disk. Gatling's pages get a menu
 * item "LLM" next to "Details" ({@link #linkFromGatlingPages}, idempotent).
 *
 * <p>Every text from a server, a dataset, the records or the metadata goes through {@link
 * Html#esc}; the chart data travels as JSON in a {@code <script type="application/json">} element
 * ({@link Html#scriptJson}), and the page's script escapes again whatever it hands to Highcharts as
 * a label.
 *
 * <p>For tests and checks, the page's script records in {@code #llm-status} how many charts it
 * meant to draw ({@code data-expected}), how many it drew ({@code data-drawn}) and how many script
 * errors it caught ({@code data-errors}, messages as the element's text).
 */
public final class LlmPage {

  /** The marker of our menu item in Gatling's pages: present means already linked. */
  public static final String LINK_ID = "llm_link";

  private static final Pattern DETAILS_LINK =
      Pattern.compile("<a id=\"details_link\" href=\"([^\"]*)\"");
  private static final Pattern DETAILS_ITEM =
      Pattern.compile("<div class=\"item[^\"]*\"><a id=\"details_link\"[^>]*>[^<]*</a></div>");
  private static final String SPACER = "<div class=\"sous-menu-spacer\">";
  private static final int MAX_TIMELINE_POINTS = 3000;

  /** The serving table's latency columns, in vLLM's block's order. */
  private static final List<LatencyFigure> SERVING_LATENCIES =
      List.of(
          LatencyFigure.of(Metric.TTFT, Statistic.MEAN),
          LatencyFigure.of(Metric.TTFT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TTFT, Statistic.P99),
          LatencyFigure.of(Metric.TTFT, Statistic.P90),
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.TPOT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TPOT, Statistic.P99),
          LatencyFigure.of(Metric.ITL, Statistic.MEAN),
          LatencyFigure.of(Metric.ITL, Statistic.P99),
          LatencyFigure.of(Metric.E2EL, Statistic.MEAN),
          LatencyFigure.of(Metric.E2EL, Statistic.P99));

  /** The steady-state table's latency columns (the window holds TTFT and TPOT). */
  private static final List<LatencyFigure> STEADY_LATENCIES =
      List.of(
          LatencyFigure.of(Metric.TTFT, Statistic.MEAN),
          LatencyFigure.of(Metric.TTFT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TTFT, Statistic.P99),
          LatencyFigure.of(Metric.TTFT, Statistic.P90),
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.TPOT, Statistic.MEDIAN),
          LatencyFigure.of(Metric.TPOT, Statistic.P90),
          LatencyFigure.of(Metric.TPOT, Statistic.P99));

  private static final String CSS = PageParts.resource("llm-page.css");

  /**
   * Draws the charts from {@code D} (#llm-data) inside {@link PageParts}'s script frame. No string
   * reaches HTML unescaped.
   */
  private static final String CHART_SCRIPT = PageParts.resource("llm-page.js");

  private LlmPage() {}

  /**
   * A latency table with {@code -Dpercentiles}: a row per level and metric, a column per statistic
   * (mean, median, each percentile asked for), as vLLM's block lists them; a column per figure
   * would be too wide for the page at five percentiles.
   */
  private static void latencyRowsTable(
      StringBuilder sb,
      String title,
      RunAnalysis a,
      List<Metric> metrics,
      BiFunction<RunAnalysis.Level, Metric, LatencyStats> stats,
      boolean steady) {
    List<Statistic> columns = a.percentiles().rows(List.of());
    List<String> headers = new ArrayList<>(List.of("Level", "Metric"));
    columns.forEach(s -> headers.add(s.label()));
    if (steady) {
      headers.add(Metric.TTFT.label() + " growing");
    }
    tableStart(sb, title, headers);
    a.levels()
        .forEach(
            (name, l) -> {
              if (steady && !l.steady().reached()) {
                row(sb, name, "not reached");
                return;
              }
              for (Metric m : metrics) {
                LatencyStats s = stats.apply(l, m);
                List<Object> cells = new ArrayList<>(List.of(name, m.label()));
                columns.forEach(st -> cells.add(f2(s.value(st))));
                if (steady) {
                  cells.add(m == Metric.TTFT ? ttftGrowing(l.steady()) : "");
                }
                row(sb, cells.toArray());
              }
            });
    tableEnd(sb);
  }

  private static String ttftGrowing(SteadyState s) {
    return !s.ttftTrend().evaluated()
        ? "too few requests"
        : s.ttftTrend().growing() ? "yes (+" + f1(s.ttftTrend().riseMs()) + " ms)" : "no";
  }

  /** A table's headers: the first, a column per figure (its label), then the others. */
  private static List<String> headed(
      String first, List<LatencyFigure> figures, List<String> after) {
    List<String> h = new ArrayList<>(List.of(first));
    figures.forEach(f -> h.add(f.label()));
    h.addAll(after);
    return h;
  }

  /**
   * Writes {@code llm.html} into the run folder, copies Gatling's chart and style assets there when
   * missing (from Gatling's jar on the classpath), and links the page from Gatling's pages.
   *
   * @return the page's path
   */
  public static Path write(Path runDir, RunAnalysis a, RunInfo info) {
    try {
      Files.createDirectories(runDir);
      PageParts.copyMissingAssets(runDir);
      String details = detailsHref(runDir);
      Path page = runDir.resolve(RunFiles.PAGE);
      Files.writeString(
          page,
          html(
              a,
              info,
              details,
              runDir.getFileName() == null ? "" : runDir.getFileName().toString()),
          StandardCharsets.UTF_8);
      linkFromGatlingPages(runDir);
      return page;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write " + runDir.resolve(RunFiles.PAGE) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Adds the "LLM" item after "Details" in the sub-menu of every Gatling page of the folder
   * (index.html first of all); a page that already has it is left as it is.
   *
   * @return how many pages were changed
   */
  public static int linkFromGatlingPages(Path runDir) throws IOException {
    int changed = 0;
    List<Path> pages;
    try (Stream<Path> s = Files.list(runDir)) {
      pages =
          s.filter(p -> p.getFileName().toString().endsWith(".html"))
              .filter(p -> !p.getFileName().toString().equals(RunFiles.PAGE))
              .sorted()
              .toList();
    }
    for (Path p : pages) {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      String patched = withLink(text);
      if (!patched.equals(text)) {
        Files.writeString(p, patched, StandardCharsets.UTF_8);
        changed++;
      }
    }
    return changed;
  }

  /** The page text with our menu item added; unchanged when present or there is no menu. */
  static String withLink(String gatlingPage) {
    if (gatlingPage.contains("id=\"" + LINK_ID + "\"")) {
      return gatlingPage;
    }
    String item =
        "\n<div class=\"item\"><a id=\""
            + LINK_ID
            + "\" href=\""
            + RunFiles.PAGE
            + "\">LLM</a></div>";
    Matcher m = DETAILS_ITEM.matcher(gatlingPage);
    if (m.find()) {
      return gatlingPage.substring(0, m.end()) + item + gatlingPage.substring(m.end());
    }
    int i = gatlingPage.indexOf(SPACER);
    if (i >= 0) {
      int at = i + SPACER.length();
      return gatlingPage.substring(0, at) + item + gatlingPage.substring(at);
    }
    return gatlingPage;
  }

  private static String detailsHref(Path runDir) throws IOException {
    Path index = runDir.resolve("index.html");
    if (!Files.isRegularFile(index)) {
      return null;
    }
    Matcher m = DETAILS_LINK.matcher(Files.readString(index, StandardCharsets.UTF_8));
    return m.find() ? m.group(1) : null;
  }

  // ---------------------------------------------------------------- page

  static String html(RunAnalysis a, RunInfo info, String detailsHref, String runName) {
    boolean roofline = a.levels().values().stream().anyMatch(l -> l.roofline() != null);
    StringBuilder sb = new StringBuilder(64 * 1024);
    PageParts.pageStart(sb, "Gatling Stats - LLM serving", CSS, "index.html");
    navItem(sb, "llm-levels", "Levels");
    Optional<ImageLadder> images = ImageLadder.of(a.levels().values());
    navItem(sb, "llm-verdicts", images.isPresent() ? "Images ladder" : "Ladder verdicts");
    navItem(sb, "llm-ladder", images.isPresent() ? "Against images" : "Against concurrency");
    navItem(sb, "llm-timeline", "Over time");
    if (roofline) {
      navItem(sb, "llm-roofline", "Roofline");
    }
    boolean server = a.levels().values().stream().anyMatch(l -> !l.server().isEmpty());
    if (server) {
      navItem(sb, "llm-server", "Server metrics");
    }
    boolean workload =
        a.levels().values().stream().anyMatch(l -> !l.turns().isEmpty() || !l.lateness().isEmpty());
    if (workload) {
      navItem(sb, "llm-workload", "Turns and trace");
    }
    boolean routes = a.levels().values().stream().anyMatch(l -> !l.routes().isEmpty());
    if (routes) {
      navItem(sb, "llm-routes", "Servers and models");
    }
    boolean trials = a.levels().values().stream().anyMatch(l -> !l.trials().isEmpty());
    if (trials) {
      navItem(sb, "llm-trials", "Trials");
    }
    boolean reasoning = a.levels().values().stream().anyMatch(l -> !l.reasoning().isEmpty());
    if (reasoning) {
      navItem(sb, "llm-reasoning", "Reasoning");
    }
    boolean client = a.levels().values().stream().anyMatch(l -> l.client().level().measured());
    if (client) {
      navItem(sb, "llm-client", "Client");
    }
    navItem(sb, "llm-errors", "Failures");
    navItem(sb, "llm-run", "Run");
    StringBuilder menu = new StringBuilder();
    menu.append(PageParts.menuItem(null, "index.html", "Global", false));
    if (detailsHref != null) {
      menu.append(PageParts.menuItem("details_link", detailsHref, "Details", false));
    }
    menu.append(PageParts.menuItem(LINK_ID, RunFiles.PAGE, "LLM", true));
    PageParts.contentStart(
        sb, "LLM serving" + (runName.isEmpty() ? "" : " &mdash; " + esc(runName)), menu.toString());

    guards(sb, a);
    capacity(sb, info.capacity());
    levelTables(sb, a);
    verdicts(
        sb, a, images, info.settings() == null ? null : info.settings().get(Images.IMAGES.name()));
    sb.append("<div id=\"llm-ladder\" class=\"llm-section\">\n");
    if (images.isPresent()) {
      chartBox(sb, "llm-chart-images-ttft");
      chartBox(sb, "llm-chart-images-tokens");
    } else {
      chartBox(sb, "llm-chart-throughput");
      if (!a.pooling()) { // a pooling run (embeddings) has no TPOT, TTFT or output tokens to draw
        chartBox(sb, "llm-chart-tpot");
        chartBox(sb, "llm-chart-ttft");
      }
    }
    sb.append("</div>\n<div id=\"llm-timeline\" class=\"llm-section\">\n");
    chartBox(sb, "llm-chart-inflight");
    if (!a.pooling()) {
      chartBox(sb, "llm-chart-tokens");
    }
    int ramp = 0;
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.ramp().isEmpty()) {
        chartBox(sb, "llm-chart-ramp-" + ramp++);
        sb.append("<p class=\"llm-note\">").append(esc(l.ramp().verdict())).append("</p>\n");
      }
    }
    sb.append("</div>\n");
    if (roofline) {
      sb.append("<div id=\"llm-roofline\" class=\"llm-section\">\n");
      chartBox(sb, "llm-chart-roofline");
      sb.append("<p class=\"llm-note\">")
          .append(
              esc(
                  a.levels().values().stream()
                      .map(RunAnalysis.Level::roofline)
                      .filter(Objects::nonNull)
                      .findFirst()
                      .map(Roofline::prefixCacheNote)
                      .orElse(Roofline.PREFIX_CACHE_NOTE)))
          .append("</p>\n</div>\n");
    }
    if (server) {
      server(sb, a);
    }
    if (workload) {
      workload(sb, a);
    }
    if (routes) {
      routes(sb, a);
    }
    if (trials) {
      trials(sb, a);
    }
    if (reasoning) {
      reasoning(sb, a);
    }
    if (client) {
      client(sb, a);
    }
    errors(sb, a);
    injectors(sb, info.injectors());
    runInfo(sb, info);
    Map<String, Object> data = chartData(a);
    if (info.capacity() != null) {
      data.put("capacity", Summary.asMap(info.capacity()));
    }
    PageParts.pageEnd(sb, data, CHART_SCRIPT);
    return sb.toString();
  }

  private static void levelTables(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-levels\" class=\"llm-section\">\n");
    // each block in two tables, throughput then latency: at 21 columns one table was wider than
    // Gatling's 1,050 px article, and its last columns were only seen by scrolling the box
    if (a.pooling()) {
      poolingTables(sb, a);
      sb.append("</div>\n");
      return;
    }
    tableStart(
        sb,
        "Serving Benchmark Result",
        "Level",
        "C",
        "OK",
        "KO",
        "Duration (s)",
        "Req/s",
        "Output tok/s",
        "Peak output tok/s",
        "Peak concurrent",
        "Total tok/s");
    a.levels()
        .forEach(
            (name, l) -> {
              ServingMetrics m = l.serving();
              row(
                  sb,
                  name,
                  l.concurrency() == null ? "?" : l.concurrency(),
                  m.completed(),
                  m.failed(),
                  f2(m.durationS()),
                  f2(m.requestThroughput()),
                  f2(m.outputThroughput()),
                  f2(m.maxOutputTokensPerS()),
                  m.maxConcurrentRequests(),
                  f2(m.totalTokenThroughput()));
            });
    tableEnd(sb);
    if (a.percentiles().asked()) {
      latencyRowsTable(
          sb,
          "Serving Benchmark Result: latencies (ms)",
          a,
          List.of(Metric.values()),
          (l, m) -> l.serving().latency(m),
          false);
    } else {
      tableStart(
          sb,
          "Serving Benchmark Result: latencies (ms)",
          headed("Level", SERVING_LATENCIES, List.of()));
      a.levels()
          .forEach(
              (name, l) -> {
                List<Object> cells = new ArrayList<>(List.of(name));
                for (LatencyFigure f : SERVING_LATENCIES) {
                  cells.add(f2(l.serving().latency(f.metric()).value(f.statistic())));
                }
                row(sb, cells.toArray());
              });
      tableEnd(sb);
    }
    sb.append(
        "<p class=\"llm-note\">Latencies in ms. Definitions: vLLM's serving benchmark"
            + " (see docs/metrics.md in gatling-llm-bench).</p>\n");
    tableStart(
        sb,
        "Steady-State Metrics",
        "Level",
        "Threshold",
        "Window (s)",
        "Length (s)",
        "Observed peak",
        "Started in window",
        "Completed in window",
        "Req/s",
        "Output tok/s",
        "Input tok/s",
        "Total tok/s");
    a.levels()
        .forEach(
            (name, l) -> {
              SteadyState s = l.steady();
              String thr =
                  "\u2265 0.95 \u00d7 "
                      + s.concurrency()
                      + " = "
                      + s.threshold()
                      + (s.concurrencyObserved() ? " (C unknown)" : "");
              if (!s.reached()) {
                row(sb, name, thr, "not reached", "", s.observedPeak(), "", "", "", "", "", "");
                return;
              }
              row(
                  sb,
                  name,
                  thr,
                  f1(s.windowStartS()) + " \u2192 " + f1(s.windowEndS()),
                  f1(s.windowS()),
                  s.observedPeak(),
                  s.startedInWindow()
                      + " / "
                      + s.requests()
                      + String.format(
                          Locale.ROOT,
                          " (%.1f%%)",
                          s.requests() == 0 ? 0.0 : 100.0 * s.startedInWindow() / s.requests()),
                  s.completedInWindow(),
                  f2(s.requestThroughput()),
                  f2(s.outputThroughput()),
                  f2(s.inputThroughput()),
                  f2(s.totalThroughput()));
            });
    tableEnd(sb);
    if (a.percentiles().asked()) {
      latencyRowsTable(
          sb,
          "Steady-State Metrics: latencies (ms)",
          a,
          List.of(Metric.TTFT, Metric.TPOT),
          (l, m) -> m == Metric.TTFT ? l.steady().ttft() : l.steady().tpot(),
          true);
    } else {
      tableStart(
          sb,
          "Steady-State Metrics: latencies (ms)",
          headed("Level", STEADY_LATENCIES, List.of(Metric.TTFT.label() + " growing")));
      a.levels()
          .forEach(
              (name, l) -> {
                SteadyState s = l.steady();
                if (!s.reached()) {
                  row(sb, name, "not reached", "", "", "", "", "", "", "", "");
                  return;
                }
                List<Object> cells = new ArrayList<>(List.of(name));
                for (LatencyFigure f : STEADY_LATENCIES) {
                  LatencyStats stats = f.metric() == Metric.TTFT ? s.ttft() : s.tpot();
                  cells.add(f2(stats.value(f.statistic())));
                }
                cells.add(ttftGrowing(s));
                row(sb, cells.toArray());
              });
      tableEnd(sb);
    }
    boolean anyRoof = a.levels().values().stream().anyMatch(l -> l.roofline() != null);
    if (anyRoof) {
      tableStart(
          sb,
          "Roofline (" + a.model().hfId() + " on " + a.tp() + " \u00d7 " + a.gpu().name() + ")",
          "Level",
          "Mean batch B",
          "Mean context L",
          "F(L) GFLOP/token",
          "Step read (ms)",
          "Ridge (FLOP/B)",
          "Decode OI",
          "Decode TFLOP/s",
          "Decode attainment",
          "Whole OI",
          "Whole TFLOP/s",
          "Whole attainment");
      a.levels()
          .forEach(
              (name, l) -> {
                Roofline r = l.roofline();
                if (r == null) {
                  row(sb, name, l.rooflineNote(), "", "", "", "", "", "", "", "", "", "");
                  return;
                }
                row(
                    sb,
                    name,
                    f1(r.meanBatch()),
                    f1(r.meanContext()),
                    f2(r.flopsPerToken() / 1e9),
                    f2(r.stepReadS() * 1e3),
                    f1(r.ridge()),
                    f1(r.decode().oi()),
                    f2(r.decode().attainedFlops() / 1e12),
                    pct(r.decode().attainment()) + " of " + r.decode().roofName(),
                    f1(r.whole().oi()),
                    f2(r.whole().attainedFlops() / 1e12),
                    pct(r.whole().attainment()) + " of " + r.whole().roofName());
              });
      tableEnd(sb);
    } else {
      String note =
          a.levels().values().stream()
              .map(RunAnalysis.Level::rooflineNote)
              .filter(n -> n != null)
              .findFirst()
              .orElse("Roofline skipped.");
      sb.append("<p class=\"llm-note\">").append(esc(note)).append("</p>\n");
    }
    sb.append("</div>\n");
  }

  /**
   * A pooling run's tables (embeddings), as vLLM's pooling block: counts, request and input
   * throughputs, E2EL; its steady window's throughputs. No roofline: it models decoding.
   */
  private static void poolingTables(StringBuilder sb, RunAnalysis a) {
    tableStart(
        sb,
        "Serving Benchmark Result (pooling)",
        "Level",
        "C",
        "OK",
        "KO",
        "Duration (s)",
        "Input tokens",
        "Req/s",
        "Input tok/s");
    a.levels()
        .forEach(
            (name, l) -> {
              ServingMetrics m = l.serving();
              row(
                  sb,
                  name,
                  l.concurrency() == null ? "?" : l.concurrency(),
                  m.completed(),
                  m.failed(),
                  f2(m.durationS()),
                  m.totalInputTokens(),
                  f2(m.requestThroughput()),
                  f2(m.totalTokenThroughput()));
            });
    tableEnd(sb);
    latencyRowsTable(
        sb,
        "Serving Benchmark Result: latencies (ms)",
        a,
        List.of(Metric.E2EL),
        (l, m) -> l.serving().latency(m),
        false);
    sb.append(
        "<p class=\"llm-note\">Latencies in ms. An embeddings request generates nothing: its one"
            + " latency is its E2EL (vLLM's pooling block; see docs/metrics.md in"
            + " gatling-llm-bench).</p>\n");
    tableStart(
        sb,
        "Steady-State Metrics",
        "Level",
        "Window (s)",
        "Length (s)",
        "Observed peak",
        "Completed in window",
        "Req/s",
        "Input tok/s");
    a.levels()
        .forEach(
            (name, l) -> {
              SteadyState s = l.steady();
              if (!s.reached()) {
                row(sb, name, "not reached", "", s.observedPeak(), "", "", "");
                return;
              }
              row(
                  sb,
                  name,
                  f1(s.windowStartS()) + " \u2192 " + f1(s.windowEndS()),
                  f1(s.windowS()),
                  s.observedPeak(),
                  s.completedInWindow(),
                  f2(s.requestThroughput()),
                  f2(s.inputThroughput()));
            });
    tableEnd(sb);
  }

  /**
   * @param imagesSetting the run's images as its settings line says them (count, size, format), or
   *     null
   */
  private static void verdicts(
      StringBuilder sb, RunAnalysis a, Optional<ImageLadder> images, String imagesSetting) {
    if (images.isPresent()) {
      sb.append("<div id=\"llm-verdicts\" class=\"llm-section\">\n<div class=\"title\">")
          .append("<div class=\"title_base\"><span class=\"title_base_stats\">Images ladder")
          .append("</span></div></div>\n<ul class=\"llm-verdicts\">\n<li>")
          .append(esc(images.get().verdict()))
          .append("</li>\n");
      if (imagesSetting != null) {
        sb.append("<li>Images: ").append(esc(imagesSetting)).append("</li>\n");
      }
      sb.append("</ul>\n</div>\n");
      return;
    }
    sb.append("<div id=\"llm-verdicts\" class=\"llm-section\">\n<div class=\"title\">")
        .append("<div class=\"title_base\"><span class=\"title_base_stats\">Ladder verdicts")
        .append(" (throughput basis: ")
        .append(esc(a.knee().basis().replace('_', ' ')))
        .append(")</span></div></div>\n<ul class=\"llm-verdicts\">\n");
    for (String v : a.knee().verdicts()) {
      sb.append("<li>").append(esc(v)).append("</li>\n");
    }
    sb.append("</ul>\n</div>\n");
  }

  /**
   * A capacity search's answer, first: the sentence, the goodput at the capacity, then per
   * objective its figure against the probed concurrency or rate (met and broken probes apart), the
   * objective's line and the capacity shaded.
   */
  private static void capacity(StringBuilder sb, CapacityFigures c) {
    if (c == null) {
      return;
    }
    sb.append(
            "<div id=\"llm-capacity\" class=\"llm-section\">\n<div class=\"title\"><div class=\"title_base\">")
        .append("<span class=\"title_base_stats\">Capacity at SLO: ")
        .append(esc(c.answer()))
        .append("</span></div></div>\n");
    if (c.requestGoodputAtCapacity() != null) {
      sb.append("<p class=\"llm-note\">Goodput at the capacity: ")
          .append(String.format(Locale.ROOT, "%.2f", c.requestGoodputAtCapacity()))
          .append(" req/s meeting ")
          .append(esc(c.goodputObjectives()))
          .append(" per request (from ")
          .append(esc(c.goodputObjectivesFrom()))
          .append(")");
      if (c.goodputPctAtCapacity() != null) {
        sb.append(String.format(Locale.ROOT, ", %.1f%% of its requests", c.goodputPctAtCapacity()));
      }
      sb.append(".</p>\n");
    }
    if (c.objectives() != null) {
      for (int i = 0; i < c.objectives().size(); i++) {
        chartBox(sb, "llm-chart-capacity-" + i);
      }
    }
    sb.append("</div>\n");
  }

  /**
   * The confound guards of every level, above the tables: what the figures below must be read with.
   */
  private static void guards(StringBuilder sb, RunAnalysis a) {
    List<String> lines = new ArrayList<>();
    a.levels()
        .values()
        .forEach(
            l -> {
              lines.addAll(l.server().guards());
              String client = l.client().guard(l.name());
              if (client != null) {
                lines.add(client);
              }
              String load = l.delivered().guard(l.name());
              if (load != null) {
                lines.add(load);
              }
              String ends = l.ends().guard(l.name());
              if (ends != null) {
                lines.add(ends);
              }
            });
    if (lines.isEmpty()) {
      return;
    }
    sb.append("<div id=\"llm-guards\" class=\"llm-section\">\n<ul class=\"llm-guards\">\n");
    for (String g : lines) {
      sb.append("<li>").append(esc(g)).append("</li>\n");
    }
    sb.append("</ul>\n</div>\n");
  }

  /** Per level, the server's figures beside the client's, and its gauges over time. */
  private static void server(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-server\" class=\"llm-section\">\n");
    for (RunAnalysis.Level l : a.levels().values()) {
      if (l.server().isEmpty()) {
        continue;
      }
      Map<String, Double> client = l.server().clientSide(l.serving());
      tableStart(
          sb,
          "Server metrics ("
              + l.name()
              + "): over the level, its steady window, and the client's own figure",
          "Figure",
          "Level",
          "Steady window",
          "Client");
      for (String name : ServerFigures.NAMES) {
        Double v = l.server().level().get(name);
        Double w = l.server().steady().get(name);
        if (v != null || w != null) {
          row(sb, name, ServerBlock.num(v), ServerBlock.num(w), ServerBlock.num(client.get(name)));
        }
      }
      tableEnd(sb);
      if (l.server().level().get(ServerFigures.IDEAL_HIT_RATE) != null) {
        sb.append("<p class=\"llm-note\">").append(esc(ServerBlock.IDEAL_NOTE)).append("</p>\n");
      }
    }
    chartBox(sb, "llm-chart-server");
    chartBox(sb, "llm-chart-gpu");
    sb.append("</div>\n");
  }

  /**
   * Per level, the load generator's own health over its steady window (else the whole level): what
   * bounds the error of the TTFT and ITL it measured.
   */
  private static void client(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-client\" class=\"llm-section\">\n");
    tableStart(
        sb,
        "Client: the load generator's own health (steady window, else the level)",
        "Level",
        "Verdict",
        "JVM CPU (cores)",
        "Busiest event loop (% core)",
        "Loop lag p50 (ms)",
        "Loop lag p99 (ms)",
        "Loop lag max (ms)",
        "GC pauses (ms)",
        "Heap max (MB)",
        "Delivered load");
    for (RunAnalysis.Level l : a.levels().values()) {
      ClientHealth.Window w = l.client().judged();
      if (!w.measured()) {
        continue;
      }
      row(
          sb,
          l.name(),
          l.client().verdict().toString(),
          f2(w.cpuCores()),
          f1(w.busiestLoopPct()),
          String.format(Locale.ROOT, "%.3f", w.lagP50Ms()),
          String.format(Locale.ROOT, "%.3f", w.lagP99Ms()),
          f1(w.lagMaxMs()),
          String.format(Locale.ROOT, "%.0f", w.gcPauseMs()),
          String.format(Locale.ROOT, "%.0f", w.heapMaxMb()),
          delivered(l.delivered()));
    }
    tableEnd(sb);
    sb.append(
            String.format(
                Locale.ROOT,
                "<p class=\"llm-note\">A task on each of Gatling's event loops every %d ms notes how"
                    + " late it ran: a loop that late stamps each read as late. Healthy: lag p99"
                    + " within %.0f ms and the busiest loop under %.0f%% of a core"
                    + " (docs/capture.md).</p>%n",
                ClientSample.PROBE_PERIOD_MS,
                ClientHealth.LAG_P99_LIMIT_MS,
                ClientHealth.BUSY_LIMIT_PCT))
        .append("</div>\n");
  }

  /** Per level, TTFO and reasoning tokens of the requests that thought before answering. */
  private static void reasoning(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-reasoning\" class=\"llm-section\">\n");
    tableStart(
        sb,
        "Reasoning: time to the first output token (TTFO) after the thinking",
        "Level",
        "Reasoned",
        "Answered",
        "Mean TTFO (ms)",
        "Median TTFO (ms)",
        "P90 TTFO (ms)",
        "P99 TTFO (ms)",
        "Mean thinking (ms)",
        "Mean reasoning tokens");
    for (RunAnalysis.Level l : a.levels().values()) {
      ReasoningStats r = l.reasoning();
      if (r.isEmpty()) {
        continue;
      }
      row(
          sb,
          l.name(),
          r.requests(),
          r.answered(),
          f2(r.ttfo().mean()),
          f2(r.ttfo().median()),
          f2(r.ttfo().value(Statistic.P90)),
          f2(r.ttfo().value(Statistic.P99)),
          f2(r.thinkingMs().mean()),
          f2(r.reasoningTokens()) + " (" + r.tokensFrom() + ")");
    }
    tableEnd(sb);
    sb.append(
        "<p class=\"llm-note\">TTFT (the tables above) is the first token of either kind, as"
            + " vLLM's; TTFO the first answer token (docs/metrics.md).</p>\n</div>\n");
  }

  private static String delivered(DeliveredLoad d) {
    return switch (d.kind()) {
      case CLOSED ->
          String.format(
              Locale.ROOT, "%.1f of %.0f in flight (%.1f%%)", d.delivered(), d.asked(), d.pct());
      case OPEN ->
          String.format(
              Locale.ROOT,
              "%.3f of %.3f req/s (%.1f%%), sends p99 %.1f ms late",
              d.delivered(),
              d.asked(),
              d.pct(),
              d.sendLateness().value(Statistic.P99));
      default -> "";
    };
  }

  /**
   * Each level that ran several times: a row per trial, then each figure's 95% interval across the
   * trials (the geometric mean and its log-t bounds).
   */
  private static void trials(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-trials\" class=\"llm-section\">\n");
    for (RunAnalysis.Level l : a.levels().values()) {
      if (l.trials().isEmpty()) {
        continue;
      }
      List<String> headers =
          new ArrayList<>(List.of("Trial", "Completed", "Failed", "Output tok/s"));
      TrialsBlock.COLUMNS.forEach(f -> headers.add(f.label() + " (ms)"));
      headers.add("Steady output tok/s");
      tableStart(sb, "Trials (" + l.name() + ")", headers);
      for (Trials.Trial t : l.trials().trials()) {
        List<Object> cells =
            new ArrayList<>(
                List.of(
                    t.number(),
                    t.serving().completed(),
                    t.serving().failed(),
                    f2(t.serving().outputThroughput())));
        TrialsBlock.COLUMNS.forEach(
            f -> cells.add(f2(t.serving().latency(f.metric()).value(f.statistic()))));
        cells.add(t.steady().reached() ? f2(t.steady().outputThroughput()) : "not reached");
        row(sb, cells.toArray());
      }
      List<Object> ci =
          new ArrayList<>(
              List.of(
                  String.format(Locale.ROOT, "%.0f%% interval", 100 * LevelSamples.CONFIDENCE),
                  "",
                  "",
                  interval(l.samples().get(LevelSamples.OUTPUT_THROUGHPUT))));
      TrialsBlock.COLUMNS.forEach(f -> ci.add(interval(l.samples().get(f))));
      ci.add(interval(l.samples().get(LevelSamples.STEADY_OUTPUT_THROUGHPUT)));
      row(sb, ci.toArray());
      tableEnd(sb);
    }
    sb.append(
        "<p class=\"llm-note\">Intervals: the trials' geometric mean with its 95% log-t bounds"
            + " (docs/gates.md, How intervals are made).</p>\n</div>\n");
  }

  private static String interval(TrialValues v) {
    if (v == null) {
      return "";
    }
    Interval i = Intervals.acrossTrials(v, LevelSamples.CONFIDENCE);
    return i.basis() == Interval.Basis.TRIALS
        ? f2(i.estimate()) + " [" + f2(i.low()) + ", " + f2(i.high()) + "]"
        : "";
  }

  /** Per level, its figures per server and per model, when the run spread its requests. */
  private static void routes(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-routes\" class=\"llm-section\">\n");
    for (RunAnalysis.Level l : a.levels().values()) {
      routeTable(sb, "Per server (" + l.name() + ")", "Server", l.routes().byEndpoint());
      routeTable(sb, "Per model (" + l.name() + ")", "Model", l.routes().byModel());
    }
    sb.append("</div>\n");
  }

  private static void routeTable(
      StringBuilder sb, String title, String what, Map<String, ServingMetrics> by) {
    if (by.isEmpty()) {
      return;
    }
    List<String> headers =
        new ArrayList<>(List.of(what, "Completed", "Failed", "Req/s", "Output tok/s"));
    RouteBlock.COLUMNS.forEach(f -> headers.add(f.label() + " (ms)"));
    tableStart(sb, title, headers);
    by.forEach(
        (name, m) -> {
          List<Object> cells =
              new ArrayList<>(
                  List.of(
                      name,
                      m.completed(),
                      m.failed(),
                      f2(m.requestThroughput()),
                      f2(m.outputThroughput())));
          RouteBlock.COLUMNS.forEach(
              f -> cells.add(f2(m.latency(f.metric()).value(f.statistic()))));
          row(sb, cells.toArray());
        });
    tableEnd(sb);
  }

  private static void workload(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-workload\" class=\"llm-section\">\n");
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.turns().isEmpty()) {
        tableStart(
            sb,
            "TTFT by turn (" + l.name() + "): each turn carries the turns and answers before it",
            "Turn",
            "Completed",
            "Failed",
            "Mean input tokens",
            LatencyFigure.of(Metric.TTFT, Statistic.MEAN).label() + " (ms)",
            LatencyFigure.of(Metric.TTFT, Statistic.MEDIAN).label() + " (ms)",
            LatencyFigure.of(Metric.TTFT, Statistic.P99).label() + " (ms)");
        for (TurnLatency.Row r : l.turns().rows()) {
          row(
              sb,
              r.turn(),
              r.completed(),
              r.failed(),
              WorkloadBlocks.figure(r.meanInputTokens(), 1),
              WorkloadBlocks.figure(r.ttftMeanMs(), 2),
              WorkloadBlocks.figure(r.ttftMedianMs(), 2),
              WorkloadBlocks.figure(r.ttftP99Ms(), 2));
        }
        tableEnd(sb);
      }
      if (!l.lateness().isEmpty()) {
        tableStart(
            sb,
            WorkloadBlocks.lateLabel(l.name(), true)
                + ": send time against "
                + WorkloadBlocks.lateAgainst(l.name()),
            "Requests",
            "Median late (ms)",
            "P99 late (ms)",
            "Max late (ms)");
        row(
            sb,
            l.lateness().requests(),
            WorkloadBlocks.figure(l.lateness().medianMs(), 1),
            WorkloadBlocks.figure(l.lateness().p99Ms(), 1),
            WorkloadBlocks.figure(l.lateness().maxMs(), 1));
        tableEnd(sb);
      }
    }
    sb.append("</div>\n");
  }

  /**
   * Per level with failures, a table of its {@value FailureReasons#TOP} most frequent reasons
   * (count first, as the console block), then what was left out.
   */
  private static void errors(StringBuilder sb, RunAnalysis a) {
    sb.append("<div id=\"llm-errors\" class=\"llm-section\">\n");
    boolean any = false;
    for (RunAnalysis.Level l : a.levels().values()) {
      FailureReasons f = l.failures();
      if (f.isEmpty()) {
        continue;
      }
      any = true;
      tableStart(
          sb,
          "Failed requests (" + l.name() + "): " + f.failed() + ", by reason",
          "Count",
          "Reason");
      for (FailureReasons.Reason r : f.top()) {
        row(sb, r.count(), r.error());
      }
      tableEnd(sb);
      if (f.otherReasons() > 0) {
        sb.append("<p class=\"llm-note\">")
            .append(esc(FailureBlock.leftOutNote(f)))
            .append(".</p>\n");
      }
    }
    if (!any) {
      sb.append("<p class=\"llm-note\">No failed requests.</p>\n");
    }
    sb.append("</div>\n");
  }

  /** A merged run's injectors, each with a link to its own Gatling report. */
  private static void injectors(StringBuilder sb, List<RunInfo.InjectorRun> injectors) {
    if (injectors == null || injectors.isEmpty()) {
      return;
    }
    sb.append("<div id=\"llm-injectors\" class=\"llm-section\">\n");
    tableStart(
        sb,
        "Injectors merged into this run (each one's Gatling report stays in its folder)",
        "Injector",
        "Requests",
        "First sends after injector 0's (ms)",
        "Gatling report");
    for (RunInfo.InjectorRun i : injectors) {
      sb.append("<tr><td class=\"total\">")
          .append(esc(i.injector()))
          .append("</td><td class=\"value total\">")
          .append(i.requests())
          .append("</td><td class=\"value total\">")
          .append(
              i.clockOffsetMs() == null
                  ? ""
                  : esc(String.format(Locale.ROOT, "%+.0f", i.clockOffsetMs())))
          .append("</td><td class=\"value total\"><a href=\"")
          .append(esc(i.gatlingReport()))
          .append("\">")
          .append(esc(i.gatlingReport()))
          .append("</a></td></tr>\n");
    }
    tableEnd(sb);
    sb.append("</div>\n");
  }

  /**
   * Everything the run was, one row per setting (the capacity has its own section; the analysis
   * inputs repeat settings already shown).
   */
  private static void runInfo(StringBuilder sb, RunInfo info) {
    sb.append("<div id=\"llm-run\" class=\"llm-section\">\n");
    Map<String, Object> flat = new LinkedHashMap<>();
    flatten("", Summary.asMap(info.withCapacity(null).withAnalysisInputs(null)), flat);
    tableStart(sb, "Run", "Setting", "Value");
    flat.forEach((k, v) -> row(sb, k, v));
    tableEnd(sb);
    sb.append("</div>\n");
  }

  private static void flatten(String prefix, Map<?, ?> m, Map<String, Object> out) {
    m.forEach(
        (k, v) -> {
          String key = prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k;
          if (v instanceof Map<?, ?> nested) {
            flatten(key, nested, out);
          } else {
            out.put(key, v);
          }
        });
  }

  // ---------------------------------------------------------------- chart data

  /** A ladder point's 95% interval across its level's trials, as {@code <key>Low}/{@code High}. */
  private static void putInterval(Map<String, Object> point, String key, TrialValues values) {
    if (values == null) {
      return;
    }
    Interval i = Intervals.acrossTrials(values, LevelSamples.CONFIDENCE);
    if (i.basis() == Interval.Basis.TRIALS) {
      point.put(key + "Low", i.low());
      point.put(key + "High", i.high());
    }
  }

  static Map<String, Object> chartData(RunAnalysis a) {
    Map<String, Object> d = new LinkedHashMap<>();
    List<Map<String, Object>> ladder = new ArrayList<>();
    a.knee()
        .points()
        .forEach(
            p -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("level", p.level());
              m.put("c", p.concurrency());
              m.put("out", p.outputThroughput());
              m.put("tpot", p.meanTpotMs());
              m.put("ttftP99", p.p99TtftMs());
              RunAnalysis.Level l = a.levels().get(p.level());
              if (l != null && !l.trials().isEmpty()) {
                String out =
                    a.knee().basis().equals(Knee.STEADY_BASIS)
                        ? LevelSamples.STEADY_OUTPUT_THROUGHPUT
                        : LevelSamples.OUTPUT_THROUGHPUT;
                putInterval(m, "out", l.samples().get(out));
                putInterval(
                    m, "tpot", l.samples().get(LatencyFigure.of(Metric.TPOT, Statistic.MEAN)));
                putInterval(
                    m, "ttftP99", l.samples().get(LatencyFigure.of(Metric.TTFT, Statistic.P99)));
              }
              ladder.add(m);
            });
    d.put("ladder", ladder);
    ImageLadder.of(a.levels().values())
        .ifPresent(
            images -> {
              boolean count = images.over() == ImageLadder.Over.COUNT;
              d.put("imagesOver", images.over().name().toLowerCase(Locale.ROOT));
              d.put(
                  "images",
                  images.points().stream()
                      .map(
                          p -> {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("level", p.level());
                            m.put("n", count ? p.images() : p.megapixels());
                            m.put("ttft", p.meanTtftMs());
                            m.put("ttftP99", p.p99TtftMs());
                            m.put("input", p.meanInputTokens());
                            return m;
                          })
                      .toList());
            });
    d.put("pooling", a.pooling());
    d.put("basis", a.knee().basis());
    d.put("knee", marker(a, a.knee().kneeLevel()));
    d.put("saturation", marker(a, a.knee().saturationLevel()));
    d.put("power", marker(a, a.knee().powerLevel()));

    List<Map<String, Object>> windows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              if (l.steady().reached()) {
                Map<String, Object> w = new LinkedHashMap<>();
                w.put("level", name);
                w.put("from", l.steady().windowStartMs());
                w.put("to", l.steady().windowEndMs());
                windows.add(w);
              }
            });
    d.put("windows", windows);
    d.put("ramps", ramps(a));
    d.put("inflight", inFlight(a.records()));
    d.put("tokens", tokensPerSecond(a.records()));
    d.put("server", ServerFigures.timeline(a.serverSeries()));

    List<Map<String, Object>> roof = new ArrayList<>();
    Double peak = null;
    Double bw = null;
    for (RunAnalysis.Level l : a.levels().values()) {
      Roofline r = l.roofline();
      if (r == null) {
        continue;
      }
      peak = r.peakFlops();
      bw = r.bandwidth();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("level", l.name());
      m.put("decodeOi", r.decode().oi());
      m.put("decodeFlops", r.decode().attainedFlops());
      m.put("wholeOi", r.whole().oi());
      m.put("wholeFlops", r.whole().attainedFlops());
      roof.add(m);
    }
    if (peak != null) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("peak", peak);
      r.put("bandwidth", bw);
      r.put("points", roof);
      d.put("roofline", r);
    } else {
      d.put("roofline", null);
    }
    return d;
  }

  /**
   * Each ramp level over time, in the order of its chart: the load asked and sent, the median TTFT
   * and TPOT per window (at the window's middle, s from the ramp's start), and where latency broke.
   */
  private static List<Map<String, Object>> ramps(RunAnalysis a) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      RampWindows r = l.ramp();
      if (r.isEmpty()) {
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("level", l.name());
      m.put("rate", r.ramp().kind() == Ramp.Kind.RATE);
      List<double[]> asked = new ArrayList<>();
      List<double[]> sent = new ArrayList<>();
      List<Object[]> ttft = new ArrayList<>();
      List<Object[]> tpot = new ArrayList<>();
      for (RampWindows.Window w : r.windows()) {
        double mid = (w.fromSeconds() + w.toSeconds()) / 2;
        asked.add(new double[] {mid, w.asked()});
        sent.add(new double[] {mid, w.sentPerSecond()});
        ttft.add(new Object[] {mid, finiteOrNull(w.medianTtftMs())});
        tpot.add(new Object[] {mid, finiteOrNull(w.medianTpotMs())});
      }
      m.put("asked", asked);
      m.put("sent", sent);
      m.put("ttft", ttft);
      m.put("tpot", tpot);
      m.put("brokeAt", r.broke() ? r.breakWindow().fromSeconds() : null);
      m.put("brokeLoad", r.broke() ? r.brokeAtLoad() : null);
      m.put("brokeTtft", r.broke() ? finiteOrNull(r.breakWindow().medianTtftMs()) : null);
      out.add(m);
    }
    return out;
  }

  private static Double finiteOrNull(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static Map<String, Object> marker(RunAnalysis a, String level) {
    if (level == null) {
      return null;
    }
    for (var p : a.knee().points()) {
      if (p.level().equals(level)) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", level);
        m.put("c", p.concurrency());
        return m;
      }
    }
    return null;
  }

  /**
   * [[epoch ms, in flight]] steps, thinned to the maximum per time bucket when there are more than
   * {@value #MAX_TIMELINE_POINTS}: a run of a million requests has two million steps, and the page
   * must stay small whatever the run's size.
   */
  static List<long[]> inFlight(List<RequestRecord> records) {
    SteadyState.Steps steps = SteadyState.inFlightSteps(records);
    long[] times = steps.timesMs();
    int[] counts = steps.inFlight();
    List<long[]> out = new ArrayList<>();
    if (steps.size() <= MAX_TIMELINE_POINTS) {
      for (int i = 0; i < times.length; i++) {
        out.add(new long[] {times[i], counts[i]});
      }
      return out;
    }
    long from = times[0];
    long to = times[times.length - 1];
    long bucket = Math.max(1, (to - from) / (MAX_TIMELINE_POINTS / 2) + 1);
    // steps are in time order: each bucket is a run of consecutive steps
    long current = Long.MIN_VALUE;
    long max = 0;
    for (int i = 0; i < times.length; i++) {
      long b = from + (times[i] - from) / bucket * bucket;
      if (b != current) {
        if (current != Long.MIN_VALUE) {
          out.add(new long[] {current, max});
        }
        current = b;
        max = counts[i];
      } else {
        max = Math.max(max, counts[i]);
      }
    }
    out.add(new long[] {current, max});
    out.add(new long[] {to, counts[counts.length - 1]});
    return out;
  }

  /**
   * [[epoch ms of the second, output tokens that arrived in it]], weighted per chunk. A run longer
   * than {@value #MAX_TIMELINE_POINTS} s is shown with wider buckets (each point the mean tok/s
   * over its k seconds, at the start of its first second), so the page stays small.
   */
  static List<double[]> tokensPerSecond(List<RequestRecord> records) {
    long origin = Long.MAX_VALUE;
    for (RequestRecord r : records) {
      origin = Math.min(origin, r.startMs());
    }
    TokenArrivals.SecondBuckets buckets = TokenArrivals.perSecond(records, origin, true);
    List<double[]> out = new ArrayList<>();
    if (buckets.isEmpty()) {
      return out;
    }
    long first = buckets.first();
    long last = buckets.last();
    long width = Math.max(1, (last - first) / MAX_TIMELINE_POINTS + 1);
    for (long b = first; b <= last; b += width) {
      double sum = 0;
      long end = Math.min(last, b + width - 1);
      for (long s = b; s <= end; s++) {
        sum += buckets.get(s);
      }
      out.add(new double[] {origin + b * 1000.0, sum / (end - b + 1)});
    }
    return out;
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return ServingResultBlock.f2(v);
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f%%", v * 100);
  }
}
