package io.github.llmbench.gates;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.ServingMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks gates against each level's figures, and against a baseline run's figures for relative
 * limits: limit = baseline x (1 + pct / 100), so {@code tpot.p99=+10%} allows 10% slower and
 * {@code output_throughput.min=-5%} 5% less throughput. Pure: no I/O.
 */
public final class GateCheck {
  private GateCheck() {}

  /**
   * A level's figures under the gates' metric names.
   *
   * @param goodCount requests meeting the goodput objectives, or -1 without objectives
   * @param steadyOutputThroughput the steady window's output tok/s, or NaN when unknown
   */
  public static Map<String, Double> figures(ServingMetrics m, long goodCount, double steadyOutputThroughput) {
    Map<String, Double> f = new LinkedHashMap<>();
    put(f, "ttft", m.ttft());
    put(f, "tpot", m.tpot());
    put(f, "itl", m.itl());
    put(f, "e2el", m.e2el());
    int total = m.completed() + m.failed();
    f.put("failed.pct", total == 0 ? Double.NaN : 100.0 * m.failed() / total);
    f.put("output_throughput.min", m.outputThroughput());
    f.put("steady.output_throughput.min", steadyOutputThroughput);
    if (goodCount >= 0) {
      f.put("goodput.min", m.durationS() > 0 ? goodCount / m.durationS() : Double.NaN);
      f.put("goodput.pct", total == 0 ? Double.NaN : 100.0 * goodCount / total);
    }
    return f;
  }

  /** Where a capacity search's gate ({@code capacity.min}) is checked: the search, not a level. */
  public static final String SEARCH_LEVEL = "search";

  /**
   * A level's figures, the server's included ({@code server.<figure>}; NaN where the server does
   * not report it, so its gate fails as not measured).
   *
   * @param goodCount requests meeting the goodput objectives, or -1 without objectives
   */
  public static Map<String, Double> figures(io.github.llmbench.analysis.RunAnalysis.Level l, long goodCount) {
    Map<String, Double> f = figures(l.serving(), goodCount, l.steady().reached() ? l.steady().outputThroughput() : Double.NaN);
    for (String n : io.github.llmbench.analysis.ServerFigures.NAMES) {
      Double v = l.server().level().get(n);
      f.put(GateSet.SERVER_PREFIX + n, v == null ? Double.NaN : v);
    }
    return f;
  }

  private static void put(Map<String, Double> f, String metric, LatencyStats s) {
    boolean none = s.count() == 0;
    f.put(metric + ".mean", none ? Double.NaN : s.mean());
    f.put(metric + ".median", none ? Double.NaN : s.median());
    f.put(metric + ".p90", none ? Double.NaN : s.p90());
    f.put(metric + ".p99", none ? Double.NaN : s.p99());
  }

  /**
   * A level's figures from a {@code summary.json} level object (its vLLM field names), for
   * baselines.
   */
  public static Map<String, Double> figures(JsonNode level) {
    Map<String, Double> f = new LinkedHashMap<>();
    for (String metric : List.of("ttft", "tpot", "itl", "e2el")) {
      for (String stat : List.of("mean", "median", "p90", "p99")) {
        f.put(metric + "." + stat, number(level, stat + "_" + metric + "_ms"));
      }
    }
    double completed = number(level, "completed");
    double failed = number(level, "failed");
    f.put("failed.pct", 100.0 * failed / (completed + failed));
    f.put("output_throughput.min", number(level, "output_throughput"));
    f.put("steady.output_throughput.min", number(level.path("steady_state"), "output_throughput"));
    f.put("goodput.min", number(level, "request_goodput"));
    f.put("goodput.pct", number(level, "goodput_pct"));
    for (String figure : io.github.llmbench.analysis.ServerFigures.NAMES) {
      f.put(GateSet.SERVER_PREFIX + figure, number(level.path("server").path("level"), figure));
    }
    return f;
  }

  private static double number(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return v.isNumber() ? v.asDouble() : Double.NaN;
  }

  /**
   * Checks each gate where it applies: at its level when it names one; a capacity gate at the
   * search ({@value #SEARCH_LEVEL}); any other at every measured level.
   *
   * @param levels each measured level's figures, in run order, and a search's under {@value #SEARCH_LEVEL}
   * @param baseline the baseline run's figures by level (empty without a baseline)
   */
  public static List<GateResult> check(
      GateSet gates, Map<String, Map<String, Double>> levels, Map<String, Map<String, Double>> baseline) {
    List<GateResult> results = new ArrayList<>();
    List<String> measured = levels.keySet().stream().filter(l -> !l.equals(SEARCH_LEVEL)).toList();
    for (Gate g : gates.gates()) {
      List<String> applies = g.level() != null ? List.of(g.level())
          : g.metric().equals(GateSet.CAPACITY) ? List.of(SEARCH_LEVEL) : measured;
      for (String level : applies) {
        double figure = levels.getOrDefault(level, Map.of()).getOrDefault(g.metric(), Double.NaN);
        double limit = g.limitAt(baseline.getOrDefault(level, Map.of()));
        boolean pass =
            !Double.isNaN(figure) && !Double.isNaN(limit) && (g.upperBound() ? figure <= limit : figure >= limit);
        results.add(new GateResult(g, level, limit, figure, pass));
      }
    }
    return results;
  }
}
