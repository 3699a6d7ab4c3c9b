package io.github.llmbench.gates;

import io.github.llmbench.analysis.SessionFigures;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * vLLM's goodput objectives ({@code --goodput ttft:500 tpot:50 e2el:2000}, in ms): a completed
 * request is good when each listed metric is at or below its objective; goodput = good requests per
 * second of the benchmark's duration. Besides vLLM's three, {@code ttfo:MS} bounds the time to the
 * first output token (a reasoning model's first answer token; a request that did not reason answers
 * with its first token, so its TTFO is its TTFT).
 *
 * <p>In agent sessions, {@code task:MS} bounds a session's task time (its start to its last call's
 * end, {@link SessionFigures}): goodput then counts sessions, each good when every call completed
 * (and met the per-request objectives given) and the task took at most MS.
 *
 * @param objectivesMs each metric's objective in ms, in the order given (for {@link #toString()})
 * @param ttfoMs the objective on TTFO in ms, null for none
 * @param taskMs the objective on an agent session's task time in ms, null for none
 */
public record GoodputSpec(Map<Metric, Double> objectivesMs, Double ttfoMs, Double taskMs) {

  /** The key of the TTFO objective. */
  public static final String TTFO = "ttfo";

  /** The key of the task-time objective of agent sessions. */
  public static final String TASK = "task";

  /** vLLM's objectives alone. */
  public GoodputSpec(Map<Metric, Double> objectivesMs) {
    this(objectivesMs, null, null);
  }

  /** Per-request objectives, TTFO's too. */
  public GoodputSpec(Map<Metric, Double> objectivesMs, Double ttfoMs) {
    this(objectivesMs, ttfoMs, null);
  }

  /**
   * What goodput counts of a level: good requests of all, or, with a task objective, good sessions
   * of all.
   */
  public record Count(long good, long of) {}

  /** The gate setting that holds the objectives: {@code -Dgate.goodput}. */
  public static final String KEY = "goodput";

  /**
   * The metrics an objective may name, as in vLLM's {@code --goodput}: ITL has none per request.
   */
  public static final List<Metric> METRICS = Metric.PER_REQUEST;

  /** The objectives' form, for messages: {@code ttft:MS tpot:MS e2el:MS ttfo:MS}. */
  public static final String PLACEHOLDER =
      METRICS.stream().map(m -> m.key() + ":MS").collect(Collectors.joining(" "))
          + " "
          + TTFO
          + ":MS "
          + TASK
          + ":MS";

  public GoodputSpec {
    if (!METRICS.containsAll(objectivesMs.keySet())) {
      throw new IllegalArgumentException(
          "goodput objectives are on " + METRICS + " only: " + objectivesMs.keySet());
    }
    objectivesMs = Collections.unmodifiableMap(new LinkedHashMap<>(objectivesMs));
  }

  /**
   * The objectives as {@link #toString()} writes them ({@code ttft:500 tpot:50}), e.g. from a
   * summary's {@code goodput_objectives}.
   */
  public static GoodputSpec parse(String value) {
    return parse(value, KEY);
  }

