package io.github.llmbench.records;

/**
 * Where a request sits in its workload, when that is more than a level: the conversation and turn
 * of a multi-turn run, the trace's send time of a trace replay and when it was sent. Written to
 * {@code requests.jsonl} as {@code "conversation"}, {@code "turn"}, {@code "trace_ms"}, {@code
 * "sent_ms"}, {@code "injector"} (the injector that sent it, when several share the load) and
 * {@code "trial"} (which run of a level that runs several times, {@code -Dtrials}), each only when
 * present.
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
 * @param trial the trial of its level (from 1) when the level runs several times, else 0
 * @param queueMicros how long it waited for a free slot after its arrival ({@code -Dmax.conc}, as
 *     vLLM's {@code client_queue_time}), in µs, written as {@code "client_queue_ms"}; {@link
 *     RequestRecord#ABSENT} for requests that queue for nothing
 */
public record RequestOrigin(
    String conversation,
    int turn,
    long traceMicros,
    long sentMicros,
    int injector,
    int trial,
    long queueMicros) {

  public RequestOrigin(
      String conversation, int turn, long traceMicros, long sentMicros, int injector, int trial) {
    this(conversation, turn, traceMicros, sentMicros, injector, trial, RequestRecord.ABSENT);
  }

  /** None of it: a record's origin when nothing is known beyond its level. */
  private static final RequestOrigin NONE =
      new RequestOrigin(null, 0, RequestRecord.ABSENT, RequestRecord.ABSENT, -1, 0);

  public static RequestOrigin turn(String conversation, int turn) {
    return new RequestOrigin(conversation, turn, RequestRecord.ABSENT, RequestRecord.ABSENT, -1, 0);
  }

  public static RequestOrigin trace(long traceMicros, long sentMicros) {
    return new RequestOrigin(null, 0, traceMicros, sentMicros, -1, 0);
  }

  /** This origin (or none) as sent by injector {@code i}. */
  public static RequestOrigin fromInjector(RequestOrigin origin, int i) {
    RequestOrigin o = origin == null ? NONE : origin;
    return o.with(i, o.trial, o.queueMicros);
  }

  /** This origin (or none) in trial {@code n} of its level. */
  public static RequestOrigin inTrial(RequestOrigin origin, int n) {
    RequestOrigin o = origin == null ? NONE : origin;
    return o.with(o.injector, n, o.queueMicros);
  }

  /** This origin (or none) having waited {@code micros} for a free slot. */
  public static RequestOrigin queued(RequestOrigin origin, long micros) {
    RequestOrigin o = origin == null ? NONE : origin;
    return o.with(o.injector, o.trial, micros);
  }

  /** This origin with what the run adds to it: its injector, trial and slot wait. */
  private RequestOrigin with(int newInjector, int newTrial, long newQueueMicros) {
    return new RequestOrigin(
        conversation, turn, traceMicros, sentMicros, newInjector, newTrial, newQueueMicros);
  }

  /** The wait for a free slot in ms, or null. */
  public Double clientQueueMs() {
    return queueMicros == RequestRecord.ABSENT ? null : queueMicros / 1000.0;
  }

  /** The trial of a record's level (from 1), 0 when its level ran once or it has no origin. */
  public static int trialOf(RequestOrigin origin) {
    return origin == null ? 0 : origin.trial();
  }

  public RequestOrigin {
    if (turn < 0 || trial < 0) {
      throw new IllegalArgumentException(
          "turn and trial cannot be negative: " + turn + ", " + trial);
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
