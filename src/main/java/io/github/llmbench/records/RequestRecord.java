package io.github.llmbench.records;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.github.llmbench.core.Level;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One finished request, as written to {@code llm/requests.jsonl}: the only input of the analysis.
 *
 * <p>Times are epoch milliseconds ({@code startMs}, {@code endMs}) or durations in milliseconds
 * with microsecond resolution: TTFT, TPOT, E2EL and every ITL are rounded to the nearest µs (3
 * decimals) when the record is made, so a live run's records and those read back from the file are
 * equal and give the same report. Latency fields are null for a failed request: failures never
 * enter latency statistics.
 *
 * <p>An immutable value class rather than a Java record, because a run holds every record until it
 * ends (a million of them for a long ladder) and a record's components would have to be the boxed
 * types of its accessors: the durations are kept as primitive µs, the counts as ints, the usual
 * {@code req-123} id as a shared prefix and a number, and the strings that repeat (level, profile,
 * error) are shared, a level's tag parsed once into its shared copy. Measured with 127 gaps of
 * about 10 ms, a held record took 3,859 bytes as a record with a boxed {@code List<Double>}, and
 * takes 437 in this layout (272 of them the gaps' chars; {@code RecordsBenchmark} over a million
 * records). Accessors, constructors, {@code equals} and {@code hashCode} are those the record had.
 *
 * <p>A level is kept as its tag ({@code c128}), written and read back as is, and as the {@link
 * Level} the tag names, if any: a custom simulation names its levels itself (its Gatling groups,
 * else its scenario, such as {@code feeder}), and a file read back may hold such names too.
 *
 * <p>JSON: written and read by {@link RequestRecordJson} (any ObjectMapper uses it), latencies with
 * at most 3 decimals.
 */
@JsonSerialize(using = RequestRecordJson.Serializer.class)
@JsonDeserialize(using = RequestRecordJson.Deserializer.class)
public final class RequestRecord {

  /** What the primitive µs accessors return for a missing value (null in the JSON). */
  public static final long ABSENT = Long.MIN_VALUE;

  /** How an absent count is stored: no token count or HTTP status is this negative. */
  private static final int NO_INT = Integer.MIN_VALUE;

  /** Id prefixes (such as {@code req-}) and repeated texts are shared up to this many each. */
  private static final int MAX_SHARED = 1024;

  private static final int MAX_PREFIX_LENGTH = 32;
  private static final ConcurrentHashMap<String, String> PREFIXES = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, String> TEXTS = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, LevelTag> LEVEL_TAGS = new ConcurrentHashMap<>();

  /**
   * A level's tag as recorded, and the level it names (null for a name of a custom simulation's
   * own).
   */
  private record LevelTag(String tag, Level level) {
    static LevelTag of(String tag) {
      return new LevelTag(tag, Level.parse(tag).orElse(null));
    }
  }

  /** The id's text before its number, or the whole id when {@link #idNumber} is negative. */
  private final String idPrefix;

  private final long idNumber;

  /** Null when the record has no level. */
  private final LevelTag level;

  private final long startMs;
  private final long endMs;
  private final long ttftMicros;
  private final long tpotMicros;
  private final long e2elMicros;
  private final ItlSeries itl;
  private final int inputTokens;
  private final int outputTokens;
  private final int httpStatus;
  private final boolean outputTokensEstimated;
  private final boolean ok;
  private final String error;
  private final String profile;
  private final ServerTimings serverTimings;

  /** The conversation and turn, or the trace time; null for most records. */
  private final RequestOrigin origin;

  /** What a reasoning stream said before its answer; null for most. */
  private final Reasoning reasoning;

  /** The stream's last {@code finish_reason}, null when it said none (or the request failed). */
  private final String finishReason;

  /** The server and model of a run that spreads its requests; null for most. */
  private final Route route;

  /**
   * Whether it went to a pooling endpoint (embeddings): nothing generated, so its TTFT is its E2EL
   * (as vLLM sets them), it has no TPOT or ITL and 0 output tokens, failed or not.
   */
  private final boolean pooling;

