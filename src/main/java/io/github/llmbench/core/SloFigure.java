package io.github.llmbench.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a service-level objective over a level may bound ({@code -Dslo=ttft.p99:2000,failed.pct:1}):
 * a latency figure, or the share of the level's requests that failed. A bigger value is worse for
 * each, so an objective is an upper limit.
 */
public sealed interface SloFigure permits LatencyFigure, SloFigure.FailedPct {

  /** The failed requests' share of a level's, in percent. */
  FailedPct FAILED_PCT = new FailedPct();

  /** Every figure: the latency figures in their order, then {@link #FAILED_PCT}. */
  List<SloFigure> ALL = all();

  /** As written in settings and gates: {@code ttft.p99}, {@code failed.pct}. */
  String key();

  /** The figure named {@code key}, or empty. */
  static Optional<SloFigure> parse(String key) {
    return key.equals(FAILED_PCT.key())
        ? Optional.of(FAILED_PCT)
        : LatencyFigure.parse(key).map(f -> f);
  }

  /**
   * The accepted names, for error messages: {@code ttft|tpot|itl|e2el . mean|median|pN (...), or
   * failed.pct}.
   */
  static String accepted() {
    return String.join("|", Arrays.stream(Metric.values()).map(Metric::key).toList())
        + " . mean|median|pN (N a percentile above 0 and below 100: p90, p99, p99.9), or "
        + FAILED_PCT.key();
  }

  private static List<SloFigure> all() {
    List<SloFigure> all = new ArrayList<>(LatencyFigure.ALL);
    all.add(FAILED_PCT);
    return List.copyOf(all);
  }

  /** The failed requests' share of a level's, in percent (a level with none measured has none). */
  record FailedPct() implements SloFigure {
    @Override
    public String key() {
      return "failed.pct";
    }

    @Override
    public String toString() {
      return key();
    }
  }
}
