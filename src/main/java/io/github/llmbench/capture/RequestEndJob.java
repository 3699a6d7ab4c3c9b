package io.github.llmbench.capture;

import io.gatling.core.session.Session;
import io.github.llmbench.records.RequestRecord;

/**
 * One job done at a request's end, once its record is made: each its own type, as Gatling's
 * response processors are, run in the order of {@link StreamCapture}'s list (Gatling's stats, then
 * the run's records).
 */
interface RequestEndJob {

  void done(Ended ended);

  /**
   * A request that has ended.
   *
   * @param stats Gatling's stats, as the request's action reaches them
   * @param session the user's session the request was sent from
   * @param record its record
   * @param stream its answer as read
   */
  record Ended(GatlingStats stats, Session session, RequestRecord record, ParsedStream stream) {}
}
