package io.github.llmbench.records;

/**
 * Where a request sits in its workload, when that is more than a level: the conversation and turn
 * of a multi-turn run, the trace's send time of a trace replay and when it was sent. Written to
 * {@code requests.jsonl} as {@code "conversation"}, {@code "turn"}, {@code "trace_ms"}, {@code
 * "sent_ms"} and {@code "injector"} (the injector that sent it, when several share the load), each
 * only when present.
 *
 * @param conversation the conversation's id within the run, or null
 * @param turn the turn within the conversation (1 for the first), or 0 outside conversations
 * @param traceMicros when the trace says to send the request, from the trace's first request,
 *     divided by the replay's speed, in µs (a rate probe of a capacity search: its drawn arrival
 *     time, from the probe's start); {@link RequestRecord#ABSENT} for other levels
 * @param sentMicros when the request was sent (its prompt built, just before the HTTP client), from
 *     the moment the replay (or probe) started, in µs; {@link RequestRecord#ABSENT} for other
 *     levels
 * @param injector the injector that sent it (from 0) when several share the load, else -1
 */
public record RequestOrigin(
    String conversation, int turn, long traceMicros, long sentMicros, int injector) {
  public static RequestOrigin turn(String conversation, int turn) {
    return new RequestOrigin(conversation, turn, RequestRecord.ABSENT, RequestRecord.ABSENT, -1);
  }

  public static RequestOrigin trace(long traceMicros, long sentMicros) {
    return new RequestOrigin(null, 0, traceMicros, sentMicros, -1);
  }

  /** This origin (or none) as sent by injector {@code i}. */
  public static RequestOrigin fromInjector(RequestOrigin origin, int i) {
    return origin == null
        ? new RequestOrigin(null, 0, RequestRecord.ABSENT, RequestRecord.ABSENT, i)
        : new RequestOrigin(
            origin.conversation(), origin.turn(), origin.traceMicros(), origin.sentMicros(), i);
  }

  public RequestOrigin {
    if (turn < 0) {
      throw new IllegalArgumentException("turn cannot be negative: " + turn);
    }
  }

  /** The trace's send time in ms, or null. */
  public Double traceMs() {
    return traceMicros == RequestRecord.ABSENT ? null : traceMicros / 1000.0;
  }

  /** When the request was sent, from the replay's first feed, in ms, or null. */
  public Double sentMs() {
    return sentMicros == RequestRecord.ABSENT ? null : sentMicros / 1000.0;
  }
}
