package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.List;

/**
 * Where a request sits in its workload, when that is more than a level: the conversation and turn
 * of a multi-turn run, the call of an agent session, the trace's send time of a trace replay and
 * when it was sent. Written to {@code requests.jsonl} as {@code "conversation"}, {@code "turn"},
 * {@link SessionPlace}'s fields, {@code "trace_ms"}, {@code "sent_ms"}, {@code "injector"} (the
 * injector that sent it, when several share the load) and {@code "trial"} (which run of a level
 * that runs several times, {@code -Dtrials}), each only when present; in an interleaved A/B run
 * ({@code -Dcandidate.url}), {@code "pair"} and {@code "side"}; {@code "client_queue_ms"} for a
 * request that waited for a free slot ({@code -Dmax.conc}).
 *
 * @param workload where the workload put it: its conversation and turn, its trace times
 * @param sending what sending it added: its injector, trial and wait for a free slot
 * @param pairing its pair and side in an interleaved A/B run, {@link Pairing#NONE} in others
 */
public record RequestOrigin(Workload workload, Sending sending, Pairing pairing) {

  /** A record's origin, when it has more than its level. */
  public static final RecordPart<RequestOrigin> PART = new OriginJson();

  public RequestOrigin {
    pairing = pairing == null ? Pairing.NONE : pairing;
  }

  /** Outside an interleaved A/B run. */
  public RequestOrigin(Workload workload, Sending sending) {
    this(workload, sending, Pairing.NONE);
  }

  /** The server of an interleaved A/B run a request went to: A the base, B the candidate. */
  public enum Side {
    A,
    B
  }

  /**
   * Where a request sits in an interleaved A/B run.
   *
   * @param pair the pair of trials (from 1), 0 outside an A/B run
   * @param side the pair's trial it was sent in, null outside an A/B run
   */
  public record Pairing(int pair, Side side) {
    /** Outside an A/B run. */
    public static final Pairing NONE = new Pairing(0, null);

    public Pairing {
      if (pair < 0 || (pair > 0) != (side != null)) {
        throw new IllegalArgumentException("pair " + pair + ", side " + side);
      }
    }
  }

  /**
   * Where the workload put a request.
   *
   * @param conversation the conversation's id within the run, or null
   * @param turn the turn within the conversation (1 for the first), or 0 outside conversations
   * @param traceMicros when the trace says to send the request, from the trace's first request,
   *     divided by the replay's speed, in µs (a rate probe of a capacity search: its drawn arrival
   *     time, from the probe's start); {@link RequestRecord#ABSENT} for other levels
   * @param sentMicros when the request was sent (its prompt built, just before the HTTP client),
   *     from the moment the replay (or probe) started, in µs; {@link RequestRecord#ABSENT} for
   *     other levels
   * @param sessionPlace its place in an agent session, or null outside sessions
   */
  public record Workload(
      String conversation, int turn, long traceMicros, long sentMicros, SessionPlace sessionPlace) {
    /** Nothing beyond its level. */
    public static final Workload NONE =
        new Workload(null, 0, RequestRecord.ABSENT, RequestRecord.ABSENT);

    public Workload {
      if (turn < 0) {
        throw new IllegalArgumentException("turn cannot be negative: " + turn);
      }
    }

    /** Outside agent sessions. */
    public Workload(String conversation, int turn, long traceMicros, long sentMicros) {
      this(conversation, turn, traceMicros, sentMicros, null);
    }
  }

  /**
   * Where a request sits in an agent session, written to {@code requests.jsonl} as {@code
   * "session"}, {@code "call"}, {@code "step"}, {@code "parents"}, {@code "session_start_ms"} and,
   * for a tool round, {@code "round"}.
   *
   * @param session the session's run of its graph, unique within the run ({@code research#3}: the
   *     session's name and the how-manieth session the run started)
   * @param call the call's id in the session
   * @param step 1 for a call that waited for nothing, else one more than its deepest parent's
   * @param parents the ids of the calls it waited for
   * @param round 0, or the tool round it sends (from 1)
   * @param sessionStartMs when its session started (epoch ms), before any wait for its first call;
   *     {@link RequestRecord#ABSENT} when not known
   */
  public record SessionPlace(
      String session, String call, int step, List<String> parents, int round, long sessionStartMs) {

    /** A place whose session's start is not known. */
    public SessionPlace(String session, String call, int step, List<String> parents, int round) {
      this(session, call, step, parents, round, RequestRecord.ABSENT);
    }

    public SessionPlace {
      if (session == null || call == null || step < 1 || round < 0) {
        throw new IllegalArgumentException(
            "session " + session + ", call " + call + ", step " + step + ", round " + round);
      }
      parents = List.copyOf(parents);
    }
  }

