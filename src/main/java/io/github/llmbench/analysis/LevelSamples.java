package io.github.llmbench.analysis;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What a level's figures can be judged on ({@link Verdicts}): per figure its value in each trial
 * ({@code -Dtrials}), or, for a level that ran once, its one value with the interval over the
 * level's own requests (within-run only). Figures a gate or a comparison may name: each latency
 * figure (TTFT, TPOT, E2EL; ITL across trials only, its within-run values being every chunk gap),
 * the output throughput and the steady window's. A figure that is not positive in some trial (no
 * request completed, no steady window) has none.
 *
 * @param figures by the figure's field in {@code summary.json} ({@code p99_tpot_ms}, {@link
 *     #OUTPUT_THROUGHPUT}, {@link #STEADY_OUTPUT_THROUGHPUT})
 */
public record LevelSamples(Map<String, TrialValues> figures) {

  /** The level's output tok/s. */
  public static final String OUTPUT_THROUGHPUT = "output_throughput";

  /** The steady window's output tok/s. */
  public static final String STEADY_OUTPUT_THROUGHPUT = "steady_output_throughput";

  /** The confidence of the within-run intervals a one-trial level carries. */
  public static final double CONFIDENCE = 0.95;

  public static final LevelSamples NONE = new LevelSamples(Map.of());

  public LevelSamples {
    figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
  }

  /** The figure's samples, or null when it has none. */
  public TrialValues get(String field) {
    return figures.get(field);
  }

  /** The latency figure's samples, or null. */
  public TrialValues get(LatencyFigure figure) {
    return figures.get(figure.summaryField());
  }

  /** The trials' figures of a level that ran several times. */
  public static LevelSamples ofTrials(Trials trials) {
    if (trials.isEmpty()) {
      return NONE;
    }
    Map<String, TrialValues> out = new LinkedHashMap<>();
    // every trial holds the same statistics: the first one's
    for (LatencyFigure f : trials.trials().get(0).serving().figures()) {
      put(out, f.summaryField(), trials, t -> t.serving().latency(f.metric()).value(f.statistic()));
    }
    put(out, OUTPUT_THROUGHPUT, trials, t -> t.serving().outputThroughput());
    put(
        out,
        STEADY_OUTPUT_THROUGHPUT,
        trials,
        t -> t.steady().reached() ? t.steady().outputThroughput() : Double.NaN);
    return new LevelSamples(out);
  }

  /**
   * A level that ran once: each latency figure with its interval over the level's completed
   * requests (the mean's from time-block means, {@link Intervals#batchMean}; a percentile's
   * distribution-free one, shown but not judged on, as it takes the requests as independent), the
   * throughputs without one.
   */
  public static LevelSamples ofOneRun(
      List<RequestRecord> levelRecords, ServingMetrics serving, SteadyState steady) {
    Map<String, TrialValues> out = new LinkedHashMap<>();
    // in the order they finished: the mean's interval is made of time blocks
    List<RequestRecord> ok =
        levelRecords.stream()
            .filter(RequestRecord::ok)
            .sorted(Comparator.comparingLong(RequestRecord::endMs))
            .toList();
    Map<Metric, Function<RequestRecord, Double>> of =
        Map.of(
            Metric.TTFT, RequestRecord::ttftMs,
            Metric.TPOT, RequestRecord::tpotMs,
            Metric.E2EL, RequestRecord::e2elMs);
    for (LatencyFigure f : serving.figures()) {
      double value = serving.latency(f.metric()).value(f.statistic());
      if (!(value > 0) || Double.isInfinite(value)) {
        continue;
      }
      Interval within = null;
      if (of.containsKey(f.metric())) {
        double[] values =
            ok.stream()
                .map(of.get(f.metric()))
                .filter(v -> v != null)
                .mapToDouble(v -> v)
                .toArray();
        within =
            f.statistic().equals(Statistic.MEAN)
                ? Intervals.batchMean(values, CONFIDENCE)
                : Intervals.percentile(values, f.statistic().percentile() / 100, CONFIDENCE);
      }
      out.put(f.summaryField(), TrialValues.single(value, within));
    }
    single(out, OUTPUT_THROUGHPUT, serving.outputThroughput());
    single(out, STEADY_OUTPUT_THROUGHPUT, steady.reached() ? steady.outputThroughput() : 0);
    return new LevelSamples(out);
  }

  /** Puts the one value with its interval (or null), where the value can be judged. */
  public static void putSingle(
      Map<String, TrialValues> out, String field, double value, Interval within) {
    if (value > 0 && Double.isFinite(value)) {
      out.put(field, TrialValues.single(value, within));
    }
  }

  /** Puts the trials' values, where every one of them can be judged. */
  public static void putTrials(Map<String, TrialValues> out, String field, double[] values) {
    for (double v : values) {
      if (!(v > 0) || Double.isInfinite(v)) {
        return;
      }
    }
    out.put(field, TrialValues.of(values));
  }

  private static void single(Map<String, TrialValues> out, String field, double value) {
    putSingle(out, field, value, null);
  }

  private static void put(
      Map<String, TrialValues> out,
      String field,
      Trials trials,
      ToDoubleFunction<Trials.Trial> figure) {
    putTrials(out, field, trials.trials().stream().mapToDouble(figure).toArray());
  }
}