  /**
   * Where the token counts came from when not the server's usage ({@link #TOKENIZER}, {@link
   * #CHUNKS}); null: usage.
   */
  private final String inputTokensFrom;

  private final String outputTokensFrom;

  /** A count made with the local tokenizer ({@code -Dtokenizer}). */
  public static final String TOKENIZER = "tokenizer";

  /** Output tokens counted as text chunks (no usage, no tokenizer): an estimate. */
  public static final String CHUNKS = "chunks";

  /**
   * @param id request id, unique within the run
   * @param level the load level the request belongs to, e.g. {@code c128}
   * @param startMs t0: just before the request was sent
   * @param endMs when the request ended (last chunk, failure or timeout); used for concurrency
   * @param ttftMs time to first chunk carrying generated text
   * @param tpotMs (e2el - ttft) / (output tokens - 1); null when output tokens <= 1
   * @param e2elMs arrival of the last chunk carrying text - t0
   * @param itlMs gaps between consecutive chunks carrying text (per chunk, not per token); kept as
   *     an {@link ItlSeries} (the same one when it already is one); null gives none
   * @param inputTokens {@code usage.prompt_tokens}, null when the server sent no usage
   * @param outputTokens {@code usage.completion_tokens}, or the text-chunk count when estimated
   * @param outputTokensEstimated true when outputTokens is a chunk count (no usage chunk)
   * @param ok true when the request completed: status 200, [DONE] received, no error event
   * @param error short reason of a failure, null when ok
   * @param httpStatus the HTTP status when known, else null
   * @param profile the workload profile (SS, SL, LS, LL) of a profile run, else null
   * @param serverTimings the server's own timings of the request (llama.cpp's {@code timings}),
   *     null (and left out of the line) when the server sent none, as vLLM
   * @throws IllegalArgumentException for a latency that is NaN, infinite or beyond {@link
   *     ItlSeries#MAX_ABS_MICROS} µs, or a count equal to {@code Integer.MIN_VALUE}
   * @throws NullPointerException for a null element of {@code itlMs}
   */
  public RequestRecord(
      String id,
      String level,
      long startMs,
      long endMs,
      Double ttftMs,
      Double tpotMs,
      Double e2elMs,
      List<Double> itlMs,
      Integer inputTokens,
      Integer outputTokens,
      boolean outputTokensEstimated,
      boolean ok,
      String error,
      Integer httpStatus,
      String profile,
      ServerTimings serverTimings) {
    this(
        id,
        level,
        startMs,
        endMs,
        micros(ttftMs, "ttft_ms"),
        micros(tpotMs, "tpot_ms"),
        micros(e2elMs, "e2el_ms"),
        ItlSeries.ofMillis(itlMs),
        count(inputTokens, "input_tokens"),
        count(outputTokens, "output_tokens"),
        outputTokensEstimated,
        ok,
        error,
        count(httpStatus, "http_status"),
        profile,
        serverTimings,
        null,
        null,
        null);
  }

  /** A record outside profile runs. */
  public RequestRecord(
      String id,
      String level,
      long startMs,
      long endMs,
      Double ttftMs,
      Double tpotMs,
      Double e2elMs,
      List<Double> itlMs,
      Integer inputTokens,
      Integer outputTokens,
      boolean outputTokensEstimated,
      boolean ok,
      String error,
      Integer httpStatus) {
    this(
        id,
        level,
        startMs,
        endMs,
        ttftMs,
        tpotMs,
        e2elMs,
        itlMs,
        inputTokens,
        outputTokens,
        outputTokensEstimated,
        ok,
        error,
        httpStatus,
        null,
        null);
  }

  /** A record without server timings. */
  public RequestRecord(
      String id,
      String level,
      long startMs,
      long endMs,
      Double ttftMs,
      Double tpotMs,
      Double e2elMs,
      List<Double> itlMs,
      Integer inputTokens,
      Integer outputTokens,
      boolean outputTokensEstimated,
      boolean ok,
      String error,
      Integer httpStatus,
      String profile) {
    this(
        id,
        level,
        startMs,
        endMs,
        ttftMs,
        tpotMs,
        e2elMs,
        itlMs,
        inputTokens,
        outputTokens,
        outputTokensEstimated,
        ok,
        error,
        httpStatus,
        profile,
        null);
  }