  /**
   * What sending a request added to its place in the workload.
   *
   * @param injector the injector that sent it (from 0) when several share the load, else -1
   * @param trial the trial of its level (from 1) when the level runs several times, else 0
   * @param queueMicros how long it waited for a free slot after its arrival ({@code -Dmax.conc}, as
   *     vLLM's {@code client_queue_time}), in µs, written as {@code "client_queue_ms"}; {@link
   *     RequestRecord#ABSENT} for requests that queue for nothing
   */
  public record Sending(int injector, int trial, long queueMicros) {
    /** One injector, one trial, no wait. */
    public static final Sending NONE = new Sending(-1, 0, RequestRecord.ABSENT);

    public Sending {
      if (trial < 0) {
        throw new IllegalArgumentException("trial cannot be negative: " + trial);
      }
    }
  }

  /** None of it: a record's origin when nothing is known beyond its level. */
  private static final RequestOrigin NONE = new RequestOrigin(Workload.NONE, Sending.NONE);

  public static RequestOrigin turn(String conversation, int turn) {
    return new RequestOrigin(
        new Workload(conversation, turn, RequestRecord.ABSENT, RequestRecord.ABSENT), Sending.NONE);
  }

  /** A call of an agent session. */
  public static RequestOrigin sessionPlace(SessionPlace place) {
    return new RequestOrigin(
        new Workload(null, 0, RequestRecord.ABSENT, RequestRecord.ABSENT, place), Sending.NONE);
  }

  public static RequestOrigin trace(long traceMicros, long sentMicros) {
    return new RequestOrigin(new Workload(null, 0, traceMicros, sentMicros), Sending.NONE);
  }

  /** This origin (or none) as sent by injector {@code i}. */
  public static RequestOrigin fromInjector(RequestOrigin origin, int i) {
    RequestOrigin o = origin == null ? NONE : origin;
    return o.with(new Sending(i, o.trial(), o.queueMicros()));
  }

  /** This origin (or none) in trial {@code n} of its level. */
  public static RequestOrigin inTrial(RequestOrigin origin, int n) {
    RequestOrigin o = origin == null ? NONE : origin;
    return o.with(new Sending(o.injector(), n, o.queueMicros()));
  }

  /** This origin (or none) having waited {@code micros} for a free slot. */
  public static RequestOrigin queued(RequestOrigin origin, long micros) {
    RequestOrigin o = origin == null ? NONE : origin;
    return o.with(new Sending(o.injector(), o.trial(), micros));
  }

  /** This origin (or none) sent on {@code side} in pair {@code pair} of an A/B run. */
  public static RequestOrigin inPair(RequestOrigin origin, int pair, Side side) {
    RequestOrigin o = origin == null ? NONE : origin;
    return new RequestOrigin(o.workload, o.sending, new Pairing(pair, side));
  }

  /** The A/B pair of a record (from 1), 0 outside an A/B run or without an origin. */
  public static int pairOf(RequestOrigin origin) {
    return origin == null ? 0 : origin.pairing.pair();
  }

  /** The A/B side of a record, null outside an A/B run or without an origin. */
  public static Side sideOf(RequestOrigin origin) {
    return origin == null ? null : origin.pairing.side();
  }

  /** This origin with what sending it added (its workload's part is shared, not copied). */
  private RequestOrigin with(Sending newSending) {
    return new RequestOrigin(workload, newSending, pairing);
  }

  /** The wait for a free slot in ms, or null. */
  public Double clientQueueMs() {
    return queueMicros() == RequestRecord.ABSENT ? null : queueMicros() / 1000.0;
  }

  /** The trial of a record's level (from 1), 0 when its level ran once or it has no origin. */
  public static int trialOf(RequestOrigin origin) {
    return origin == null ? 0 : origin.trial();
  }

  /** See {@link Workload#conversation}. */
  public String conversation() {
    return workload.conversation();
  }

  /** See {@link Workload#sessionPlace}. */
  public SessionPlace sessionPlace() {
    return workload.sessionPlace();
  }

  /** See {@link Workload#turn}. */
  public int turn() {
    return workload.turn();
  }

  /** See {@link Workload#traceMicros}. */
  public long traceMicros() {
    return workload.traceMicros();
  }

  /** See {@link Workload#sentMicros}. */
  public long sentMicros() {
    return workload.sentMicros();
  }

  /** See {@link Sending#injector}. */
  public int injector() {
    return sending.injector();
  }

  /** See {@link Sending#trial}. */
  public int trial() {
    return sending.trial();
  }

  /** See {@link Sending#queueMicros}. */
  public long queueMicros() {
    return sending.queueMicros();
  }

  /** The trace's send time in ms, or null. */
  public Double traceMs() {
    return traceMicros() == RequestRecord.ABSENT ? null : traceMicros() / 1000.0;
  }

  /** When the request was sent, from the replay's first feed, in ms, or null. */
  public Double sentMs() {
    return sentMicros() == RequestRecord.ABSENT ? null : sentMicros() / 1000.0;
  }

  /** The origin's fields, each written only when the origin has it, in the file's order. */
  private static final class OriginJson extends RecordPart<RequestOrigin> {
    OriginJson() {
      super(
          "origin",
          "conversation",
          "turn",
          "session",
          "call",
          "step",
          "parents",
          "round",
          "session_start_ms",
          "trace_ms",
          "sent_ms",
          "trial",
          "injector",
          "pair",
          "side",
          "client_queue_ms");
    }

