package io.github.llmbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.core.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several runs side by side, level by level: pure (no I/O), over parsed {@code summary.json} trees.
 * The first run is the baseline; each other run's value of each metric is given with its ratio to
 * the baseline's and whether it is better or worse (higher throughput, lower latency, fewer
 * failures is better).
 *
 * <p>Levels: the union of every run's {@code levels} (a summary without {@code levels}, as older
 * single-level ones, is one level from its top-level fields, named {@code c<max_concurrency>} or
 * {@code all}); {@code warmup} is left out. Ladder order: levels with a concurrency (their {@code
 * max_concurrency}, else the N of a name {@code cN}) by concurrency, then the others in the order
 * they were first met.
 *
 * <p>A value is missing (null, never zero) when the run has no such level, the field is absent,
 * null, not a finite number, or (steady-state throughput) the level never reached its steady state.
 * A ratio is missing when either value is, or the baseline is 0 and the value is not (two zeros:
 * 1).
 */
public record RunComparison(List<RunInfo> runs, List<ComparedLevel> levels) {

  /** A run's relative change within this of the baseline counts as the same, not coloured. */
  public static final double SAME_WITHIN = 0.01;

  /** Which way is better. */
  public enum Direction {
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER
  }

  /** A value against the baseline's. */
  public enum Verdict {
    BETTER,
    WORSE,
    SAME
  }

  /**
   * A compared figure.
   *
   * @param key the field in a level of {@code summary.json} (steady state: {@code
   *     steady_state.output_throughput})
   * @param label as shown
   * @param unit as shown ({@code ms}, {@code tok/s}, ...)
   */
  public record Metric(String key, String label, String unit, Direction direction) {}

  /** The compared figures, in the order shown. */
  public static final List<Metric> METRICS =
      List.of(
          new Metric(
              "request_throughput", "Request throughput", "req/s", Direction.HIGHER_IS_BETTER),
          new Metric(
              "output_throughput", "Output token throughput", "tok/s", Direction.HIGHER_IS_BETTER),
          new Metric("mean_ttft_ms", "Mean TTFT", "ms", Direction.LOWER_IS_BETTER),
          new Metric("median_ttft_ms", "Median TTFT", "ms", Direction.LOWER_IS_BETTER),
          new Metric("p99_ttft_ms", "P99 TTFT", "ms", Direction.LOWER_IS_BETTER),
          new Metric("mean_tpot_ms", "Mean TPOT", "ms", Direction.LOWER_IS_BETTER),
          new Metric("p99_tpot_ms", "P99 TPOT", "ms", Direction.LOWER_IS_BETTER),
          new Metric("mean_itl_ms", "Mean ITL", "ms", Direction.LOWER_IS_BETTER),
          new Metric("p99_itl_ms", "P99 ITL", "ms", Direction.LOWER_IS_BETTER),
          new Metric("mean_e2el_ms", "Mean E2EL", "ms", Direction.LOWER_IS_BETTER),
          new Metric("p99_e2el_ms", "P99 E2EL", "ms", Direction.LOWER_IS_BETTER),
          new Metric("failed", "Failed requests", "", Direction.LOWER_IS_BETTER),
          new Metric(
              "steady_state.output_throughput",
              "Steady-state output throughput",
              "tok/s",
              Direction.HIGHER_IS_BETTER));

  /** One run to compare: its label and its parsed {@code summary.json}. */
  public record Input(String label, JsonNode summary) {}

  /**
   * A run's label and metadata (null where the summary has none).
   *
   * @param levels the run's own levels, in its order
   */
  public record RunInfo(
      String label,
      String model,
      String baseUrl,
      String dataset,
      String date,
      String seed,
      List<String> levels) {}

  /**
   * One run's value of one metric at one level.
   *
   * @param value null when missing
   * @param ratio value / the baseline's value; null when it cannot be computed
   * @param verdict against the baseline; null when either value is missing
   */
  public record Cell(Double value, Double ratio, Verdict verdict) {}

  /** One metric at one level: a cell per run, the baseline's first. */
  public record Row(Metric metric, List<Cell> cells) {}

  /**
   * One level across the runs.
   *
   * @param concurrency null when unknown (e.g. an open-model level)
   * @param present per run, whether it has the level
   */
  public record ComparedLevel(
      String name, Integer concurrency, List<Boolean> present, List<Row> rows) {

    /**
     * Whether a title should state the concurrency: its name is not the closed-model level of it
     * (as {@code c8} is).
     */
    public boolean concurrencyNotInName() {
      return concurrency != null && !name.equals(Level.closed(concurrency).tag());
    }

    /** The row of a metric key. */
    public Row row(String key) {
      for (Row r : rows) {
        if (r.metric().key().equals(key)) {
          return r;
        }
      }
      throw new IllegalArgumentException("no metric " + key);
    }
  }

  public RunComparison {
    runs = List.copyOf(runs);
    levels = List.copyOf(levels);
  }

  /** The level of that name, or null. */
  public ComparedLevel level(String name) {
    for (ComparedLevel l : levels) {
      if (l.name().equals(name)) {
        return l;
      }
    }
    return null;
  }

