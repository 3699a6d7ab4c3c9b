package io.github.llmbench.history;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.ServingFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The figures a history keeps per level and trial, each under the key a gate names it by ({@code
 * tpot.mean}, {@code output_throughput.min}, {@code failed.pct}, ...): the latencies' mean, median,
 * P90 and P99, the throughputs, the failures and the steady window's output throughput.
 */
public final class HistoryFigures {
  private HistoryFigures() {}

  /** Every figure kept, in order. */
  public static final List<GateMetric> ALL = all();

  private static List<GateMetric> all() {
    List<GateMetric> out = new ArrayList<>();
    LatencyFigure.ALL.forEach(f -> out.add(new GateMetric.Latency(f)));
    out.add(GateMetric.OUTPUT_THROUGHPUT);
    out.add(GateMetric.REQUEST_THROUGHPUT);
    out.add(GateMetric.INPUT_THROUGHPUT);
    out.add(GateMetric.FAILED_PCT);
    out.add(GateMetric.STEADY_OUTPUT_THROUGHPUT);
    return List.copyOf(out);
  }

  /** The figure kept under {@code key}, or empty. */
  public static Optional<GateMetric> parse(String key) {
    return ALL.stream().filter(m -> m.key().equals(key)).findFirst();
  }

  /**
   * A level's figures per trial (a level without trials is one trial): each figure's values in
   * trial order, null where a trial lacks it.
   */
  static Map<String, List<Double>> of(LevelSummary level) {
    List<ServingFigures> trials = new ArrayList<>();
    List<Double> steady = new ArrayList<>();
    if (level.trials() != null && level.trials().size() > 1) {
      level
          .trials()
          .forEach(
              t -> {
                trials.add(t.figures());
                steady.add(t.steadyOutputThroughput());
              });
    } else {
      trials.add(level.figures());
      steady.add(level.steadyOutputThroughput());
    }
    Map<String, List<Double>> out = new LinkedHashMap<>();
    for (GateMetric m : ALL) {
      List<Double> values = new ArrayList<>();
      for (int i = 0; i < trials.size(); i++) {
        double v =
            m == GateMetric.STEADY_OUTPUT_THROUGHPUT
                ? orNaN(steady.get(i))
                : value(m, trials.get(i));
        values.add(Double.isFinite(v) ? v : null);
      }
      out.put(m.key(), values);
    }
    return out;
  }

  private static double value(GateMetric m, ServingFigures f) {
    if (m instanceof GateMetric.Latency l) {
      return f.completed() > 0 ? f.latency(l.figure()) : Double.NaN;
    }
    if (m == GateMetric.OUTPUT_THROUGHPUT) {
      return f.outputThroughput();
    }
    if (m == GateMetric.REQUEST_THROUGHPUT) {
      return f.requestThroughput();
    }
    if (m == GateMetric.INPUT_THROUGHPUT) {
      return f.duration() > 0 ? f.totalInputTokens() / f.duration() : Double.NaN;
    }
    return f.failedPct();
  }

  private static double orNaN(Double v) {
    return v == null ? Double.NaN : v;
  }
}