    @Override
    void write(RequestOrigin origin, JsonOut out) throws IOException {
      if (origin.conversation() != null) {
        out.text("conversation", origin.conversation());
      }
      if (origin.turn() > 0) {
        out.number("turn", origin.turn());
      }
      SessionPlace call = origin.sessionPlace();
      if (call != null) {
        out.text("session", call.session());
        out.text("call", call.call());
        out.number("step", call.step());
        out.texts("parents", call.parents());
        if (call.round() > 0) {
          out.number("round", call.round());
        }
        if (call.sessionStartMs() != RequestRecord.ABSENT) {
          out.number("session_start_ms", call.sessionStartMs());
        }
      }
      if (origin.traceMicros() != RequestRecord.ABSENT) {
        out.millis("trace_ms", origin.traceMicros());
      }
      if (origin.sentMicros() != RequestRecord.ABSENT) {
        out.millis("sent_ms", origin.sentMicros());
      }
      if (origin.trial() > 0) {
        out.number("trial", origin.trial());
      }
      if (origin.injector() >= 0) {
        out.number("injector", origin.injector());
      }
      if (origin.pairing().pair() > 0) {
        out.number("pair", origin.pairing().pair());
        out.text("side", origin.pairing().side().name());
      }
      if (origin.queueMicros() != RequestRecord.ABSENT) {
        out.millis("client_queue_ms", origin.queueMicros());
      }
    }

    @Override
    Reader<RequestOrigin> reader() {
      return new OriginReader();
    }
  }

  /** The origin's fields of one line, unboxed until its end. */
  private static final class OriginReader implements RecordPart.Reader<RequestOrigin> {
    private String conversation;
    private int turn;
    private String session;
    private String call;
    private int step;
    private List<String> parents;
    private int round;
    private long sessionStartMs;
    private long traceMicros;
    private long sentMicros;
    private int injector;
    private int trial;
    private int pair;
    private String side;
    private long queueMicros;

    OriginReader() {
      reset();
    }

    @Override
    public void reset() {
      conversation = null;
      turn = 0;
      session = null;
      call = null;
      step = 0;
      parents = List.of();
      round = 0;
      sessionStartMs = RequestRecord.ABSENT;
      traceMicros = RequestRecord.ABSENT;
      sentMicros = RequestRecord.ABSENT;
      injector = -1;
      trial = 0;
      pair = 0;
      side = null;
      queueMicros = RequestRecord.ABSENT;
    }

    @Override
    public void read(String name, JsonParser p, JsonToken t) throws IOException {
      switch (name) {
        case "conversation" -> conversation = JsonIn.text(p, t, name);
        case "turn" -> turn = JsonIn.intOr(p, t, name, 0);
        case "session" -> session = JsonIn.text(p, t, name);
        case "call" -> call = JsonIn.text(p, t, name);
        case "step" -> step = JsonIn.intOr(p, t, name, 0);
        case "parents" -> parents = JsonIn.texts(p, t, name);
        case "round" -> round = JsonIn.intOr(p, t, name, 0);
        case "session_start_ms" -> sessionStartMs = JsonIn.longValue(p, t, name);
        case "trace_ms" -> traceMicros = JsonIn.micros(p, t, name);
        case "sent_ms" -> sentMicros = JsonIn.micros(p, t, name);
        case "trial" -> trial = JsonIn.intOr(p, t, name, 0);
        case "injector" -> injector = JsonIn.intOr(p, t, name, -1);
        case "pair" -> pair = JsonIn.intOr(p, t, name, 0);
        case "side" -> side = JsonIn.text(p, t, name);
        case "client_queue_ms" -> queueMicros = JsonIn.micros(p, t, name);
        default -> throw new IllegalArgumentException("not an origin's field: " + name);
      }
    }

    /** None when the line says nothing beyond its level (a side or parents alone say nothing). */
    @Override
    public RequestOrigin value() {
      if (conversation == null
          && turn <= 0
          && session == null
          && traceMicros == RequestRecord.ABSENT
          && sentMicros == RequestRecord.ABSENT
          && injector < 0
          && trial <= 0
          && pair <= 0
          && queueMicros == RequestRecord.ABSENT) {
        return null;
      }
      SessionPlace place =
          session == null
              ? null
              : new SessionPlace(session, call, step, parents, round, sessionStartMs);
      return new RequestOrigin(
          new Workload(conversation, turn, traceMicros, sentMicros, place),
          new Sending(injector, trial, queueMicros),
          pairing());
    }

    /** The pair and side; none when the line has no pair or a side of no A/B run. */
    private Pairing pairing() {
      if (pair < 1 || !("A".equals(side) || "B".equals(side))) {
        return Pairing.NONE;
      }
      return new Pairing(pair, Side.valueOf(side));
    }
  }
}