  /**
   * The record from primitive values, without boxing (the file reader's way): latencies in µs or
   * {@link #ABSENT}; counts and status as ints, {@code Integer.MIN_VALUE} for none.
   */
  RequestRecord(
      String id,
      String level,
      long startMs,
      long endMs,
      long ttftMicros,
      long tpotMicros,
      long e2elMicros,
      ItlSeries itl,
      int inputTokens,
      int outputTokens,
      boolean outputTokensEstimated,
      boolean ok,
      String error,
      int httpStatus,
      String profile,
      ServerTimings serverTimings,
      RequestOrigin origin,
      String inputTokensFrom,
      String outputTokensFrom) {
    this(
        id,
        level,
        startMs,
        endMs,
        ttftMicros,
        tpotMicros,
        e2elMicros,
        itl,
        inputTokens,
        outputTokens,
        outputTokensEstimated,
        ok,
        error,
        httpStatus,
        profile,
        serverTimings,
        origin,
        inputTokensFrom,
        outputTokensFrom,
        null,
        null,
        null,
        false);
  }

  private RequestRecord(
      String id,
      String level,
      long startMs,
      long endMs,
      long ttftMicros,
      long tpotMicros,
      long e2elMicros,
      ItlSeries itl,
      int inputTokens,
      int outputTokens,
      boolean outputTokensEstimated,
      boolean ok,
      String error,
      int httpStatus,
      String profile,
      ServerTimings serverTimings,
      RequestOrigin origin,
      String inputTokensFrom,
      String outputTokensFrom,
      Reasoning reasoning,
      String finishReason,
      Route route,
      boolean pooling) {
    this.pooling = pooling;
    this.reasoning = reasoning;
    this.finishReason = finishReason;
    this.route = route;
    int cut = numberStart(id);
    String prefix = cut < 0 ? null : sharedPrefix(id.substring(0, cut));
    if (prefix != null) {
      this.idPrefix = prefix;
      this.idNumber = Long.parseLong(id, cut, id.length(), 10);
    } else {
      this.idPrefix = id;
      this.idNumber = -1;
    }
    this.level = sharedLevel(level);
    this.startMs = startMs;
    this.endMs = endMs;
    this.ttftMicros = checkMicros(ttftMicros, "ttft_ms");
    this.tpotMicros = checkMicros(tpotMicros, "tpot_ms");
    this.e2elMicros = checkMicros(e2elMicros, "e2el_ms");
    this.itl = itl == null ? ItlSeries.EMPTY : itl;
    this.inputTokens = inputTokens;
    this.outputTokens = outputTokens;
    this.outputTokensEstimated = outputTokensEstimated;
    this.ok = ok;
    this.error = shared(error);
    this.httpStatus = httpStatus;
    this.profile = shared(profile);
    this.serverTimings = serverTimings;
    this.origin = origin;
    this.inputTokensFrom = shared(inputTokensFrom);
    this.outputTokensFrom = shared(outputTokensFrom);
  }

  /**
   * A completed request from the capture's own units, with no rounding or boxing on the way:
   * latencies in whole µs ({@code tpotMicros} {@link #ABSENT} when there is one output token).
   *
   * @param origin its conversation and turn, or set send time, or injector; null for none
   * @param inputTokensFrom where the input tokens came from: null for the server's usage, else
   *     {@link #TOKENIZER}
   * @param outputTokensFrom null for the server's usage, else {@link #TOKENIZER} or {@link #CHUNKS}
   */
  public static RequestRecord completed(
      String id,
      String level,
      String profile,
      long startMs,
      long endMs,
      long ttftMicros,
      long tpotMicros,
      long e2elMicros,
      ItlSeries itl,
      Integer inputTokens,
      int outputTokens,
      boolean outputTokensEstimated,
      int httpStatus,
      ServerTimings serverTimings,
      RequestOrigin origin,
      String inputTokensFrom,
      String outputTokensFrom) {
    return new RequestRecord(
        id,
        level,
        startMs,
        endMs,
        ttftMicros,
        tpotMicros,
        e2elMicros,
        itl,
        inputTokens == null ? NO_INT : inputTokens,
        outputTokens,
        outputTokensEstimated,
        true,
        null,
        httpStatus,
        profile,
        serverTimings,
        origin,
        inputTokensFrom,
        outputTokensFrom);
  }

