package io.github.llmbench.gates;

import io.github.llmbench.analysis.ClientHealth;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.summary.LevelGoodput;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.ReasoningFigures;
import io.github.llmbench.summary.ServingFigures;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One level's figures that a gate can name, each under its {@link GateMetric}: from the analysis of
 * this run, or from a baseline run's {@code summary.json}. A figure the level does not have (no
 * request completed, no steady window, no goodput objectives, a figure the server does not report)
 * is NaN, so its gate fails as not measured rather than passes on 0.
 *
 * @param values each figure under its metric, in the order they were put
 * @param samples what the figures with an interval are judged on (the trials' values, or one value
 *     with its within-run interval), by metric; empty for figures judged on their value alone
 */
public record LevelFigures(Map<GateMetric, Double> values, Map<GateMetric, TrialValues> samples) {
  public static final LevelFigures NONE = new LevelFigures(Map.of());

  public LevelFigures {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    samples = Collections.unmodifiableMap(new LinkedHashMap<>(samples));
  }

  /** Figures judged on their values alone. */
  public LevelFigures(Map<GateMetric, Double> values) {
    this(values, Map.of());
  }

  /** These figures with what they are judged on. */
  LevelFigures withSamples(LevelSamples s) {
    Map<GateMetric, TrialValues> out = new LinkedHashMap<>();
    for (GateMetric m : values.keySet()) {
      if (m instanceof GateMetric.Latency l) {
        putSample(out, m, s.get(l.figure()));
      }
    }
    putSample(out, GateMetric.OUTPUT_THROUGHPUT, s.get(LevelSamples.OUTPUT_THROUGHPUT));
    putSample(
        out, GateMetric.STEADY_OUTPUT_THROUGHPUT, s.get(LevelSamples.STEADY_OUTPUT_THROUGHPUT));
    return new LevelFigures(values, out);
  }

  private static void putSample(Map<GateMetric, TrialValues> out, GateMetric m, TrialValues v) {
    if (v != null) {
      out.put(m, v);
    }
  }

  /** The figure, NaN when the level does not have it. */
  public double get(GateMetric m) {
    Double v = values.get(m);
    return v == null ? Double.NaN : v;
  }

  /**
   * The figures an objective ({@code -Dslo}) may bound: the standard ones, then any other
   * percentile the level has ({@code ttft.p99.9}).
   */
  public Map<SloFigure, Double> slo() {
    Map<SloFigure, Double> f = new LinkedHashMap<>();
    SloFigure.ALL.forEach(s -> f.put(s, get(GateMetric.of(s))));
    values.forEach(
        (m, v) -> {
          if (m instanceof GateMetric.Latency l) {
            f.putIfAbsent(l.figure(), v);
          }
        });
    return f;
  }

  /**
   * A level's figures.
   *
   * @param goodCount requests (or sessions) meeting the goodput objectives, of all; empty without
   *     objectives
   * @param steadyOutputThroughput the steady window's output tok/s, or NaN when unknown
   */
  public static LevelFigures of(
      ServingMetrics m, Optional<GoodputSpec.Count> goodCount, double steadyOutputThroughput) {
    Map<GateMetric, Double> f = new LinkedHashMap<>();
    for (Metric metric : Metric.values()) {
      putLatency(f, metric, m.latency(metric));
    }
    int total = m.completed() + m.failed();
    f.put(GateMetric.FAILED_PCT, total == 0 ? Double.NaN : 100.0 * m.failed() / total);
    f.put(GateMetric.OUTPUT_THROUGHPUT, m.outputThroughput());
    f.put(GateMetric.REQUEST_THROUGHPUT, m.requestThroughput());
    f.put(GateMetric.INPUT_THROUGHPUT, m.inputThroughput());
    f.put(GateMetric.STEADY_OUTPUT_THROUGHPUT, steadyOutputThroughput);
    if (goodCount.isPresent()) {
      long good = goodCount.get().good();
      long of = goodCount.get().of();
      f.put(GateMetric.GOODPUT, m.durationS() > 0 ? good / m.durationS() : Double.NaN);
      f.put(GateMetric.GOODPUT_PCT, of == 0 ? Double.NaN : 100.0 * good / of);
    }
    return new LevelFigures(f);
  }

  /**
   * A level's figures, the server's included.
   *
   * @param goodCount requests (or sessions) meeting the goodput objectives, of all; empty without
   *     objectives
   */
  public static LevelFigures of(RunAnalysis.Level l, Optional<GoodputSpec.Count> goodCount) {
    LevelFigures own =
        of(
            l.serving(),
            goodCount,
            l.steady().reached() ? l.steady().outputThroughput() : Double.NaN);
    Map<GateMetric, Double> f = new LinkedHashMap<>(own.values);
    for (ServerFigure k : ServerFigures.KEYS) {
      f.put(new GateMetric.Server(k), l.server().level().orNaN(k));
    }
    putClient(f, l.client());
    f.put(GateMetric.ENERGY_PER_TOKEN, l.energy().joulesPerOutputToken());
    putTtfo(f, ReasoningFigures.of(l.reasoning()));
    return new LevelFigures(f).withSamples(l.samples());
  }

