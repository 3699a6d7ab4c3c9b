package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * How late a trace replay sent its requests: each request's send (its prompt built, just before the
 * HTTP client) against its time in the trace, both from the replay's start. The start is taken as
 * the most punctual request's (the smallest send minus trace time), not as the first request's
 * send: the first user of a run pays one-time costs that would make every later request look early.
 * A replay whose every request was equally late thus reads 0: the figure is the replay's pacing.
 * Pure; empty for records without a trace time and a send time.
 *
 * @param requests requests with both times
 * @param medianMs median lateness
 * @param p99Ms 99th percentile
 * @param maxMs the latest
 */
public record TraceLateness(int requests, double medianMs, double p99Ms, double maxMs) {

  public static final TraceLateness NONE = new TraceLateness(0, Double.NaN, Double.NaN, Double.NaN);

  public boolean isEmpty() {
    return requests == 0;
  }

  public static TraceLateness of(List<RequestRecord> records) {
    List<Double> offsets = new ArrayList<>();
    double start = Double.POSITIVE_INFINITY;
    for (RequestRecord r : records) {
      if (r.origin() != null && r.origin().sentMs() != null && r.origin().traceMs() != null) {
        double offset = r.origin().sentMs() - r.origin().traceMs();
        offsets.add(offset);
        start = Math.min(start, offset);
      }
    }
    if (offsets.isEmpty()) {
      return NONE;
    }
    List<Double> late = new ArrayList<>(offsets.size());
    for (double o : offsets) {
      late.add(o - start);
    }
    return new TraceLateness(
        late.size(),
        Percentiles.percentile(late, 50),
        Percentiles.percentile(late, 99),
        late.stream().mapToDouble(Double::doubleValue).max().orElse(0));
  }
}
