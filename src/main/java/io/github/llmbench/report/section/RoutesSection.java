package io.github.llmbench.report.section;

import io.github.llmbench.analysis.Routes;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A level whose requests went to several servers or named several models: on the console and the
 * page, one line per server (per model) with what it served and how fast.
 *
 * <pre>
 * ---------------------- Per server (c8) ----------------------
 * server                    completed failed    req/s  out tok/s  Mean TTFT ms ...
 * http://127.0.0.1:8001            60      0     5.01     320.44         21.30 ...
 * </pre>
 */
public final class RoutesSection implements ReportSection {
  RoutesSection() {}

  /** The latency columns, after the counts and throughputs. */
  static final List<LatencyFigure> COLUMNS =
      List.of(
          LatencyFigure.of(Metric.TTFT, Statistic.MEAN),
          LatencyFigure.of(Metric.TTFT, Statistic.P99),
          LatencyFigure.of(Metric.TPOT, Statistic.MEAN),
          LatencyFigure.of(Metric.E2EL, Statistic.MEAN));

  /**
   * The blocks, lines ended by {@code \n}; empty when the level's requests had one server and one
   * model.
   *
   * @param level the level's name for the titles, null or blank for a single-level run
   */
  public static String format(Routes routes, String level) {
    return block("server", routes.byEndpoint(), level) + block("model", routes.byModel(), level);
  }

  private static String block(String what, Map<String, ServingMetrics> by, String level) {
    if (by.isEmpty()) {
      return "";
    }
    String title =
        " Per " + what + (level == null || level.isBlank() ? "" : " (" + level + ")") + " ";
    int width =
        Math.max(what.length(), by.keySet().stream().mapToInt(String::length).max().orElse(0));
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(
        String.format(
            Locale.ROOT,
            "%-" + width + "s %9s %6s %8s %10s",
            what,
            "completed",
            "failed",
            "req/s",
            "out tok/s"));
    for (LatencyFigure f : COLUMNS) {
      sb.append(String.format(Locale.ROOT, " %13s", f.label() + " ms"));
    }
    sb.append('\n');
    by.forEach(
        (name, m) -> {
          sb.append(
              String.format(
                  Locale.ROOT,
                  "%-" + width + "s %9d %6d %8.2f %10.2f",
                  name,
                  m.completed(),
                  m.failed(),
                  m.requestThroughput(),
                  m.outputThroughput()));
          for (LatencyFigure f : COLUMNS) {
            sb.append(
                String.format(Locale.ROOT, " %13.2f", m.latency(f.metric()).value(f.statistic())));
          }
          sb.append('\n');
        });
    return sb.toString();
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> !l.routes().isEmpty());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.routes(), several ? l.name() : null);
  }

  /** Per level, its figures per server and per model, when the run spread its requests. */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      routeTable("Per server (" + l.name() + ")", "Server", l.routes().byEndpoint())
          .ifPresent(items::add);
      routeTable("Per model (" + l.name() + ")", "Model", l.routes().byModel())
          .ifPresent(items::add);
    }
    return List.of(new PagePart("llm-routes", "Servers and models", items));
  }

  private static Optional<Table> routeTable(
      String title, String what, Map<String, ServingMetrics> by) {
    if (by.isEmpty()) {
      return Optional.empty();
    }
    List<String> headers =
        new ArrayList<>(List.of(what, "Completed", "Failed", "Req/s", "Output tok/s"));
    COLUMNS.forEach(f -> headers.add(f.label() + " (ms)"));
    List<List<Object>> rows = new ArrayList<>();
    by.forEach(
        (name, m) -> {
          List<Object> cells =
              new ArrayList<>(
                  List.of(
                      name,
                      m.completed(),
                      m.failed(),
                      Numbers.f2(m.requestThroughput()),
                      Numbers.f2(m.outputThroughput())));
          COLUMNS.forEach(f -> cells.add(Numbers.f2(m.latency(f.metric()).value(f.statistic()))));
          rows.add(cells);
        });
    return Optional.of(new Table(title, headers, rows));
  }
}