  /** A request that failed before or during its stream: no latency figures. */
  public static RequestRecord failed(
      String id,
      String level,
      String profile,
      long startMs,
      long endMs,
      String error,
      Integer httpStatus,
      Integer promptTokens) {
    return new RequestRecord(
        id,
        level,
        startMs,
        Math.max(endMs, startMs),
        null,
        null,
        null,
        List.of(),
        promptTokens,
        null,
        false,
        false,
        error,
        httpStatus,
        profile,
        null);
  }

  /** This record tagged with a profile. */
  public RequestRecord withProfile(String newProfile) {
    return copy(newProfile, origin, reasoning, finishReason, route);
  }

  /**
   * This record with its place in a conversation or a trace (null: none); itself when that is
   * unchanged.
   */
  public RequestRecord withOrigin(RequestOrigin newOrigin) {
    if (Objects.equals(newOrigin, origin)) {
      return this; // most requests have none: no copy of the record
    }
    return copy(profile, newOrigin, reasoning, finishReason, route);
  }

  /** This record with what its stream said before the answer (null: it did not reason). */
  public RequestRecord withReasoning(Reasoning newReasoning) {
    if (Objects.equals(newReasoning, reasoning)) {
      return this;
    }
    return copy(profile, origin, newReasoning, finishReason, route);
  }

  /**
   * This record with the stream's {@code finish_reason} ({@code length}, {@code stop}, {@code
   * tool_calls}, ...; null: none said).
   */
  public RequestRecord withFinishReason(String reason) {
    if (Objects.equals(reason, finishReason)) {
      return this;
    }
    return copy(profile, origin, reasoning, FinishReasons.shared(reason), route);
  }

  /** This record with where it went ({@link Route#of}; null: the run's one server and model). */
  public RequestRecord withRoute(Route newRoute) {
    if (Objects.equals(newRoute, route)) {
      return this;
    }
    return copy(profile, origin, reasoning, finishReason, newRoute);
  }

  /** The server and model of a run that spreads its requests, or null. */
  public Route route() {
    return route;
  }

  /** This record as one of a pooling endpoint's (embeddings); itself when it already is. */
  public RequestRecord asPooling() {
    return pooling ? this : copy(profile, origin, reasoning, finishReason, route, true);
  }

  /**
   * Whether it went to a pooling endpoint (embeddings): its only latency is its E2EL (its TTFT is
   * the same, as vLLM sets it), and it has 0 output tokens.
   */
  public boolean pooling() {
    return pooling;
  }

  private RequestRecord copy(
      String newProfile,
      RequestOrigin newOrigin,
      Reasoning newReasoning,
      String newFinish,
      Route newRoute) {
    return copy(newProfile, newOrigin, newReasoning, newFinish, newRoute, pooling);
  }

  private RequestRecord copy(
      String newProfile,
      RequestOrigin newOrigin,
      Reasoning newReasoning,
      String newFinish,
      Route newRoute,
      boolean newPooling) {
    return new RequestRecord(
        id(),
        level(),
        startMs,
        endMs,
        ttftMicros,
        tpotMicros,
        e2elMicros,
        itl,
        inputTokens,
        outputTokens,
        outputTokensEstimated,
        ok,
        error,
        httpStatus,
        newProfile,
        serverTimings,
        newOrigin,
        inputTokensFrom,
        outputTokensFrom,
        newReasoning,
        newFinish,
        newRoute,
        newPooling);
  }

  /** The stream's last {@code finish_reason}, null when it said none. */
  public String finishReason() {
    return finishReason;
  }

  /** What the stream said before its answer, null when it did not reason. */
  public Reasoning reasoning() {
    return reasoning;
  }

