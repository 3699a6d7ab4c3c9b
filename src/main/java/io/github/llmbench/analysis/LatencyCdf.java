package io.github.llmbench.analysis;

import io.github.llmbench.core.Metric;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A latency's distribution over a level's completed requests, as its cumulative curve: the latency
 * at each of {@link #PERCENTS} (every percent, then the tail's 99.5 and 99.9), from an exact
 * histogram of microseconds; ITL's per chunk gap, as vLLM's. A run of one level shows these instead
 * of charts against concurrency of one point each; the page stays small whatever the run's size.
 *
 * @param metric the latency
 * @param count the values it was made of (requests; chunk gaps for ITL)
 * @param points the curve, by percent ascending; empty without values
 */
public record LatencyCdf(Metric metric, long count, List<Point> points) {

  /** The percents the curve has a point at. */
  public static final List<Double> PERCENTS = percents();

  /** A point of the curve: {@code percent} of the values are at or under {@code ms}. */
  public record Point(double percent, double ms) {}

  public LatencyCdf {
    points = List.copyOf(points);
  }

  /** The curve of {@code metric} over the completed (not failed, not cancelled) records. */
  public static LatencyCdf of(Metric metric, Collection<RequestRecord> records) {
    MicrosHistogram h = new MicrosHistogram();
    for (RequestRecord r : records) {
      if (r.ok() && !r.cancelled()) {
        add(h, metric, r);
      }
    }
    if (h.count() == 0) {
      return new LatencyCdf(metric, 0, List.of());
    }
    LatencyStats stats = h.stats(PERCENTS);
    List<Point> points = new ArrayList<>();
    for (double p : PERCENTS) {
      points.add(new Point(p, stats.percentile(p)));
    }
    return new LatencyCdf(metric, h.count(), points);
  }

  public boolean isEmpty() {
    return points.isEmpty();
  }

  private static void add(MicrosHistogram h, Metric metric, RequestRecord r) {
    if (metric == Metric.ITL) {
      h.addAll(r.itlMs());
      return;
    }
    long micros =
        switch (metric) {
          case TTFT -> r.ttftMicros();
          case TPOT -> r.tpotMicros();
          default -> r.e2elMicros();
        };
    if (micros != RequestRecord.ABSENT) {
      h.add(micros);
    }
  }

  private static List<Double> percents() {
    List<Double> out = new ArrayList<>();
    for (int p = 0; p <= 99; p++) {
      out.add((double) p);
    }
    out.add(99.5);
    out.add(99.9);
    out.add(100.0);
    return List.copyOf(out);
  }
}
