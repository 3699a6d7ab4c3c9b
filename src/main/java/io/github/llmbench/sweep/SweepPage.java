package io.github.llmbench.sweep;

import static io.github.llmbench.report.page.Html.esc;
import static io.github.llmbench.report.page.PageParts.chartBox;
import static io.github.llmbench.report.page.PageParts.navItem;
import static io.github.llmbench.report.page.PageParts.row;
import static io.github.llmbench.report.page.PageParts.tableEnd;
import static io.github.llmbench.report.page.PageParts.tableStart;

import io.github.llmbench.report.page.PageParts;
import io.github.llmbench.report.section.Numbers;
import io.github.llmbench.report.section.PagePart;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.PointLevel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sweep.html}: a sweep's Pareto chart (output throughput against tokens per second per user,
 * every level of every combination, the frontier's points joined and named), the best level under
 * the objectives, a table of the combinations' levels that sorts by any column, and the
 * combinations that failed with their servers' last lines; in the look of {@code
 * report.page.LlmPage}, every text HTML-escaped.
 */
public final class SweepPage {
  private SweepPage() {}

  public static final String FILE = "sweep.html";

  private static final String SCRIPT = PageParts.resource("sweep-page.js");

  /** The chart's element. */
  public static final String CHART_ID = "llm-pareto";

  /** Writes the page to {@code file} and the assets it needs beside it. */
  public static Path write(Path file, SweepSummary summary) {
    return PageParts.write(file, html(summary));
  }

  static String html(SweepSummary summary) {
    SweepSummary.Sweep s = summary.sweep();
    StringBuilder sb = new StringBuilder(64 * 1024);
    PageParts.pageStart(sb, "Gatling Stats - LLM sweep", "", FILE);
    navItem(sb, "llm-sweep-best", "Best");
    navItem(sb, "llm-sweep-pareto", "Pareto frontier");
    navItem(sb, "llm-sweep-table", "Combinations");
    PageParts.contentStart(
        sb,
        "LLM sweep &mdash; " + s.points().size() + " combinations",
        PageParts.menuItem(null, FILE, "Sweep", true));
    best(sb, s);
    sb.append("<div id=\"llm-sweep-pareto\" class=\"llm-section\">\n");
    chartBox(sb, CHART_ID);
    sb.append(
        "<p class=\"llm-note\">Each point is one level of one combination: its output throughput"
            + (perGpu(s) ? " per GPU (GPUs: " + esc(s.gpus()) + ")" : "")
            + " against its tokens per second per user (1000 / mean TPOT in ms). The frontier"
            + " joins the points no other beats on both.</p>\n</div>\n");
    levels(sb, s);
    failures(sb, s);
    PageParts.pageEnd(sb, chartData(s), SCRIPT);
    return sb.toString();
  }

  private static void best(StringBuilder sb, SweepSummary.Sweep s) {
    sb.append("<div id=\"llm-sweep-best\" class=\"llm-section\">\n<p class=\"llm-best\">");
    String under =
        s.slo().isEmpty()
            ? "the highest output throughput (no -Dslo)"
            : "the highest output throughput meeting " + objectives(s.slo());
    if (s.best() == null) {
      sb.append("No level of any combination met ").append(esc(objectives(s.slo()))).append('.');
    } else {
      sb.append("Best, ")
          .append(esc(under))
          .append(": <b>")
          .append(esc(s.best().point().isEmpty() ? "the run" : s.best().point()))
          .append("</b> at ")
          .append(esc(s.best().level()))
          .append(", ")
          .append(esc(Numbers.f1(s.best().outputThroughput())))
          .append(" output tok/s.");
    }
    sb.append("</p>\n");
    if (s.command() != null) {
      sb.append("<p class=\"llm-note\">Server command: <code>")
          .append(esc(s.command()))
          .append("</code></p>\n");
    }
    sb.append("</div>\n");
  }

  /** Whether the throughput is divided by GPUs ({@code -Dgpus} other than 1). */
  static boolean perGpu(SweepSummary.Sweep s) {
    return s.gpus() != null && !s.gpus().equals("1");
  }

  /** {@code ttft.p99 <= 300, tpot.mean <= 50}. */
  static String objectives(Map<String, Double> slo) {
    List<String> parts = new ArrayList<>();
    slo.forEach((k, v) -> parts.add(k + " <= " + Numbers.num(v)));
    return String.join(", ", parts);
  }

