package io.github.llmbench.report;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigures;
import java.util.Locale;
import java.util.Map;

/**
 * The console block of what the server's metrics said of a level, beside the client's figures where
 * both measure the same thing, then the confound guards ({@code !} lines):
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
public final class ServerBlock {
  private ServerBlock() {}

  /** What the client column's hit rate is. */
  static final String IDEAL_NOTE =
      "client prefix_cache_hit_rate: what a perfect prefix cache would serve of the prompts sent"
          + " (-Dprefix.len, -Dprefix.groups)";

  public static String format(RunAnalysis.Level l, String level) {
    ServerFigures s = l.server();
    if (s.isEmpty()) {
      return "";
    }
    String title =
        level == null || level.isBlank() ? " Server metrics " : " Server metrics (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(
        String.format(
            Locale.ROOT, "%-26s %10s %10s %10s%n", "figure", "level", "steady", "client"));
    Map<String, Double> client = s.clientSide(l.serving());
    for (String name : ServerFigures.NAMES) {
      Double v = s.level().get(name);
      Double w = s.steady().get(name);
      if (v == null && w == null) {
        continue;
      }
      sb.append(
          String.format(
              Locale.ROOT, "%-26s %10s %10s %10s%n", name, num(v), num(w), num(client.get(name))));
    }
    if (s.level().get(ServerFigures.IDEAL_HIT_RATE) != null) {
      sb.append(IDEAL_NOTE).append('\n');
    }
    for (String g : s.guards()) {
      sb.append("! ").append(g).append('\n');
    }
    return sb.toString();
  }

  static String num(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return "";
    }
    return Math.abs(v) >= 100 || v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.3f", v);
  }
}
