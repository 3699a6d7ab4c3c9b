package io.github.llmbench.report.page;

import static io.github.llmbench.report.page.Html.esc;
import static io.github.llmbench.report.page.PageParts.chartBox;
import static io.github.llmbench.report.page.PageParts.navItem;
import static io.github.llmbench.report.page.PageParts.row;
import static io.github.llmbench.report.page.PageParts.tableEnd;
import static io.github.llmbench.report.page.PageParts.tableStart;

import io.github.llmbench.analysis.ChangePoints;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.history.HistoryFigures;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryKey;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.history.HistorySeries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code history.html}: a history's keys, its change points in one table, and per key, level and
 * figure a chart of the series with its change points marked, in the look of {@link LlmPage} (its
 * {@link PageParts}); Gatling's Highcharts and styles are copied beside it, every text is
 * HTML-escaped.
 */
public final class HistoryPage {
  private HistoryPage() {}

  public static final String FILE = "history.html";

  private static final String SCRIPT = PageParts.resource("history-page.js");

  /** Writes the page to {@code file} and the assets it needs beside it. */
  public static Path write(Path file, HistoryFile.Read read, List<HistorySeries> series) {
    return PageParts.write(file, html(read, series));
  }

  static String html(HistoryFile.Read read, List<HistorySeries> series) {
    StringBuilder sb = new StringBuilder(64 * 1024);
    PageParts.pageStart(sb, "Gatling Stats - LLM run history", "", FILE);
    navItem(sb, "llm-keys", "Keys");
    navItem(sb, "llm-changes", "Change points");
    navItem(sb, "llm-series", "Series");
    PageParts.contentStart(
        sb,
        "LLM run history &mdash; " + read.lines().size() + " runs",
        PageParts.menuItem(null, FILE, "History", true));
    keys(sb, read);
    changes(sb, series);
    sb.append("<div id=\"llm-series\" class=\"llm-section\">\n");
    Map<String, Object> data = new LinkedHashMap<>();
    List<Map<String, Object>> charts = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      String id = "llm-history-" + i;
      chartBox(sb, id);
      charts.add(chart(id, series.get(i)));
    }
    sb.append(
        "<p class=\"llm-note\">Each run's value is the mean of its trials. A dashed line marks"
            + " where a change point's new level starts (E-divisive means, p &lt; "
            + ChangePoints.Settings.DEFAULT.pValue()
            + "; docs/history.md).</p>\n</div>\n");
    data.put("charts", charts);
    PageParts.pageEnd(sb, data, SCRIPT);
    return sb.toString();
  }

  private static void keys(StringBuilder sb, HistoryFile.Read read) {
    sb.append("<div id=\"llm-keys\" class=\"llm-section\">\n");
    Map<String, HistoryKey> keys = new LinkedHashMap<>();
    Map<String, Integer> runs = new LinkedHashMap<>();
    for (HistoryLine l : read.lines()) {
      keys.putIfAbsent(l.key(), l.historyKey());
      runs.merge(l.key(), 1, Integer::sum);
    }
    tableStart(sb, "Keys (what runs of one series share)", "Key", "Runs", "Fields");
    keys.forEach(
        (id, k) ->
            row(
                sb,
                id,
                runs.get(id),
                String.join(
                    "; ",
                    k.fields().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue())
                        .toList())));
    tableEnd(sb);
    if (read.skipped() > 0 || read.newer() > 0) {
      sb.append("<p class=\"llm-note\">").append(esc(read.notes().substring(2))).append("</p>\n");
    }
    sb.append("</div>\n");
  }

  private static void changes(StringBuilder sb, List<HistorySeries> series) {
    sb.append("<div id=\"llm-changes\" class=\"llm-section\">\n");
    tableStart(
        sb, "Change points", "Key", "Level", "Figure", "From run", "Folder", "Time", "Change", "p");
    for (HistorySeries s : series) {
      for (ChangePoints.ChangePoint cp : s.changePoints()) {
        HistoryLine start = s.runs().get(cp.index() - 1);
        row(
            sb,
            s.key(),
            s.level(),
            s.figure(),
            cp.index() + " of " + s.values().length,
            start.run(),
            start.time(),
            String.format(Locale.ROOT, "%+.1f%%", 100 * cp.magnitude()),
            String.format(Locale.ROOT, "%.3f", cp.pValue()));
      }
    }
    tableEnd(sb);
    sb.append("</div>\n");
  }

  private static Map<String, Object> chart(String id, HistorySeries s) {
    Map<String, Object> ch = new LinkedHashMap<>();
    ch.put("id", id);
    ch.put("title", s.key() + " " + s.level() + " " + s.figure());
    ch.put("unit", HistoryFigures.parse(s.figure()).map(GateMetric::unit).orElse(""));
    List<Map<String, Object>> points = new ArrayList<>();
    for (int i = 0; i < s.values().length; i++) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("x", i + 1);
      p.put("y", s.values()[i]);
      p.put("run", s.runs().get(i).run());
      p.put("time", s.runs().get(i).time());
      points.add(p);
    }
    ch.put("points", points);
    List<Map<String, Object>> changes = new ArrayList<>();
    for (ChangePoints.ChangePoint cp : s.changePoints()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("x", cp.index());
      c.put(
          "label",
          String.format(Locale.ROOT, "%+.1f%% (p %.3f)", 100 * cp.magnitude(), cp.pValue()));
      changes.add(c);
    }
    ch.put("changes", changes);
    return ch;
  }
}