  private static void levels(StringBuilder sb, SweepSummary.Sweep s) {
    // the script sorts it by output throughput (column 4), highest first, when the page opens
    sb.append(
        "<div id=\"llm-sweep-table\" class=\"llm-section llm-sortable\" data-sort-first=\"4\">\n");
    List<String> headings =
        new ArrayList<>(List.of("Combination", "Level", "Completed", "Failed", "Output tok/s"));
    if (perGpu(s)) {
      headings.add("Per GPU");
    }
    headings.addAll(
        List.of(
            "Tok/s per user",
            "TTFT mean ms",
            "TTFT P99 ms",
            "TPOT mean ms",
            "TPOT P99 ms",
            "Frontier",
            "Meets SLO",
            "Run"));
    tableStart(sb, "Combinations by level (click a heading to sort)", headings);
    for (Point p : s.points()) {
      if (p.levels() == null) {
        continue;
      }
      p.levels()
          .forEach(
              (tag, l) -> {
                List<Object> cells =
                    new ArrayList<>(
                        List.of(
                            p.name(),
                            tag,
                            l.completed(),
                            l.failed(),
                            Numbers.num(l.outputThroughput())));
                if (perGpu(s)) {
                  cells.add(Numbers.num(l.outputThroughputPerGpu()));
                }
                cells.addAll(
                    List.of(
                        Numbers.num(l.interactivity()),
                        Numbers.num(l.meanTtftMs()),
                        Numbers.num(l.p99TtftMs()),
                        Numbers.num(l.meanTpotMs()),
                        Numbers.num(l.p99TpotMs()),
                        l.onFrontier() ? "yes" : "",
                        s.slo().isEmpty() ? "" : l.meetsSlo() ? "yes" : "no",
                        p.run() == null ? "" : new PagePart.Link(p.run() + "/llm/llm.html")));
                row(sb, cells.toArray());
              });
    }
    tableEnd(sb);
    sb.append("</div>\n");
  }

  private static void failures(StringBuilder sb, SweepSummary.Sweep s) {
    List<Point> failed = s.points().stream().filter(p -> p.error() != null).toList();
    if (failed.isEmpty()) {
      return;
    }
    sb.append("<div id=\"llm-sweep-failures\" class=\"llm-section\">\n");
    tableStart(sb, "Combinations that failed", "Combination", "Outcome", "Why", "Server log ends");
    for (Point p : failed) {
      row(
          sb,
          p.name(),
          p.status().name(),
          p.error(),
          p.logTail() == null ? "" : String.join("\n", p.logTail()));
    }
    tableEnd(sb);
    sb.append("</div>\n");
  }

  /** The chart's data: every measured level as a point, the frontier's named. */
  public static Map<String, Object> chartData(SweepSummary.Sweep s) {
    return chartData(List.of(new Labeled("Levels", s)));
  }

  /** A sweep and the name its points go by on a chart of several. */
  public record Labeled(String label, SweepSummary.Sweep sweep) {}

  /** The chart's data of several sweeps: a series of points and a frontier per sweep. */
  public static Map<String, Object> chartData(List<Labeled> sweeps) {
    List<Map<String, Object>> series = new ArrayList<>();
    for (Labeled l : sweeps) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("label", l.label());
      one.put("points", points(l.sweep()));
      series.add(one);
    }
    Map<String, Object> chart = new LinkedHashMap<>();
    chart.put("id", CHART_ID);
    chart.put("perGpu", sweeps.stream().anyMatch(l -> perGpu(l.sweep())));
    chart.put("sweeps", series);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("pareto", chart);
    return data;
  }

  private static List<Map<String, Object>> points(SweepSummary.Sweep s) {
    List<Map<String, Object>> points = new ArrayList<>();
    for (Point p : s.points()) {
      if (p.levels() == null) {
        continue;
      }
      for (Map.Entry<String, PointLevel> e : p.levels().entrySet()) {
        PointLevel l = e.getValue();
        if (l.interactivity() == null) {
          continue;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("x", l.interactivity());
        m.put("y", l.outputThroughputPerGpu());
        m.put("name", (p.name().isEmpty() ? "" : p.name() + " ") + e.getKey());
        m.put("frontier", l.onFrontier());
        points.add(m);
      }
    }
    return points;
  }
}