  static GoodputSpec parse(String value, String name) {
    Map<Metric, Double> objectives = new LinkedHashMap<>();
    Double ttfo = null;
    Double task = null;
    String accepted =
        "objectives like "
            + example()
            + " (ms; also "
            + TTFO
            + ":MS, and "
            + TASK
            + ":MS for agent sessions), separated by spaces";
    for (String part : value.trim().split("\\s+")) {
      String[] kv = part.split(":", 2);
      boolean isTtfo = kv.length == 2 && kv[0].equals(TTFO);
      boolean isTask = kv.length == 2 && kv[0].equals(TASK);
      Optional<Metric> metric =
          kv.length == 2 ? Metric.of(kv[0]).filter(METRICS::contains) : Optional.empty();
      if (metric.isEmpty() && !isTtfo && !isTask) {
        throw new IllegalArgumentException(
            "Invalid gate " + name + "=" + value + ": expected " + accepted);
      }
      try {
        double ms = Double.parseDouble(kv[1]);
        if (ms <= 0 || !Double.isFinite(ms)) {
          throw new NumberFormatException();
        }
        if (isTtfo) {
          ttfo = ms;
        } else if (isTask) {
          task = ms;
        } else {
          objectives.put(metric.get(), ms);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Invalid gate " + name + "=" + value + ": expected " + accepted);
      }
    }
    return new GoodputSpec(objectives, ttfo, task);
  }

  /** The objectives of the messages' example: {@code ttft:500 tpot:50 e2el:2000}. */
  private static GoodputSpec example() {
    Map<Metric, Double> m = new LinkedHashMap<>();
    m.put(Metric.TTFT, 500.0);
    m.put(Metric.TPOT, 50.0);
    m.put(Metric.E2EL, 2000.0);
    return new GoodputSpec(m);
  }

  /**
   * Per-request objectives from service-level objectives over a load ({@code ttft.p99 -> 2000}):
   * for each of TTFT, TPOT and E2EL, the limit of its highest statistic named (the highest
   * percentile, the median, then the mean); an objective on P99 TTFT of 2000 ms asks each request
   * for 2000 ms. ITL and failures have no per-request objective here, as in vLLM's {@code
   * --goodput}.
   */
  public static GoodputSpec perRequest(Map<SloFigure, Double> slo) {
    Map<Metric, Double> objectives = new LinkedHashMap<>();
    for (Metric metric : METRICS) {
      double highest = Double.NEGATIVE_INFINITY;
      for (Map.Entry<SloFigure, Double> o : slo.entrySet()) {
        if (o.getKey() instanceof LatencyFigure f && f.metric() == metric) {
          double rank = rank(f.statistic());
          if (rank > highest) {
            highest = rank;
            objectives.put(metric, o.getValue());
          }
        }
      }
    }
    return new GoodputSpec(objectives);
  }

  /** A statistic's place among those of a load, the highest last: the mean, then by percentile. */
  private static double rank(Statistic s) {
    return s.equals(Statistic.MEAN) ? -1 : s.percentile();
  }

  /** Whether a request meets every objective (failed requests never do). */
  public boolean good(RequestRecord r) {
    if (!r.ok()) {
      return false;
    }
    for (Map.Entry<Metric, Double> o : objectivesMs.entrySet()) {
      Double v =
          switch (o.getKey()) {
            case TTFT -> r.ttftMs();
            case TPOT -> r.tpotMs();
            case E2EL -> r.e2elMs();
            case ITL -> throw new IllegalStateException("no per-request ITL objective");
          };
      // a 1-token output has no TPOT: vLLM counts it as meeting a TPOT objective
      if (v != null && v > o.getValue()) {
        return false;
      }
    }
    if (ttfoMs != null) {
      // no answer token after its thinking: no output in time
      Double ttfo = r.reasoning() == null ? r.ttftMs() : r.reasoning().ttfoMs();
      if (ttfo == null || ttfo > ttfoMs) {
        return false;
      }
    }
    return true;
  }

  /** Good requests among {@code records}. */
  public long goodCount(Collection<RequestRecord> records) {
    return records.stream().filter(this::good).count();
  }

  /**
   * A level's good requests of all, or with a task objective its good sessions of all (a session's
   * requests must each be good, its task within the objective).
   */
  public Count count(Collection<RequestRecord> records) {
    if (taskMs == null) {
      return new Count(goodCount(records), records.size());
    }
    Map<String, Boolean> everyGood = new HashMap<>();
    for (RequestRecord r : records) {
      if (r.origin() != null && r.origin().sessionPlace() != null) {
        everyGood.merge(r.origin().sessionPlace().session(), good(r), Boolean::logicalAnd);
      }
    }
    List<SessionFigures.Task> tasks = SessionFigures.tasks(records);
    long good =
        tasks.stream()
            .filter(t -> t.completed() && t.taskMs() <= taskMs && everyGood.get(t.session()))
            .count();
    return new Count(good, tasks.size());
  }

  private static String plain(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    objectivesMs.forEach(
        (k, v) ->
            sb.append(sb.length() == 0 ? "" : " ")
                .append(k.key())
                .append(':')
                .append(v == Math.rint(v) ? String.valueOf(v.longValue()) : String.valueOf(v)));
    if (ttfoMs != null) {
      sb.append(sb.length() == 0 ? "" : " ").append(TTFO).append(':').append(plain(ttfoMs));
    }
    if (taskMs != null) {
      sb.append(sb.length() == 0 ? "" : " ").append(TASK).append(':').append(plain(taskMs));
    }
    return sb.length() == 0 ? "completion (no latency objective)" : sb.toString();
  }
}
