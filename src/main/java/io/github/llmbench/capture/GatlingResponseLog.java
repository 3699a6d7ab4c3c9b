package io.github.llmbench.capture;

import io.gatling.core.session.Session;
import io.github.llmbench.core.Metric;
import io.github.llmbench.records.RequestRecord;
import java.util.Set;

/**
 * A request's records in Gatling's stats, in its group (the level): one {@value
 * StreamCapture#REQUEST_RECORD} per stream, so Gatling counts streams: a completed one from t0 for
 * its E2EL, a failed one from t0 to its end, KO with the reason (Gatling's error table and failure
 * counts read it); none for a request the client cancelled on purpose, neither OK nor KO. Asked for
 * ({@code -Dstats.records}), also TTFT and TPOT records of a completed stream, and one ITL record
 * per gap. Gatling's records are whole milliseconds; {@code requests.jsonl} keeps microseconds.
 */
final class GatlingResponseLog implements RequestEndJob {
  private final boolean ttftRecords;
  private final boolean tpotRecords;
  private final boolean itlRecords;

  /**
   * @param metrics the latencies Gatling's stats get: E2EL is the request's own record, always
   *     there
   */
  GatlingResponseLog(Set<Metric> metrics) {
    this.ttftRecords = metrics.contains(Metric.TTFT);
    this.tpotRecords = metrics.contains(Metric.TPOT);
    this.itlRecords = metrics.contains(Metric.ITL);
  }

  @Override
  public void done(Ended ended) {
    RequestRecord r = ended.record();
    if (r.ok()) {
      logCompleted(ended.stats(), ended.session(), r, ended.stream());
    } else if (!r.cancelled()) {
      ended
          .stats()
          .ko(ended.session(), StreamCapture.REQUEST_RECORD, r.startMs(), endMs(r), r.error());
    }
  }

  /**
   * A completed request's Gatling records: its own, from t0 for its E2EL (whole ms, truncated, so
   * Gatling's response time is the kit's E2EL rather than the end of the response's last read), and
   * those asked for: TTFT, TPOT and each ITL.
   */
  void logCompleted(GatlingStats stats, Session session, RequestRecord r, ParsedStream stream) {
    long start = r.startMs();
    stats.ok(session, StreamCapture.REQUEST_RECORD, start, endMs(r));
    long first = start + Math.round(r.ttftMs());
    if (ttftRecords) {
      stats.ok(session, recordName(Metric.TTFT), start, first);
    }
    if (tpotRecords && r.tpotMs() != null) {
      stats.ok(session, recordName(Metric.TPOT), first, first + Math.round(r.tpotMs()));
    }
    if (itlRecords) {
      long[] arrivals = stream.textArrivalNanos();
      String itl = recordName(Metric.ITL);
      for (int i = 1; i < stream.textCount(); i++) {
        long from = ClockAnchor.epochMs(arrivals[i - 1]);
        stats.ok(session, itl, from, from + Math.round((arrivals[i] - arrivals[i - 1]) / 1e6));
      }
    }
  }

  /**
   * The name of a latency's Gatling record in the request's group: E2EL is the request's own record
   * ({@value StreamCapture#REQUEST_RECORD}), the others are named as vLLM abbreviates them ({@code
   * TTFT}).
   */
  static String recordName(Metric metric) {
    return metric == Metric.E2EL ? StreamCapture.REQUEST_RECORD : metric.name();
  }

  /**
   * The end of a request's own Gatling record (from its start): t0 plus its E2EL (whole ms,
   * truncated) when completed, its end when failed.
   */
  static long endMs(RequestRecord r) {
    return r.ok() ? r.startMs() + r.e2elMs().longValue() : r.endMs();
  }

  /**
   * The user's session with a request's Gatling record timed into its groups (the level's, and the
   * profile's), as Gatling's own HTTP requests do, so a level's group rows in Gatling's report read
   * the requests' E2EL; unchanged for a request with no Gatling record (cancelled, or not
   * recorded).
   */
  static Session timedInGroups(Session session, RequestRecord r) {
    return r == null || r.cancelled()
        ? session
        : GatlingStats.timedInGroups(session, r.startMs(), endMs(r));
  }
}