  /** Compares the runs; the first is the baseline. */
  public static RunComparison of(List<Input> inputs) {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("no runs to compare");
    }
    List<RunInfo> infos = new ArrayList<>();
    List<Map<String, JsonNode>> levelsByRun = new ArrayList<>();
    // union of levels, first met first; concurrency from the first run that tells it
    Map<String, Integer> order = new LinkedHashMap<>();
    Map<String, Integer> concurrency = new LinkedHashMap<>();
    for (Input in : inputs) {
      Map<String, JsonNode> levels = levelsOf(in.summary());
      levelsByRun.add(levels);
      infos.add(
          new RunInfo(
              in.label(),
              text(in.summary(), "model_id"),
              text(in.summary(), "base_url"),
              text(in.summary(), "dataset"),
              text(in.summary(), "date"),
              text(in.summary(), "seed"),
              List.copyOf(levels.keySet())));
      levels.forEach(
          (name, node) -> {
            order.putIfAbsent(name, order.size());
            if (!concurrency.containsKey(name) || concurrency.get(name) == null) {
              concurrency.put(name, concurrencyOf(name, node));
            }
          });
    }
    List<String> names = new ArrayList<>(order.keySet());
    names.sort(
        Comparator.comparing((String n) -> concurrency.get(n) == null)
            .thenComparing(n -> concurrency.get(n) == null ? 0 : concurrency.get(n))
            .thenComparing(order::get));

    List<ComparedLevel> levels = new ArrayList<>();
    for (String name : names) {
      List<Boolean> present = new ArrayList<>();
      for (Map<String, JsonNode> l : levelsByRun) {
        present.add(l.containsKey(name));
      }
      List<Row> rows = new ArrayList<>();
      for (Metric m : METRICS) {
        List<Cell> cells = new ArrayList<>();
        Double base = value(levelsByRun.get(0).get(name), m);
        for (Map<String, JsonNode> l : levelsByRun) {
          Double v = value(l.get(name), m);
          cells.add(new Cell(v, ratio(v, base), verdict(v, base, m.direction())));
        }
        rows.add(new Row(m, List.copyOf(cells)));
      }
      levels.add(
          new ComparedLevel(name, concurrency.get(name), List.copyOf(present), List.copyOf(rows)));
    }
    return new RunComparison(infos, levels);
  }

  /** The run's levels by name: its {@code levels} object, or its top level as one level. */
  static Map<String, JsonNode> levelsOf(JsonNode summary) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    JsonNode levels = summary.get("levels");
    if (levels != null && levels.isObject() && levels.size() > 0) {
      levels
          .fields()
          .forEachRemaining(
              e -> {
                if (Level.parse(e.getKey()).map(Level::measured).orElse(true)
                    && e.getValue().isObject()) {
                  out.put(e.getKey(), e.getValue());
                }
              });
      return out;
    }
    Integer c = positiveInt(summary.get("max_concurrency"));
    out.put(c != null ? Level.closed(c).tag() : "all", summary);
    return out;
  }

  private static Integer concurrencyOf(String name, JsonNode level) {
    Integer c = positiveInt(level.get("max_concurrency"));
    if (c != null) {
      return c;
    }
    return Level.parse(name).orElse(null) instanceof Level.Closed closed
        ? Integer.valueOf(closed.conc())
        : null;
  }

  private static Integer positiveInt(JsonNode n) {
    return n != null && n.isIntegralNumber() && n.canConvertToInt() && n.asInt() > 0
        ? n.asInt()
        : null;
  }

  /** The metric's value in a level object; null when missing (see the class comment). */
  static Double value(JsonNode level, Metric m) {
    if (level == null) {
      return null;
    }
    JsonNode node = level;
    String[] path = m.key().split("\\.");
    for (int i = 0; i < path.length; i++) {
      if (i == path.length - 1
          && i > 0
          && node.path("reached").isBoolean()
          && !node.path("reached").asBoolean()) {
        return null; // a steady state never reached has no figures
      }
      node = node.get(path[i]);
      if (node == null) {
        return null;
      }
    }
    if (!node.isNumber()) {
      return null;
    }
    double v = node.asDouble();
    return Double.isFinite(v) ? v : null;
  }

  static Double ratio(Double value, Double base) {
    if (value == null || base == null) {
      return null;
    }
    if (base == 0.0) {
      return value == 0.0 ? 1.0 : null;
    }
    return value / base;
  }

  static Verdict verdict(Double value, Double base, Direction d) {
    if (value == null || base == null) {
      return null;
    }
    double diff = value - base;
    double scale = Math.max(Math.abs(base), Math.abs(value));
    if (diff == 0.0
        || (base != 0.0 && Math.abs(diff) <= SAME_WITHIN * Math.abs(base))
        || scale == 0.0) {
      return Verdict.SAME;
    }
    boolean higher = diff > 0;
    return higher == (d == Direction.HIGHER_IS_BETTER) ? Verdict.BETTER : Verdict.WORSE;
  }

  private static String text(JsonNode summary, String field) {
    JsonNode n = summary.get(field);
    if (n == null || n.isNull() || n.isContainerNode()) {
      return null;
    }
    return n.asText();
  }
}
