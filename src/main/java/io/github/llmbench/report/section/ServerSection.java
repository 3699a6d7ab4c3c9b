package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the server's metrics said of each level, beside the client's figures where both measure the
 * same thing: a table per level and the gauges over time on the page; on the console a block per
 * level, then the confound guards ({@code !} lines):
 *
 * <pre>
 * ------------------ Server metrics (c64) -------------------
 * figure                          level     steady     client
 * running_mean                    61.20      63.90
 * prompt_tokens_per_s           5210.33    5302.10    5198.20
 * ! prefix cache served 95% of prompt tokens at c64: prefill was not measured
 * </pre>
 *
 * Figures the server does not report are left out; the block is empty when it reports none.
 */
public final class ServerSection implements ReportSection {
  ServerSection() {}

  /** What the client column's hit rate is. */
  static final String IDEAL_NOTE =
      "client prefix_cache_hit_rate: what a perfect prefix cache would serve of the prompts sent"
          + " (-Dprefix.len, -Dprefix.groups)";

  /** A line of the console block: the figure's name, then the level, steady and client values. */
  private static final String LINE = "%-26s %10s %10s %10s%n";

  private static String format(RunAnalysis.Level l, String level) {
    ServerFigures s = l.server();
    if (s.isEmpty()) {
      return "";
    }
    String title =
        level == null || level.isBlank() ? " Server metrics " : " Server metrics (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(String.format(Locale.ROOT, LINE, "figure", "level", "steady", "client"));
    for (List<Object> row : figureRows(l)) {
      sb.append(String.format(Locale.ROOT, LINE, row.toArray()));
    }
    if (s.level().get(ServerFigures.IDEAL_HIT_RATE) != null) {
      sb.append(IDEAL_NOTE).append('\n');
    }
    for (String g : s.guards()) {
      sb.append("! ").append(g).append('\n');
    }
    return sb.toString();
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> !l.server().isEmpty());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l, several ? l.name() : null);
  }

  /** Per level, the server's figures beside the client's, and its gauges over time. */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      if (l.server().isEmpty()) {
        continue;
      }
      items.add(figuresTable(l));
      if (l.server().level().get(ServerFigures.IDEAL_HIT_RATE) != null) {
        items.add(Note.of(IDEAL_NOTE));
      }
    }
    items.add(
        Chart.of("llm-chart-server", "server")
            .with(
                "title",
                "Server: requests running and waiting, KV-cache usage (steady windows shaded)"));
    items.add(
        Chart.of("llm-chart-gpu", "gpu")
            .with("title", "GPU power and SM clock (DCGM, steady windows shaded)"));
    return List.of(new PagePart("llm-server", "Server metrics", items));
  }

  private static Table figuresTable(RunAnalysis.Level l) {
    return new Table(
        "Server metrics ("
            + l.name()
            + "): over the level, its steady window, and the client's own figure",
        List.of("Figure", "Level", "Steady window", "Client"),
        figureRows(l));
  }

  /**
   * A row per figure the server reported over the level or its steady window: its name, its value
   * over each, and the client's own (empty where there is none), for the block and the table.
   */
  private static List<List<Object>> figureRows(RunAnalysis.Level l) {
    ServerFigureValues client = l.server().clientSide(l.serving());
    List<List<Object>> rows = new ArrayList<>();
    for (ServerFigure key : ServerFigures.KEYS) {
      Double v = l.server().level().get(key);
      Double w = l.server().steady().get(key);
      if (v != null || w != null) {
        rows.add(
            PagePart.row(
                key.name(),
                Numbers.serverValue(v),
                Numbers.serverValue(w),
                Numbers.serverValue(client.get(key))));
      }
    }
    return rows;
  }

  /** The server's gauges over time, for the page's server and GPU charts. */
  @Override
  public void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> data) {
    data.put("server", ServerFigures.timeline(a.serverSeries()));
  }
}
