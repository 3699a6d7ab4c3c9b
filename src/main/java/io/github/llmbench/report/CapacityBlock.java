package io.github.llmbench.report;

import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.settings.BenchSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A capacity search's answer: on the console, and as {@code summary.json} {@code capacity}.
 *
 * <pre>
 * =========== Capacity at SLO (ttft.p99 &lt;= 2000, tpot.p99 &lt;= 100) ===========
 * Capacity:  c36 meets every objective; c38 broke tpot.p99 112.40 &gt; 100.00 (+12.4%)
 * Probes:    c1 met, c2 met, ..., c64 broke, c48 broke, c40 broke, c36 met, c38 broke
 * </pre>
 */
public final class CapacityBlock {
  private CapacityBlock() {}

  /** Requests a probe needs for a P99 that no single request decides (the 99th of 100 sits between two). */
  static final int STABLE_P99_REQUESTS = 100;

  public static String format(CapacitySearch.Verdict v, Map<String, Double> objectives, RunAnalysis a) {
    StringBuilder sb = new StringBuilder();
    List<String> slo = new ArrayList<>();
    objectives.forEach((m, l) -> slo.add(m + " <= " + num(l)));
    sb.append(ServingResultBlock.center(" Capacity at SLO (" + String.join(", ", slo) + ") ", '=', ServingResultBlock.WIDTH)).append('\n');
    sb.append("Capacity:  ").append(sentence(v)).append('\n');
    List<String> probes = new ArrayList<>();
    List<String> thin = new ArrayList<>();
    for (CapacitySearch.Probe p : v.probes()) {
      int n = requests(a, p);
      probes.add(level(p.load()) + (p.met() ? " met" : " broke") + " (" + n + " requests)");
      if (n < STABLE_P99_REQUESTS) {
        thin.add(level(p.load()) + ": " + n);
      }
    }
    sb.append("Probes:    ").append(String.join(", ", probes)).append('\n');
    if (!thin.isEmpty() && objectives.keySet().stream().anyMatch(m -> m.endsWith(".p99"))) {
      sb.append("! P99 objectives judged on fewer than ").append(STABLE_P99_REQUESTS).append(" requests (")
          .append(String.join(", ", thin)).append("): one request decides such a P99; a longer -Dduration gives probes more\n");
    }
    return sb.toString();
  }

  /** The answer in one sentence. */
  static String sentence(CapacitySearch.Verdict v) {
    CapacitySearch.Probe broken = v.probes().stream()
        .filter(p -> v.lowestBroken() != null && p.load() == v.lowestBroken()).findFirst().orElse(null);
    String brokeWhat = broken == null ? "" : " broke " + String.join(", ", broken.broken());
    return switch (v.status()) {
      case "bracketed" -> level(v.capacity()) + " meets every objective; " + level(v.lowestBroken()) + brokeWhat;
      case "never met" -> "none: the lowest level probed, " + level(v.lowestBroken()) + "," + brokeWhat + " (lower -Dsearch.min)";
      case "always met" -> "at least " + level(v.capacity()) + ": the highest level probed met every objective (raise -Dsearch.max)";
      default -> "not bracketed (out of time, -Dsearch.budget): "
          + (v.capacity() == null ? "no level met the objectives" : level(v.capacity()) + " met every objective")
          + (v.lowestBroken() == null ? "" : "; " + level(v.lowestBroken()) + brokeWhat);
    };
  }

  public static Map<String, Object> json(CapacitySearch.Verdict v, BenchSettings.Search search, RunAnalysis a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", v.status());
    m.put("capacity", v.capacity());
    m.put("lowest_broken", v.lowestBroken());
    m.put("answer", sentence(v));
    m.put("objectives", search.objectives());
    m.put("precision", search.precision());
    List<Map<String, Object>> probes = new ArrayList<>();
    for (CapacitySearch.Probe p : v.probes()) {
      Map<String, Object> q = new LinkedHashMap<>();
      q.put("level", level(p.load()));
      q.put("met", p.met());
      q.put("requests", requests(a, p));
      q.put("broken", p.broken());
      Map<String, Double> figures = new LinkedHashMap<>();
      search.objectives().keySet().forEach(k -> figures.put(k, p.figures().get(k)));
      q.put("figures", figures);
      probes.add(q);
    }
    m.put("probes", probes);
    RunAnalysis.Level at = v.capacity() == null ? null : a.levels().get(level(v.capacity()));
    if (at != null) {
      m.put("request_throughput_at_capacity", at.serving().requestThroughput());
      m.put("output_throughput_at_capacity", at.serving().outputThroughput());
    }
    return m;
  }

  /** The requests a probe's level completed. */
  private static int requests(RunAnalysis a, CapacitySearch.Probe p) {
    RunAnalysis.Level l = a.levels().get(level(p.load()));
    return l == null ? 0 : l.serving().completed();
  }

  static String level(Double load) {
    return load == null ? "none" : LoadPlan.closedLevel((int) Math.round(load));
  }

  private static String num(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.valueOf(v);
  }
}
