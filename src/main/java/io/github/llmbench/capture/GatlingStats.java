package io.github.llmbench.capture;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import scala.Option;

/**
 * Writes the kit's records into Gatling's stats (one per stream, and the latency records asked
 * for), so they appear in Gatling's report with percentiles and Gatling assertions can gate on
 * them, and a stream's time into its user's groups, as Gatling's own requests do.
 *
 * <p>Uses Gatling's internal {@code StatsEngine.logResponse} and {@code
 * Session.logGroupRequestTimings} (gatling-core 3.15.1), reached from a custom action; kept in this
 * one class so an upgrade breaks in one place ({@code GatlingStatsTest}).
 */
final class GatlingStats {
  private final StatsEngine engine;

  GatlingStats(StatsEngine engine) {
    this.engine = engine;
  }

  /**
   * The session with {@code [startMs, endMs]} added to the cumulated response time of each group it
   * is in. Gatling's group rows (stats table, ranges, percentiles) show that sum, not the group's
   * duration: without it a level's group reads 0 ms everywhere. Only a stream's own record is
   * added, not its TTFT, TPOT or ITL records (parts of the same time).
   */
  static Session timedInGroups(Session session, long startMs, long endMs) {
    return session.logGroupRequestTimings(startMs, endMs);
  }

  void ok(Session session, String name, long startMs, long endMs) {
    engine.logResponse(
        session.scenario(),
        session.groups(),
        name,
        startMs,
        endMs,
        OK$.MODULE$,
        Option.empty(),
        Option.empty());
  }

  /** A request that could not even be built: Gatling's own way to show a crashed request. */
  void crash(Session session, String name, String message) {
    engine.logRequestCrash(session.scenario(), session.groups(), name, message);
  }

  void ko(Session session, String name, long startMs, long endMs, String message) {
    engine.logResponse(
        session.scenario(),
        session.groups(),
        name,
        startMs,
        endMs,
        KO$.MODULE$,
        Option.empty(),
        Option.apply(message));
  }
}
