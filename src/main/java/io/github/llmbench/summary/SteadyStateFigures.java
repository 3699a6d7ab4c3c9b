package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.analysis.TtftTrend;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.endpoints.Figures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A level's steady window ({@link SteadyState}): where it lies, what it held, its throughputs and
 * latencies ({@code mean_ttft_ms}, every TPOT statistic), and whether TTFT grew inside it.
 *
 * @param reached whether in flight stayed at the threshold long enough; without, the window's
 *     figures are not the level's steady ones
 * @param latency the window's latency fields; read with {@link #latency(LatencyFigure)}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SteadyStateFigures(
    int concurrency,
    boolean concurrencyObserved,
    int threshold,
    boolean reached,
    double windowStartS,
    double windowEndS,
    double windowS,
    int observedPeakConcurrency,
    int requests,
    int startedInWindow,
    int completedInWindow,
    double requestThroughput,
    double outputThroughput,
    double inputThroughput,
    double totalTokenThroughput,
    double meanInFlight,
    double meanContextTokens,
    double meanPromptTokens,
    Trend ttftTrend,
    @JsonIgnore Map<String, Double> latency) {

  public SteadyStateFigures {
    latency = LatencyFields.copy(latency);
  }

  /**
   * Whether TTFT grew inside the window (a queue building up).
   *
   * @param evaluated whether the window held enough points to tell
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Trend(
      boolean evaluated,
      int points,
      double slopeMsPerS,
      double slopeStdErr,
      double riseMs,
      boolean growing) {

    static Trend of(TtftTrend t) {
      return new Trend(
          t.evaluated(), t.points(), t.slopeMsPerS(), t.slopeStdErr(), t.riseMs(), t.growing());
    }
  }

  public static SteadyStateFigures of(SteadyState s) {
    return of(s, ReportedPercentiles.DEFAULT);
  }

  /**
   * The window's figures: TTFT's mean, median, P99, P90 and TPOT's standard statistics, as always
   * (baselines and comparisons read them), then each other percentile {@code -Dpercentiles} asked
   * for.
   */
  public static SteadyStateFigures of(SteadyState s, ReportedPercentiles percentiles) {
    return of(s, percentiles, Figures.GENERATED);
  }

  /**
   * As {@link #of(SteadyState, ReportedPercentiles)}; a level whose requests generate nothing
   * (embeddings) has no latency fields.
   */
  public static SteadyStateFigures of(
      SteadyState s, ReportedPercentiles percentiles, Figures figures) {
    Map<String, Double> latency = new LinkedHashMap<>();
    if (figures.generates()) {
      putLatency(latency, s, percentiles);
    }
    return new SteadyStateFigures(
        s.concurrency(),
        s.concurrencyObserved(),
        s.threshold(),
        s.reached(),
        s.windowStartS(),
        s.windowEndS(),
        s.windowS(),
        s.observedPeak(),
        s.requests(),
        s.startedInWindow(),
        s.completedInWindow(),
        s.requestThroughput(),
        s.outputThroughput(),
        s.inputThroughput(),
        s.totalThroughput(),
        s.meanInFlight(),
        s.meanContextTokens(),
        s.meanPromptTokens(),
        Trend.of(s.ttftTrend()),
        latency);
  }

  private static void putLatency(
      Map<String, Double> latency, SteadyState s, ReportedPercentiles percentiles) {
    LatencyFields.put(
        latency,
        Metric.TTFT,
        s.ttft(),
        withShown(
            List.of(Statistic.MEAN, Statistic.MEDIAN, Statistic.P99, Statistic.P90), percentiles));
    LatencyFields.put(latency, Metric.TPOT, s.tpot(), withShown(Statistic.STANDARD, percentiles));
  }

  private static List<Statistic> withShown(List<Statistic> own, ReportedPercentiles percentiles) {
    List<Statistic> out = new ArrayList<>(own);
    percentiles.rows(own).stream().filter(st -> !out.contains(st)).forEach(out::add);
    return out;
  }

  /** A latency figure of the window; NaN when it does not have it. */
  public double latency(LatencyFigure figure) {
    return LatencyFields.get(latency, figure);
  }

  @JsonAnyGetter
  Map<String, Double> latencyFields() {
    return LatencyFields.view(latency);
  }

  @JsonAnySetter
  void latencyField(String field, Object value) {
    LatencyFields.accept(latency, field, value);
  }
}