  /** Where the input tokens came from: null for the server's usage, else {@link #TOKENIZER}. */
  public String inputTokensFrom() {
    return inputTokensFrom;
  }

  /**
   * Where the output tokens came from: null for the server's usage, else {@link #TOKENIZER} or
   * {@link #CHUNKS}.
   */
  public String outputTokensFrom() {
    return outputTokensFrom;
  }

  // ------------------------------------------------------------------ accessors

  public String id() {
    return idNumber < 0 ? idPrefix : idPrefix + idNumber;
  }

  /** The level's tag, e.g. {@code c128}, or the name a custom simulation gave it; null for none. */
  public String level() {
    return level == null ? null : level.tag();
  }

  /** The level the tag names; empty for a custom simulation's own name (or none). */
  public Optional<Level> loadLevel() {
    return level == null ? Optional.empty() : Optional.ofNullable(level.level());
  }

  public long startMs() {
    return startMs;
  }

  public long endMs() {
    return endMs;
  }

  public Double ttftMs() {
    return millis(ttftMicros);
  }

  public Double tpotMs() {
    return millis(tpotMicros);
  }

  public Double e2elMs() {
    return millis(e2elMicros);
  }

  /** TTFT in µs, {@link #ABSENT} when null. */
  public long ttftMicros() {
    return ttftMicros;
  }

  /** TPOT in µs, {@link #ABSENT} when null. */
  public long tpotMicros() {
    return tpotMicros;
  }

  /** E2EL in µs, {@link #ABSENT} when null. */
  public long e2elMicros() {
    return e2elMicros;
  }

  /** The ITLs; a {@code List<Double>} of ms with primitive µs access for per-chunk loops. */
  public ItlSeries itlMs() {
    return itl;
  }

  public Integer inputTokens() {
    return boxed(inputTokens);
  }

  public Integer outputTokens() {
    return boxed(outputTokens);
  }

  public boolean outputTokensEstimated() {
    return outputTokensEstimated;
  }

  public boolean ok() {
    return ok;
  }

  /**
   * How a request the client cancelled on purpose ({@code -Dcancel.pct}) begins its error: it is
   * neither OK nor failed, and every figure but its own count leaves it out.
   */
  public static final String CANCELLED = "cancelled by the client";

  /** Whether the client cancelled it on purpose (its connection closed, as a browser tab's). */
  public boolean cancelled() {
    return !ok && error != null && error.startsWith(CANCELLED);
  }

  public String error() {
    return error;
  }

  public Integer httpStatus() {
    return boxed(httpStatus);
  }

  public String profile() {
    return profile;
  }

  public ServerTimings serverTimings() {
    return serverTimings;
  }

  /** The conversation and turn, or the trace time; null when the request has neither. */
  public RequestOrigin origin() {
    return origin;
  }

