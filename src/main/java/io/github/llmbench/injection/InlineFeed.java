package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.javaapi.core.ChainBuilder;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A feeder read on the virtual user's own event loop. Gatling's {@code feed} hands the user to its
 * feeder actor and back, two thread hops between one request's end and the next one's send: on a
 * machine whose cores the server keeps busy each waits for a core, milliseconds a request of idle
 * slot (issue 45). The kit's records are made on demand in microseconds, so they are taken here,
 * one user at a time.
 */
final class InlineFeed {
  private InlineFeed() {}

  /**
   * Sets the next record's attributes on the session, after removing {@code stale} (a user's
   * earlier record may hold keys this one lacks).
   */
  static ChainBuilder of(Iterator<Map<String, Object>> records, String... stale) {
    return exec(session -> session.removeAll(stale).setAll(next(records)));
  }

  private static Map<String, Object> next(Iterator<Map<String, Object>> records) {
    synchronized (records) {
      if (!records.hasNext()) {
        throw new NoSuchElementException("the workload's records ran out");
      }
      return records.next();
    }
  }
}
