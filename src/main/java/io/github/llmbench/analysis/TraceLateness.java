package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * How late a trace replay sent its requests: each request's send time against the trace's,
 * both counted from the trace's first request (so the figure is the replay's own pacing error,
 * whatever the run's start cost). Sends are whole ms in the records, so figures are within 1 ms.
 * Pure; empty for records without a trace time.
 *
 * @param requests requests with a trace time
 * @param medianMs median lateness (negative: early)
 * @param p99Ms 99th percentile
 * @param maxMs the latest
 */
public record TraceLateness(int requests, double medianMs, double p99Ms, double maxMs) {

  public static final TraceLateness NONE = new TraceLateness(0, Double.NaN, Double.NaN, Double.NaN);

  public boolean isEmpty() {
    return requests == 0;
  }

  public static TraceLateness of(List<RequestRecord> records) {
    RequestRecord first = null;
    for (RequestRecord r : records) {
      if (r.origin() != null && r.origin().traceMs() != null
          && (first == null || r.origin().traceMicros() < first.origin().traceMicros())) {
        first = r;
      }
    }
    if (first == null) {
      return NONE;
    }
    List<Double> late = new ArrayList<>();
    double max = Double.NEGATIVE_INFINITY;
    for (RequestRecord r : records) {
      if (r.origin() != null && r.origin().traceMs() != null) {
        double l = (r.startMs() - first.startMs()) - (r.origin().traceMs() - first.origin().traceMs());
        late.add(l);
        max = Math.max(max, l);
      }
    }
    return new TraceLateness(late.size(), Percentiles.percentile(late, 50), Percentiles.percentile(late, 99), max);
  }
}
