package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Whether TTFT grows without bound inside one level: the sign of an over-saturated server whose
 * queue keeps growing (a healthy closed loop settles to a flat TTFT once the first wave is served).
 *
 * <p>Over the completed requests started in the steady window, in start order, leaving out the
 * first C (the first wave, which all start together and queue for prefill by construction): an
 * ordinary least-squares line of TTFT (ms) against start time (s). TTFT is <b>growing</b> when the
 * slope is positive with 95% confidence (slope - 1.96 x standard error &gt; 0) and the fitted rise
 * over the span is at least {@value #MIN_RISE_MS} ms and at least half of the fitted TTFT at the
 * span's start. Not evaluated with fewer than {@value #MIN_POINTS} requests.
 *
 * @param evaluated whether there were enough requests to tell
 * @param points requests the line was fitted on
 * @param slopeMsPerS fitted TTFT growth, ms per second of the level
 * @param slopeStdErr standard error of the slope
 * @param startTtftMs fitted TTFT at the first request's start
 * @param riseMs fitted TTFT rise from the first to the last request's start
 * @param growing the verdict (false when not evaluated)
 */
public record TtftTrend(
    boolean evaluated,
    int points,
    double slopeMsPerS,
    double slopeStdErr,
    double startTtftMs,
    double riseMs,
    boolean growing) {

  public static final int MIN_POINTS = 20;
  public static final double MIN_RISE_MS = 50.0;

  public static final TtftTrend NOT_EVALUATED = new TtftTrend(false, 0, 0, 0, 0, 0, false);

  /**
   * The trend of the requests' TTFT.
   *
   * @param startedOkInWindow completed requests started in the steady window
   * @param firstWave how many of the earliest requests to leave out (the level's concurrency)
   */
  public static TtftTrend of(Collection<RequestRecord> startedOkInWindow, int firstWave) {
    List<RequestRecord> rs = new ArrayList<>();
    for (RequestRecord r : startedOkInWindow) {
      if (r.ttftMs() != null) {
        rs.add(r);
      }
    }
    rs.sort(Comparator.comparingLong(RequestRecord::startMs));
    List<RequestRecord> used = rs.subList(Math.min(rs.size(), Math.max(0, firstWave)), rs.size());
    int n = used.size();
    if (n < MIN_POINTS) {
      return new TtftTrend(false, n, 0, 0, 0, 0, false);
    }
    long t0 = used.get(0).startMs();
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = (used.get(i).startMs() - t0) / 1000.0;
      y[i] = used.get(i).ttftMs();
    }
    LinearFit fit = LinearFit.of(x, y);
    if (fit.sxx() <= 0) {
      return new TtftTrend(false, n, 0, 0, fit.meanY(), 0, false);
    }
    double slope = fit.slope();
    double intercept = fit.intercept();
    double se = fit.slopeStandardError(n);
    double span = x[n - 1] - x[0];
    double rise = slope * span;
    boolean growing =
        slope - 1.96 * se > 0 && rise >= MIN_RISE_MS && rise >= 0.5 * Math.max(intercept, 0.0);
    return new TtftTrend(true, n, slope, se, intercept, rise, growing);
  }
}
