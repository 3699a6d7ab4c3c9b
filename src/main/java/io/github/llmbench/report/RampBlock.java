package io.github.llmbench.report;

import io.github.llmbench.analysis.RampWindows;
import io.github.llmbench.core.Level;
import java.util.Locale;

/**
 * The console block of a ramp level, after its result blocks: one line per window of the ramp (the
 * load asked, what was sent and served, the latency of the requests sent then) and where latency
 * broke.
 *
 * <pre>
 * ------------------------ Ramp (r1-8) ------------------------
 *      s    asked  sent/s  out tok/s  Med TTFT ms  P90 TTFT ms  Med TPOT ms  failed
 *    0-3     1.26    1.33     170.67        21.03        24.87        10.05       0
 * ...
 * Ramp linear 1 to 8 req/s: latency broke at 5.2 req/s, 36 s in: median TTFT 820 ms, ...
 * </pre>
 */
public final class RampBlock {
  private RampBlock() {}

  /**
   * The block, lines ended by {@code \n}; empty for a level that is no ramp.
   *
   * @param level the level's name for the title, null or blank for a single-level run
   */
  public static String format(RampWindows ramp, String level) {
    if (ramp.isEmpty()) {
      return "";
    }
    String title = level == null || level.isBlank() ? " Ramp " : " Ramp (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(
        String.format(
            Locale.ROOT,
            "%9s %8s %7s %10s %12s %12s %12s %7s%n",
            "s",
            "asked",
            "sent/s",
            "out tok/s",
            "Med TTFT ms",
            "P90 TTFT ms",
            "Med TPOT ms",
            "failed"));
    for (int i = 0; i < ramp.windows().size(); i++) {
      RampWindows.Window w = ramp.windows().get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "%9s %8.2f %7.2f %10.2f %12s %12s %12s %7d%s%n",
              seconds(w.fromSeconds()) + "-" + seconds(w.toSeconds()),
              w.asked(),
              w.sentPerSecond(),
              w.outputTokensPerSecond(),
              ms(w.medianTtftMs()),
              ms(w.p90TtftMs()),
              ms(w.medianTpotMs()),
              w.failed(),
              i == ramp.breakAt() ? "  <- broke" : ""));
    }
    sb.append(ramp.verdict()).append('\n');
    return sb.toString();
  }

  /** A window's edge: whole seconds as such, else to a tenth. */
  private static String seconds(double s) {
    return Level.plainNumber(Math.round(s * 10) / 10.0);
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
  }
}
