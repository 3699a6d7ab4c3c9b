package io.github.llmbench.summary;

import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.Percentiles;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Latency figures under vLLM's field names ({@code mean_ttft_ms}, {@code p99_tpot_ms}, {@code
 * std_itl_ms}, {@code p99.9_e2el_ms}): the reported percentiles vary per run, so they are a map
 * keyed by field, read through {@link LatencyFigure}.
 */
final class LatencyFields {
  private LatencyFields() {}

  /** Every field of a metric's statistics: mean, median, std and each computed percentile. */
  static void put(Map<String, Double> f, Metric metric, LatencyStats s) {
    f.put(new LatencyFigure(metric, Statistic.MEAN).summaryField(), s.mean());
    f.put(new LatencyFigure(metric, Statistic.MEDIAN).summaryField(), s.median());
    f.put(metric.summaryField(Statistic.STD), s.std());
    s.percentiles().forEach((p, v) -> f.put(metric.summaryField("p" + Percentiles.label(p)), v));
  }

  /** The named statistics of a metric. */
  static void put(Map<String, Double> f, Metric metric, LatencyStats s, List<Statistic> stats) {
    for (Statistic stat : stats) {
      f.put(new LatencyFigure(metric, stat).summaryField(), s.value(stat));
    }
  }

  /**
   * Keeps a JSON property when it is a latency field (a summary's other properties reach the same
   * setter when objects are unwrapped into one); {@code "NaN"} reads as NaN, other non-numbers as
   * absent.
   */
  static void accept(Map<String, Double> f, String field, Object value) {
    if (!Metric.isSummaryField(field)) {
      return;
    }
    if (value instanceof Number n) {
      f.put(field, n.doubleValue());
    } else if ("NaN".equals(value)) {
      f.put(field, Double.NaN);
    }
  }

  /** A mutable copy (Jackson fills it while reading), insertion-ordered. */
  static Map<String, Double> copy(Map<String, Double> f) {
    return f == null ? new LinkedHashMap<>() : new LinkedHashMap<>(f);
  }

  /** The figure, NaN when absent. */
  static double get(Map<String, Double> f, LatencyFigure figure) {
    Double v = f.get(figure.summaryField());
    return v == null ? Double.NaN : v;
  }

  /** The latency figures among the fields, in their order ({@code std_*} is none). */
  static List<LatencyFigure> figures(Map<String, Double> f) {
    return f.keySet().stream().flatMap(k -> LatencyFigure.ofSummaryField(k).stream()).toList();
  }

  static Map<String, Double> view(Map<String, Double> f) {
    return Collections.unmodifiableMap(f);
  }
}