  // ------------------------------------------------------------------ value semantics

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    return o instanceof RequestRecord r
        && startMs == r.startMs
        && endMs == r.endMs
        && ttftMicros == r.ttftMicros
        && tpotMicros == r.tpotMicros
        && e2elMicros == r.e2elMicros
        && inputTokens == r.inputTokens
        && outputTokens == r.outputTokens
        && httpStatus == r.httpStatus
        && outputTokensEstimated == r.outputTokensEstimated
        && ok == r.ok
        && Objects.equals(id(), r.id())
        && Objects.equals(level(), r.level())
        && Objects.equals(error, r.error)
        && Objects.equals(profile, r.profile)
        && Objects.equals(serverTimings, r.serverTimings)
        && Objects.equals(origin, r.origin)
        && Objects.equals(reasoning, r.reasoning)
        && Objects.equals(finishReason, r.finishReason)
        && Objects.equals(route, r.route)
        && pooling == r.pooling
        && Objects.equals(inputTokensFrom, r.inputTokensFrom)
        && Objects.equals(outputTokensFrom, r.outputTokensFrom)
        && itl.equals(r.itl);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        id(),
        level(),
        startMs,
        endMs,
        ttftMicros,
        tpotMicros,
        e2elMicros,
        itl,
        inputTokens,
        outputTokens,
        outputTokensEstimated,
        ok,
        error,
        httpStatus,
        profile,
        serverTimings,
        origin);
  }

  @Override
  public String toString() {
    return "RequestRecord[id="
        + id()
        + ", level="
        + level()
        + ", startMs="
        + startMs
        + ", endMs="
        + endMs
        + ", ttftMs="
        + ttftMs()
        + ", tpotMs="
        + tpotMs()
        + ", e2elMs="
        + e2elMs()
        + ", itlMs="
        + itl
        + ", inputTokens="
        + inputTokens()
        + ", outputTokens="
        + outputTokens()
        + ", outputTokensEstimated="
        + outputTokensEstimated
        + ", ok="
        + ok
        + ", error="
        + error
        + ", httpStatus="
        + httpStatus()
        + ", profile="
        + profile
        + ", serverTimings="
        + serverTimings
        + (origin == null ? "" : ", origin=" + origin)
        + "]";
  }

  // ------------------------------------------------------------------ helpers

  private static long micros(Double ms, String what) {
    return ms == null ? ABSENT : ItlSeries.millisToMicros(ms, what);
  }

  private static long checkMicros(long micros, String what) {
    if (micros != ABSENT && Math.abs(micros) > ItlSeries.MAX_ABS_MICROS) {
      throw new IllegalArgumentException(
          what + " is beyond +-" + ItlSeries.MAX_ABS_MICROS + " µs: " + micros);
    }
    return micros;
  }

  private static Double millis(long micros) {
    return micros == ABSENT ? null : micros / 1000.0;
  }

  private static int count(Integer n, String what) {
    if (n == null) {
      return NO_INT;
    }
    if (n == NO_INT) {
      throw new IllegalArgumentException(what + " cannot be " + n);
    }
    return n;
  }

  private static Integer boxed(int n) {
    return n == NO_INT ? null : n;
  }

  /**
   * Where the id's decimal number starts when the id is a short prefix and a number that prints
   * back the same (no leading zero, at most 18 digits); -1 otherwise.
   */
  private static int numberStart(String id) {
    if (id == null) {
      return -1;
    }
    int end = id.length();
    int cut = end;
    while (cut > 0 && id.charAt(cut - 1) >= '0' && id.charAt(cut - 1) <= '9') {
      cut--;
    }
    int digits = end - cut;
    if (digits == 0
        || digits > 18
        || cut > MAX_PREFIX_LENGTH
        || (digits > 1 && id.charAt(cut) == '0')) {
      return -1;
    }
    return cut;
  }

  /** The shared copy of an id prefix; null once {@value #MAX_SHARED} prefixes are known. */
  private static String sharedPrefix(String prefix) {
    String known = PREFIXES.get(prefix);
    if (known != null) {
      return known;
    }
    if (PREFIXES.size() >= MAX_SHARED) {
      return null;
    }
    known = PREFIXES.putIfAbsent(prefix, prefix);
    return known == null ? prefix : known;
  }

  /** The shared, parsed copy of a level's tag, as {@link #shared} shares texts; null for none. */
  private static LevelTag sharedLevel(String tag) {
    if (tag == null) {
      return null;
    }
    LevelTag known = LEVEL_TAGS.get(tag);
    if (known != null) {
      return known;
    }
    LevelTag made = LevelTag.of(shared(tag));
    if (LEVEL_TAGS.size() >= MAX_SHARED) {
      return made;
    }
    known = LEVEL_TAGS.putIfAbsent(made.tag(), made);
    return known == null ? made : known;
  }

  /**
   * The shared copy of a text that repeats across records (a level, a profile, a failure reason),
   * so a million records hold a handful of strings; once {@value #MAX_SHARED} texts are known
   * (reasons that embed details), new ones are kept as they are.
   */
  static String shared(String text) {
    if (text == null) {
      return null;
    }
    String known = TEXTS.get(text);
    if (known != null) {
      return known;
    }
    if (TEXTS.size() >= MAX_SHARED) {
      return text;
    }
    known = TEXTS.putIfAbsent(text, text);
    return known == null ? text : known;
  }
}
