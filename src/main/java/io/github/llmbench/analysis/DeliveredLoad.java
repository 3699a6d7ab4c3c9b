package io.github.llmbench.analysis;

import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.SlotIdle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The load the client really delivered against the load asked for. Closed model: the time-weighted
 * requests in flight over the steady window (else the level) against C, how long a user waited on
 * average between finishing a request and sending its next (Little's law: the window's idle
 * user-time over its requests), and those waits as the client measured them, request by request
 * ({@link SlotIdle}: from the end of a user's request to its next one's t0), over the requests sent
 * in the window. Open model: the sends against the arrival schedule the run drew (the same gaps,
 * from the run's seed): the achieved rate against the schedule's, each send's lateness (the i-th
 * send against the i-th arrival, both from the first), and E2EL with that wait added, which a
 * capped client ({@code -Dmax.conc}) would otherwise hide (coordinated omission). Pure.
 *
 * @param kind closed, open, or none (a trace, a level without a schedule)
 * @param asked C, or the schedule's arrivals per second
 * @param delivered the mean in flight, or the sends per second
 * @param userWaitMs closed: the mean wait of a user between its requests (NaN when unknown)
 * @param sendLateness open: how late each send was against its arrival, in ms (empty otherwise)
 * @param e2elWithWait open: each completed request's E2EL plus its send's lateness (empty
 *     otherwise)
 * @param clientQueue open with {@code -Dmax.conc}: each request's wait for a free slot (empty
 *     otherwise)
 * @param slotIdle closed: each request's slot idle time before it was sent, in ms (empty when the
 *     records have none)
 */
public record DeliveredLoad(
    Kind kind,
    double asked,
    double delivered,
    double userWaitMs,
    LatencyStats sendLateness,
    LatencyStats e2elWithWait,
    LatencyStats clientQueue,
    LatencyStats slotIdle) {

  /** A delivered load this far below the asked one (in %) gets a guard line. */
  public static final double SHORTFALL_PCT = 3.0;

  public enum Kind {
    CLOSED,
    OPEN,
    NONE
  }

  public static final DeliveredLoad NONE =
      new DeliveredLoad(
          Kind.NONE,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          LatencyStats.EMPTY,
          LatencyStats.EMPTY,
          LatencyStats.EMPTY,
          LatencyStats.EMPTY);

  /** Delivered as a share of asked, in %. */
  public double pct() {
    return asked > 0 ? 100.0 * delivered / asked : Double.NaN;
  }

  /** A closed level of {@code conc} users. */
  public static DeliveredLoad closed(int conc, SteadyState steady, List<RequestRecord> records) {
    if (records.isEmpty() || conc < 1) {
      return NONE;
    }
    if (steady.reached() && steady.windowS() > 0) {
      double windowMs = steady.windowS() * 1000;
      double wait =
          steady.completedInWindow() > 0
              ? Math.max(0, conc - steady.meanInFlight()) * windowMs / steady.completedInWindow()
              : Double.NaN;
      return new DeliveredLoad(
          Kind.CLOSED,
          conc,
          steady.meanInFlight(),
          wait,
          LatencyStats.EMPTY,
          LatencyStats.EMPTY,
          LatencyStats.EMPTY,
          slotIdle(records, steady.windowStartMs(), steady.windowEndMs()));
    }
    return new DeliveredLoad(
        Kind.CLOSED,
        conc,
        ServingMetricsCalculator.meanInFlight(records),
        Double.NaN,
        LatencyStats.EMPTY,
        LatencyStats.EMPTY,
        LatencyStats.EMPTY,
        slotIdle(records, Long.MIN_VALUE, Long.MAX_VALUE));
  }

  /** The slot idle times, in ms, of the requests sent in {@code [fromMs, toMs)}. */
  private static LatencyStats slotIdle(List<RequestRecord> records, long fromMs, long toMs) {
    List<Double> idle = new ArrayList<>();
    for (RequestRecord r : records) {
      long micros = SlotIdle.micros(r);
      if (micros != RequestRecord.ABSENT && r.startMs() >= fromMs && r.startMs() < toMs) {
        idle.add(micros / 1000.0);
      }
    }
    return LatencyStats.of(idle);
  }

  /**
   * An open level against its schedule.
   *
   * @param arrivalsS the schedule: each arrival's time from the level's start, in s, ascending
   */
  public static DeliveredLoad open(double[] arrivalsS, List<RequestRecord> records) {
    List<RequestRecord> sent = new ArrayList<>(records);
    sent.sort(Comparator.comparingLong(RequestRecord::startMs));
    int n = Math.min(sent.size(), arrivalsS.length);
    if (n < 2 || arrivalsS[n - 1] <= arrivalsS[0]) {
      return NONE;
    }
    long s0 = sent.get(0).startMs();
    double spanSent = (sent.get(n - 1).startMs() - s0) / 1000.0;
    double spanAsked = arrivalsS[n - 1] - arrivalsS[0];
    List<Double> late = new ArrayList<>(n);
    List<Double> withWait = new ArrayList<>(n);
    List<Double> queued = new ArrayList<>();
    for (RequestRecord r : records) {
      Double q = r.origin() == null ? null : r.origin().clientQueueMs();
      if (q != null) {
        queued.add(q);
      }
    }
    for (int i = 0; i < n; i++) {
      RequestRecord r = sent.get(i);
      double lateMs = Math.max(0, (r.startMs() - s0) - (arrivalsS[i] - arrivalsS[0]) * 1000);
      late.add(lateMs);
      if (r.ok() && r.e2elMs() != null) {
        withWait.add(lateMs + r.e2elMs());
      }
    }
    return new DeliveredLoad(
        Kind.OPEN,
        (n - 1) / spanAsked,
        spanSent > 0 ? (n - 1) / spanSent : Double.NaN,
        Double.NaN,
        LatencyStats.of(late),
        LatencyStats.of(withWait),
        LatencyStats.of(queued),
        LatencyStats.EMPTY);
  }

  /** The guard line when the delivered load fell short of the asked one, else null. */
  public String guard(String level) {
    if (kind == Kind.NONE || !(pct() < 100 - SHORTFALL_PCT)) {
      return null;
    }
    if (kind == Kind.CLOSED) {
      return String.format(
          Locale.ROOT,
          "the client delivered %.1f%% of the asked load at %s: %.2f of %.0f requests in flight on"
              + " average%s%s; the figures are those of the lighter load",
          pct(),
          level,
          delivered,
          asked,
          Double.isNaN(userWaitMs)
              ? " (no steady window)"
              : String.format(Locale.ROOT, ", users waited %.1f ms between requests", userWaitMs),
          slotIdle.count() == 0
              ? ""
              : String.format(
                  Locale.ROOT, " (slot idle p99 %.1f ms)", slotIdle.value(Statistic.P99)));
    }
    return String.format(
        Locale.ROOT,
        "the client delivered %.1f%% of the asked arrivals at %s: %.2f of %.2f requests/s, its"
            + " sends late by %.0f ms at the median and %.0f ms at p99; latencies leave that wait"
            + " out (coordinated omission): E2EL with it, p99 %.0f ms",
        pct(),
        level,
        delivered,
        asked,
        sendLateness.median(),
        sendLateness.value(Statistic.P99),
        e2elWithWait.value(Statistic.P99));
  }
}
