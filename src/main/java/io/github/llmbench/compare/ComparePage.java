package io.github.llmbench.compare;

import static io.github.llmbench.report.page.Html.esc;
import static io.github.llmbench.report.page.PageParts.chartBox;
import static io.github.llmbench.report.page.PageParts.navItem;
import static io.github.llmbench.report.page.PageParts.row;
import static io.github.llmbench.report.page.PageParts.tableEnd;
import static io.github.llmbench.report.page.PageParts.tableStart;

import io.github.llmbench.analysis.Comparison;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.page.PageParts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code compare.html}: several runs side by side ({@link RunComparison}), in the look of {@code
 * report.page.LlmPage} (its {@link PageParts}): each run's metadata, a table per level with a
 * column per run and the ratio of each run to the first (green better, red worse), and output
 * throughput, mean TPOT and P99 TTFT against concurrency with one series per run. Gatling's
 * Highcharts and styles are copied beside it, so it opens from disk with no network; every text is
 * HTML-escaped and {@code #llm-status} counts the charts as on {@code llm.html}.
 */
public final class ComparePage {

  public static final String FILE = "compare.html";

  /** The charts, as {@code {element id, title, metric key, unit}}. */
  private static final List<String[]> CHARTS =
      List.of(
          new String[] {
            "llm-chart-throughput",
            "Output throughput against concurrency",
            RunComparison.OUTPUT_THROUGHPUT.key(),
            "tok/s"
          },
          new String[] {
            "llm-chart-tpot",
            "Mean TPOT against concurrency",
            new LatencyFigure(Metric.TPOT, Statistic.MEAN).summaryField(),
            "ms"
          },
          new String[] {
            "llm-chart-ttft",
            "P99 TTFT against concurrency",
            new LatencyFigure(Metric.TTFT, Statistic.P99).summaryField(),
            "ms"
          });

  private static final String CSS = PageParts.resource("compare-page.css");

  /**
   * Draws the charts from {@code D} (#llm-data) inside {@link PageParts}'s script frame. No string
   * reaches HTML unescaped.
   */
  private static final String CHART_SCRIPT = PageParts.resource("compare-page.js");

  private ComparePage() {}

  /**
   * Writes {@code compare.html} and the assets it needs into {@code outDir}.
   *
   * @param sources per run, the folder or file it was read from (shown), in the runs' order
   * @param runPages per run, the href of its {@code llm.html} from {@code outDir}, or null
   * @return the page's path
   */
  public static Path write(
      Path outDir, RunComparison c, List<String> sources, List<String> runPages) {
    return PageParts.write(outDir.resolve(FILE), html(c, sources, runPages));
  }

  static String html(RunComparison c, List<String> sources, List<String> runPages) {
    List<String> labels = c.runs().stream().map(RunComparison.ComparedRun::label).toList();
    StringBuilder sb = new StringBuilder(32 * 1024);
    PageParts.pageStart(sb, "Gatling Stats - LLM run comparison", CSS, FILE);
    navItem(sb, "llm-runs", "Runs");
    navItem(sb, "llm-levels", "Side by side");
    navItem(sb, "llm-ladder", "Against concurrency");
    StringBuilder menu = new StringBuilder();
    menu.append(PageParts.menuItem(null, FILE, "Comparison", true));
    for (int i = 0; i < labels.size(); i++) {
      String href = runPages == null || i >= runPages.size() ? null : runPages.get(i);
      if (href != null) {
        menu.append(PageParts.menuItem(null, href, labels.get(i), false));
      }
    }
    PageParts.contentStart(
        sb, "LLM run comparison &mdash; " + esc(String.join(" vs ", labels)), menu.toString());

    runsTable(sb, c, sources);
    levelTables(sb, c);
    sb.append("<div id=\"llm-ladder\" class=\"llm-section\">\n");
    for (String[] chart : CHARTS) {
      chartBox(sb, chart[0]);
    }
    sb.append(
        "<p class=\"llm-note\">One series per run, at each level whose concurrency is"
            + " known; a level missing from a run is a gap in its line.</p>\n</div>\n");
    PageParts.pageEnd(sb, chartData(c), CHART_SCRIPT);
    return sb.toString();
  }

  private static void runsTable(StringBuilder sb, RunComparison c, List<String> sources) {
    sb.append("<div id=\"llm-runs\" class=\"llm-section\">\n");
    tableStart(
        sb,
        "Runs (the first is the baseline)",
        "Run",
        "Model",
        "Base URL",
        "Dataset",
        "Date",
        "Seed",
        "Levels",
        "Read from");
    for (int i = 0; i < c.runs().size(); i++) {
      RunComparison.ComparedRun r = c.runs().get(i);
      row(
          sb,
          r.label() + (i == 0 ? " (baseline)" : ""),
          orDash(r.model()),
          orDash(r.baseUrl()),
          orDash(r.dataset()),
          orDash(r.date()),
          orDash(r.seed()),
          String.join(", ", r.levels()),
          sources == null || i >= sources.size() ? "" : sources.get(i));
    }
    tableEnd(sb);
    List<String> history = c.history().lines();
    if (!history.isEmpty()) {
      sb.append("<p class=\"llm-note\">").append(esc(history.get(0)));
      for (String line : history.subList(1, history.size())) {
        sb.append("<br>\n").append(esc(line));
      }
      sb.append("</p>\n");
    }
    sb.append("</div>\n");
  }

  private static void levelTables(StringBuilder sb, RunComparison c) {
    List<RunComparison.ComparedRun> runs = c.runs();
    String base = runs.get(0).label();
    sb.append("<div id=\"llm-levels\" class=\"llm-section\">\n");
    List<String> headers = new ArrayList<>();
    headers.add("Metric");
    runs.forEach(r -> headers.add(r.label()));
    for (int i = 1; i < runs.size(); i++) {
      headers.add(runs.get(i).label() + " / " + base);
    }
    for (RunComparison.ComparedLevel l : c.levels()) {
      StringBuilder title = new StringBuilder(l.name());
      if (l.concurrencyNotInName()) {
        title.append(" (concurrency ").append(l.concurrency()).append(')');
      }
      List<String> missing = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        if (!l.present().get(i)) {
          missing.add(runs.get(i).label());
        }
      }
      if (!missing.isEmpty()) {
        title.append(" \u2014 not in ").append(String.join(", ", missing));
      }
      tableStart(sb, title.toString(), headers);
      for (RunComparison.Row r : l.rows()) {
        RunComparison.Figure m = r.figure();
        sb.append("<tr><td class=\"total\">")
            .append(esc(m.label()))
            .append(m.unit().isEmpty() ? "" : " (" + esc(m.unit()) + ")")
            .append("</td>");
        for (int i = 0; i < r.cells().size(); i++) {
          RunComparison.Cell cell = r.cells().get(i);
          cell(sb, i == 0 ? null : cell.verdict(), CompareCells.value(m, cell.value()));
        }
        for (int i = 1; i < r.cells().size(); i++) {
          RunComparison.Cell cell = r.cells().get(i);
          cell(
              sb,
              cell.verdict(),
              CompareCells.ratio(cell.ratio())
                  + interval(cell)
                  + (cell.noVerdict() == null ? "" : " (no verdict: " + cell.noVerdict() + ")"));
        }
        sb.append("</tr>\n");
      }
      tableEnd(sb);
    }
    sb.append(
            "<p class=\"llm-note\">Latencies in ms. Ratios: each run's value over the baseline's"
                + " (the first run). <span class=\"llm-better\">Green</span>: better than the baseline"
                + " (higher throughput, lower latency, fewer failures); <span class=\"llm-worse\">red"
                + "</span>: worse; within ")
        .append(Math.round(RunComparison.SAME_WITHIN * 100))
        .append(
            "% of it: not coloured. Where both runs ran several trials, the ratio's 95% interval"
                + " follows it and the colour says whether the data shows a difference at all;"
                + " where a side ran once, a figure with an interval gets no verdict (one run's"
                + " interval over its own requests says nothing of run-to-run noise) unless a"
                + " history (--history DIR) gives the pair that noise: the cell then says so."
                + " -: missing (no such level or figure in that run;"
                + " steady-state figures need a reached steady state).</p>\n</div>\n");
  }

  /**
   * A cell's ratio interval, {@code [0.95, 1.09]}, and {@code (within run)} or {@code (history
   * noise, 12 runs)} when so based.
   */
  private static String interval(RunComparison.Cell cell) {
    Comparison t = cell.test();
    if (t == null) {
      return "";
    }
    String basis =
        cell.noise() != null
            ? " (history noise, " + cell.noise().runs() + " runs)"
            : t.ratio().basis() == Interval.Basis.TRIALS ? "" : " (within run)";
    return String.format(Locale.ROOT, " [%.2f, %.2f]%s", t.ratio().low(), t.ratio().high(), basis);
  }

  private static void cell(StringBuilder sb, RunComparison.Verdict v, String text) {
    String cls =
        v == RunComparison.Verdict.BETTER
            ? " llm-better"
            : v == RunComparison.Verdict.WORSE ? " llm-worse" : "";
    sb.append("<td class=\"value total")
        .append(cls)
        .append("\">")
        .append(esc(text))
        .append("</td>");
  }

  private static String orDash(String s) {
    return s == null || s.isBlank() ? "-" : s;
  }

  static Map<String, Object> chartData(RunComparison c) {
    Map<String, Object> d = new LinkedHashMap<>();
    List<Map<String, Object>> charts = new ArrayList<>();
    for (String[] chart : CHARTS) {
      Map<String, Object> ch = new LinkedHashMap<>();
      ch.put("id", chart[0]);
      ch.put("title", chart[1]);
      ch.put("unit", chart[3]);
      List<Map<String, Object>> series = new ArrayList<>();
      for (int run = 0; run < c.runs().size(); run++) {
        List<Map<String, Object>> points = new ArrayList<>();
        for (RunComparison.ComparedLevel l : c.levels()) {
          if (l.concurrency() == null) {
            continue;
          }
          Double v = l.row(chart[2]).cells().get(run).value();
          Map<String, Object> p = new LinkedHashMap<>();
          p.put("x", l.concurrency());
          p.put("y", v);
          p.put("level", l.name());
          points.add(p);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", c.runs().get(run).label());
        s.put("points", points);
        series.add(s);
      }
      ch.put("series", series);
      charts.add(ch);
    }
    d.put("charts", charts);
    return d;
  }
}
