package io.github.llmbench.compare;

import static io.github.llmbench.report.page.PageParts.chartBox;
import static io.github.llmbench.report.page.PageParts.navItem;
import static io.github.llmbench.report.page.PageParts.row;
import static io.github.llmbench.report.page.PageParts.tableEnd;
import static io.github.llmbench.report.page.PageParts.tableStart;

import io.github.llmbench.report.page.PageParts;
import io.github.llmbench.report.section.Numbers;
import io.github.llmbench.report.section.ServingResultBlock;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.PointLevel;
import io.github.llmbench.sweep.SweepPage;
import io.github.llmbench.sweep.SweepPage.Labeled;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Two or more sweeps side by side ({@code exec:java@compare} given sweep folders): per combination
 * and level each sweep's output throughput, tokens per second per user and TTFT P99, the ratio of
 * each sweep's throughput to the first's, whether the level is on its sweep's frontier; each
 * sweep's best level; and {@code compare-sweeps.html} with every sweep's points and frontier on one
 * Pareto chart. Combinations match by name (their settings), so a sweep of the same settings on
 * another version, model or GPU lines up.
 */
public final class SweepComparison {
  private SweepComparison() {}

  public static final String FILE = "compare-sweeps.html";

  /** One combination's level, in each sweep that has it (empty where one does not). */
  record Row(String combination, String level, List<Optional<PointLevel>> cells) {}

  static List<Row> rows(List<Labeled> sweeps) {
    Map<String, Row> rows = new LinkedHashMap<>();
    for (int i = 0; i < sweeps.size(); i++) {
      for (SweepSummary.Point p : sweeps.get(i).sweep().points()) {
        if (p.levels() == null) {
          continue;
        }
        for (Map.Entry<String, PointLevel> e : p.levels().entrySet()) {
          Row r =
              rows.computeIfAbsent(
                  p.name() + "\n" + e.getKey(),
                  k -> new Row(p.name(), e.getKey(), empty(sweeps.size())));
          r.cells().set(i, Optional.of(e.getValue()));
        }
      }
    }
    return List.copyOf(rows.values());
  }

  private static List<Optional<PointLevel>> empty(int n) {
    List<Optional<PointLevel>> cells = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cells.add(Optional.empty());
    }
    return cells;
  }

  /** The console's table. */
  public static String text(List<Labeled> sweeps) {
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(" Sweep Comparison ", '=', 50)).append('\n');
    sb.append(String.format(Locale.ROOT, "%-44s %-8s", "Combination", "Level"));
    for (Labeled l : sweeps) {
      sb.append(String.format(Locale.ROOT, " | %-28s", l.label()));
    }
    sb.append('\n').append(String.format(Locale.ROOT, "%-44s %-8s", "", ""));
    for (int i = 0; i < sweeps.size(); i++) {
      sb.append(
          String.format(
              Locale.ROOT, " | %9s %8s %9s", "tok/s", "per user", i == 0 ? "" : "vs first"));
    }
    sb.append('\n');
    for (Row r : rows(sweeps)) {
      sb.append(String.format(Locale.ROOT, "%-44s %-8s", r.combination(), r.level()));
      for (int i = 0; i < r.cells().size(); i++) {
        Optional<PointLevel> c = r.cells().get(i);
        String vsFirst = ratio(r, i);
        sb.append(
            c.map(
                    l ->
                        String.format(
                            Locale.ROOT,
                            " | %9.2f%s %8s %9s",
                            l.outputThroughput(),
                            l.onFrontier() ? "*" : " ",
                            Numbers.num(l.interactivity()),
                            vsFirst))
                .orElse(String.format(Locale.ROOT, " | %28s", "-")));
      }
      sb.append('\n');
    }
    for (Labeled l : sweeps) {
      SweepSummary.Best b = l.sweep().best();
      sb.append(
          b == null
              ? "Best in " + l.label() + ": none met the objectives\n"
              : String.format(
                  Locale.ROOT,
                  "Best in %s: %s %s, %.2f output tok/s%n",
                  l.label(),
                  b.point(),
                  b.level(),
                  b.outputThroughput()));
    }
    sb.append("(* on its sweep's Pareto frontier)\n");
    return sb.toString();
  }

  /** Sweep {@code i}'s throughput over the first's, as {@code 1.23x}; empty where one lacks it. */
  static String ratio(Row r, int i) {
    if (i == 0 || r.cells().get(0).isEmpty() || r.cells().get(i).isEmpty()) {
      return "";
    }
    double first = r.cells().get(0).get().outputThroughput();
    return first > 0 ? CompareCells.ratio(r.cells().get(i).get().outputThroughput() / first) : "";
  }

  /** Writes {@code compare-sweeps.html} and its assets into {@code dir}. */
  public static Path write(Path dir, List<Labeled> sweeps) {
    return PageParts.write(dir.resolve(FILE), html(sweeps));
  }

  static String html(List<Labeled> sweeps) {
    StringBuilder sb = new StringBuilder(64 * 1024);
    PageParts.pageStart(sb, "Gatling Stats - LLM sweeps compared", "", FILE);
    navItem(sb, "llm-sweep-pareto", "Pareto frontiers");
    navItem(sb, "llm-sweep-table", "Combinations");
    PageParts.contentStart(
        sb,
        "LLM sweeps compared &mdash; " + sweeps.size() + " sweeps",
        PageParts.menuItem(null, FILE, "Sweeps", true));
    sb.append("<div id=\"llm-sweep-pareto\" class=\"llm-section\">\n");
    chartBox(sb, SweepPage.CHART_ID);
    sb.append("</div>\n");
    sb.append(
        "<div id=\"llm-sweep-table\" class=\"llm-section llm-sortable\" data-sort-first=\"2\">\n");
    List<String> headings = new ArrayList<>(List.of("Combination", "Level"));
    for (int i = 0; i < sweeps.size(); i++) {
      String l = sweeps.get(i).label();
      headings.addAll(List.of(l + " tok/s", l + " tok/s per user", l + " TTFT P99 ms"));
      headings.add(i == 0 ? l + " frontier" : l + " vs first");
    }
    tableStart(sb, "Combinations by level (click a heading to sort)", headings);
    for (Row r : rows(sweeps)) {
      List<Object> cells = new ArrayList<>(List.of(r.combination(), r.level()));
      for (int i = 0; i < r.cells().size(); i++) {
        Optional<PointLevel> c = r.cells().get(i);
        final int sweep = i;
        cells.add(c.map(l -> Numbers.num(l.outputThroughput())).orElse(""));
        cells.add(c.map(l -> Numbers.num(l.interactivity())).orElse(""));
        cells.add(c.map(l -> Numbers.num(l.p99TtftMs())).orElse(""));
        cells.add(
            sweep == 0 ? c.map(l -> l.onFrontier() ? "yes" : "").orElse("") : ratio(r, sweep));
      }
      row(sb, cells.toArray());
    }
    tableEnd(sb);
    sb.append("</div>\n");
    PageParts.pageEnd(sb, SweepPage.chartData(sweeps), PageParts.resource("sweep-page.js"));
    return sb.toString();
  }
}