  /**
   * These figures with a metric's statistics replaced by {@code stats}' (a steady window's, say),
   * where it has values.
   */
  public LevelFigures withLatency(Metric metric, LatencyStats stats) {
    if (stats.count() == 0) {
      return this;
    }
    Map<GateMetric, Double> f = new LinkedHashMap<>(values);
    putLatency(f, metric, stats);
    // the level's samples are not the window's: its figures are judged on their values
    Map<GateMetric, TrialValues> kept = new LinkedHashMap<>(samples);
    kept.keySet().removeIf(m -> m instanceof GateMetric.Latency l && l.figure().metric() == metric);
    return new LevelFigures(f, kept);
  }

  private static void putLatency(Map<GateMetric, Double> f, Metric metric, LatencyStats s) {
    for (Statistic stat : s.statistics()) {
      f.put(
          new GateMetric.Latency(new LatencyFigure(metric, stat)),
          s.count() == 0 ? Double.NaN : s.value(stat));
    }
  }

  /**
   * A level's figures from a {@code summary.json} ({@code levels.c8}), for a baseline run. A
   * latency over no requests reads 0 there, as vLLM writes it.
   */
  public static LevelFigures ofSummary(LevelSummary level) {
    Map<GateMetric, Double> f = new LinkedHashMap<>();
    ServingFigures m = level.figures();
    // the standard figures (NaN when absent), then any other percentile the run wrote
    for (LatencyFigure figure : LatencyFigure.ALL) {
      f.put(new GateMetric.Latency(figure), m.latency(figure));
    }
    for (LatencyFigure figure : m.latencyFigures()) {
      f.putIfAbsent(new GateMetric.Latency(figure), m.latency(figure));
    }
    f.put(GateMetric.FAILED_PCT, m.failedPct());
    f.put(GateMetric.OUTPUT_THROUGHPUT, m.outputThroughput());
    f.put(GateMetric.REQUEST_THROUGHPUT, m.requestThroughput());
    f.put(
        GateMetric.INPUT_THROUGHPUT,
        m.duration() > 0 ? m.totalInputTokens() / m.duration() : Double.NaN);
    // as for this run: no steady figure for a level that never reached its steady window
    f.put(GateMetric.STEADY_OUTPUT_THROUGHPUT, level.steadyOutputThroughput());
    f.put(GateMetric.GOODPUT, orNaN(level.requestGoodput()));
    f.put(GateMetric.GOODPUT_PCT, orNaN(level.goodputPct()));
    for (ServerFigure k : ServerFigures.KEYS) {
      f.put(
          new GateMetric.Server(k),
          level.server() == null ? Double.NaN : level.server().levelFigure(k));
    }
    putClient(f, level.client() == null ? ClientHealth.NONE : level.client().health());
    f.put(
        GateMetric.ENERGY_PER_TOKEN,
        level.energy() == null ? Double.NaN : level.energy().figures().joulesPerOutputToken());
    putTtfo(f, level.reasoning());
    return new LevelFigures(f).withSamples(level.samples());
  }

  private static void putClient(Map<GateMetric, Double> f, ClientHealth client) {
    ClientHealth.Window w = client.judged();
    f.put(GateMetric.CLIENT_LAG_P99, w.measured() ? w.lagP99Ms() : Double.NaN);
    f.put(GateMetric.CLIENT_CPU_MAX, w.measured() ? w.busiestLoopPct() : Double.NaN);
  }

  private static void putTtfo(Map<GateMetric, Double> f, ReasoningFigures r) {
    f.put(GateMetric.TTFO_MEAN, r == null ? Double.NaN : orNaN(r.meanTtfoMs()));
    f.put(GateMetric.TTFO_MEDIAN, r == null ? Double.NaN : orNaN(r.medianTtfoMs()));
    f.put(GateMetric.TTFO_P90, r == null ? Double.NaN : orNaN(r.p90TtfoMs()));
    f.put(GateMetric.TTFO_P99, r == null ? Double.NaN : orNaN(r.p99TtfoMs()));
  }

  /** The goodput, when it was measured (objectives were set). */
  public Optional<LevelGoodput> goodput() {
    return values.containsKey(GateMetric.GOODPUT)
        ? Optional.of(new LevelGoodput(get(GateMetric.GOODPUT), get(GateMetric.GOODPUT_PCT)))
        : Optional.empty();
  }

  private static double orNaN(Double v) {
    return v == null ? Double.NaN : v;
  }
}
