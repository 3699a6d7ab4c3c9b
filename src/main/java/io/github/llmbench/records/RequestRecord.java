package io.github.llmbench.records;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.github.llmbench.core.Level;
import io.github.llmbench.endpoints.Figures;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
 * took 437 in this layout with a field for each optional value (272 of them the gaps' chars; {@code
 * RecordsBenchmark} over a million records). Its parts (below) took those fields out: the record
 * object is 104 bytes, 40 fewer, plus one array of its parts when it has some (24 bytes for one or
 * two; JOL, compressed oops). Accessors, {@code equals} and {@code hashCode} are those the record
 * had; a record is made by name, once, with its {@link #builder()}.
 *
 * <p>A level is kept as its tag ({@code c128}) and as the {@link Level} it names, if any (a custom
 * simulation names its levels itself). JSON: {@link RequestRecordJson}, at most 3 decimals.
 *
 * <p>The fields here are the measured core every record has: times, token counts, status. The rest
 * is in parts ({@link RecordPart}, listed in {@link RecordParts}), each a type of its own that
 * writes and reads its own JSON fields; a record holds only those it has, and a new per-request
 * field is a new part, not a field here. The parts every analysis reads keep a shorthand accessor
 * and setter ({@link #origin()}, {@link #figures()}, ...); the others are read with {@link
 * #part(RecordPart)}, set with {@link Builder#part}.
 */
@JsonSerialize(using = RequestRecordJson.Serializer.class)
@JsonDeserialize(using = RequestRecordJson.Deserializer.class)
public final class RequestRecord {

  /** What the primitive µs accessors return for a missing value (null in the JSON). */
  public static final long ABSENT = Long.MIN_VALUE;

  /** How an absent count is stored: no token count or HTTP status is this negative. */
  private static final int NO_INT = Integer.MIN_VALUE;

  /** The id's text before its number, or the whole id when {@link #idNumber} is negative. */
  private final String idPrefix;

  private final long idNumber;

  /** Null when the record has no level. */
  private final SharedTexts.LevelTag level;

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

  /** Which parts it holds: bit i for {@code RecordParts.ALL.get(i)}. */
  private final int partsHeld;

  /**
   * The parts it holds, in the list's order, without a slot for the others: most records have one
   * or two of a dozen.
   */
  private final Object[] parts;

  /** A count made with the local tokenizer ({@code -Dtokenizer}). */
  public static final String TOKENIZER = "tokenizer";

  /** Output tokens counted as text chunks (no usage, no tokenizer): an estimate. */
  public static final String CHUNKS = "chunks";

  /** A record to fill by name: every field absent (null, no gaps, not ok) until set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every value of this record, to make a changed copy (tests, re-reads). */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.id = id();
    b.level = level();
    b.startMs = startMs;
    b.endMs = endMs;
    b.ttftMicros = ttftMicros;
    b.tpotMicros = tpotMicros;
    b.e2elMicros = e2elMicros;
    b.itl = itl;
    b.inputTokens = inputTokens;
    b.outputTokens = outputTokens;
    b.httpStatus = httpStatus;
    b.outputTokensEstimated = outputTokensEstimated;
    b.ok = ok;
    b.error = error;
    b.profile = profile;
    RecordParts.expand(partsHeld, parts, b.parts);
    return b;
  }

  /**
   * The values of one record, set by name as the capture (or the file's reader) learns them, then
   * {@link #build()} once. Latencies are taken in µs ({@link #ABSENT}: none) or in ms (rounded to
   * the nearest µs; null: none); counts as ints or boxed (null: none). Not thread-safe; building
   * does not reset it.
   *
   * <p>The setters check what they are given: {@link IllegalArgumentException} for a latency that
   * is NaN, infinite or beyond {@link ItlSeries#MAX_ABS_MICROS} µs, or a count equal to {@code
   * Integer.MIN_VALUE}; {@link NullPointerException} for a null gap in {@link #itlMs}.
   */
  public static final class Builder {
    private String id;
    private String level;
    private long startMs;
    private long endMs;
    private long ttftMicros = ABSENT;
    private long tpotMicros = ABSENT;
    private long e2elMicros = ABSENT;
    private ItlSeries itl = ItlSeries.EMPTY;
    private int inputTokens = NO_INT;
    private int outputTokens = NO_INT;
    private int httpStatus = NO_INT;
    private boolean outputTokensEstimated;
    private boolean ok;
    private String error;
    private String profile;

    /** Each part's kept value, or null, by its place in {@code RecordParts.ALL}. */
    private final Object[] parts = new Object[RecordParts.ALL.size()];

    private Builder() {}

    /** The request id, unique within the run. */
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    /** The load level the request belongs to, e.g. {@code c128}; null for none. */
    public Builder level(String level) {
      this.level = level;
      return this;
    }

    /** t0: just before the request was sent, epoch ms. */
    public Builder startMs(long startMs) {
      this.startMs = startMs;
      return this;
    }

    /** When the request ended (last chunk, failure or timeout), epoch ms; used for concurrency. */
    public Builder endMs(long endMs) {
      this.endMs = endMs;
      return this;
    }

    /** Time to the first chunk carrying generated text, µs ({@link #ABSENT}: none). */
    public Builder ttftMicros(long micros) {
      this.ttftMicros = checkedMicros(micros, "ttft_ms");
      return this;
    }

    /** (e2el - ttft) / (output tokens - 1), µs; {@link #ABSENT} when output tokens <= 1. */
    public Builder tpotMicros(long micros) {
      this.tpotMicros = checkedMicros(micros, "tpot_ms");
      return this;
    }

    /** Arrival of the last chunk carrying text - t0, µs ({@link #ABSENT}: none). */
    public Builder e2elMicros(long micros) {
      this.e2elMicros = checkedMicros(micros, "e2el_ms");
      return this;
    }

    /** As {@link #ttftMicros}, in ms rounded to the µs; null: none. */
    public Builder ttftMs(Double ms) {
      this.ttftMicros = micros(ms, "ttft_ms");
      return this;
    }

    /** As {@link #tpotMicros}, in ms rounded to the µs; null: none. */
    public Builder tpotMs(Double ms) {
      this.tpotMicros = micros(ms, "tpot_ms");
      return this;
    }

    /** As {@link #e2elMicros}, in ms rounded to the µs; null: none. */
    public Builder e2elMs(Double ms) {
      this.e2elMicros = micros(ms, "e2el_ms");
      return this;
    }

    /** The gaps between consecutive chunks carrying text (per chunk, not per token); null: none. */
    public Builder itl(ItlSeries itl) {
      this.itl = itl == null ? ItlSeries.EMPTY : itl;
      return this;
    }

    /** As {@link #itl(ItlSeries)}, in ms (the same series when it already is one); null: none. */
    public Builder itlMs(List<Double> ms) {
      return itl(ItlSeries.ofMillis(ms));
    }

    /**
     * {@code usage.prompt_tokens}, or the local tokenizer's count ({@link #inputTokensFrom}); null
     * when the server sent no usage.
     */
    public Builder inputTokens(Integer n) {
      this.inputTokens = count(n, "input_tokens");
      return this;
    }

    /**
     * {@code usage.completion_tokens}, or a count of our own ({@link #outputTokensFrom}); null for
     * none (a failed request).
     */
    public Builder outputTokens(Integer n) {
      this.outputTokens = count(n, "output_tokens");
      return this;
    }

    /** Whether the output tokens are the text-chunk count (no usage chunk). */
    public Builder outputTokensEstimated(boolean estimated) {
      this.outputTokensEstimated = estimated;
      return this;
    }

    /** Whether the request completed: status 200, [DONE] received, no error event. */
    public Builder ok(boolean ok) {
      this.ok = ok;
      return this;
    }

    /** The short reason of a failure; null when ok. */
    public Builder error(String error) {
      this.error = error;
      return this;
    }

    /** The HTTP status. */
    public Builder httpStatus(int status) {
      this.httpStatus = count(status, "http_status");
      return this;
    }

    /** As {@link #httpStatus(int)}; null when unknown. */
    public Builder httpStatus(Integer status) {
      this.httpStatus = count(status, "http_status");
      return this;
    }

    /** The workload profile (SS, SL, LS, LL) of a profile run; null for none. */
    public Builder profile(String profile) {
      this.profile = profile;
      return this;
    }

    /**
     * Sets a part ({@link RecordPart}): its value, or null (or the value the part takes for none)
     * to have none.
     *
     * @throws IllegalArgumentException for a value the part cannot hold
     */
    public <V> Builder part(RecordPart<V> part, V value) {
      parts[part.index()] = part.kept(value);
      return this;
    }

    /**
     * The server's own timings of the request (llama.cpp's {@code timings}); null (and left out of
     * the line) when the server sent none, as vLLM.
     */
    public Builder serverTimings(ServerTimings timings) {
      return part(ServerTimings.PART, timings);
    }

    /** Its conversation and turn, or set send time, or injector; null for none. */
    public Builder origin(RequestOrigin origin) {
      return part(RequestOrigin.PART, origin);
    }

    /** What its stream said before the answer; null: it did not reason. */
    public Builder reasoning(Reasoning reasoning) {
      return part(Reasoning.PART, reasoning);
    }

    /**
     * The stream's last {@code finish_reason} ({@code length}, {@code stop}, {@code tool_calls},
     * ...); null: none said.
     */
    public Builder finishReason(String reason) {
      return part(FinishReasons.PART, reason);
    }

    /** Where it went ({@link Route#of}); null: the run's one server and model. */
    public Builder route(Route route) {
      return part(Route.PART, route);
    }

    /** The figures its endpoint's requests have; see {@link RequestRecord#figures()}. */
    public Builder figures(Figures figures) {
      return part(Pooling.PART, figures);
    }

    /** Where the input tokens came from: null for the server's usage, else {@link #TOKENIZER}. */
    public Builder inputTokensFrom(String from) {
      return part(TokensFrom.INPUT, from);
    }

    /**
     * Where the output tokens came from: null for the server's usage, else {@link #TOKENIZER} or
     * {@link #CHUNKS}.
     */
    public Builder outputTokensFrom(String from) {
      return part(TokensFrom.OUTPUT, from);
    }

    /** The record of the values set. */
    public RequestRecord build() {
      return new RequestRecord(this);
    }
  }

  private RequestRecord(Builder b) {
    String id = b.id;
    int cut = SharedTexts.numberStart(id);
    String prefix = cut < 0 ? null : SharedTexts.sharedPrefix(id.substring(0, cut));
    if (prefix != null) {
      this.idPrefix = prefix;
      this.idNumber = Long.parseLong(id, cut, id.length(), 10);
    } else {
      this.idPrefix = id;
      this.idNumber = -1;
    }
    this.level = SharedTexts.sharedLevel(b.level);
    this.startMs = b.startMs;
    this.endMs = b.endMs;
    this.ttftMicros = b.ttftMicros;
    this.tpotMicros = b.tpotMicros;
    this.e2elMicros = b.e2elMicros;
    this.itl = b.itl;
    this.inputTokens = b.inputTokens;
    this.outputTokens = b.outputTokens;
    this.outputTokensEstimated = b.outputTokensEstimated;
    this.ok = b.ok;
    this.error = SharedTexts.shared(b.error);
    this.httpStatus = b.httpStatus;
    this.profile = SharedTexts.shared(b.profile);
    this.partsHeld = RecordParts.held(b.parts);
    this.parts = RecordParts.compact(b.parts);
  }

  /** Its value for a part ({@link RecordPart}), null when it has none. */
  public <V> V part(RecordPart<V> part) {
    V value = part.valueIn(this);
    return value == null ? null : part.handedOut(value);
  }

  /** The value it holds for a part, as kept (not copied), or null. */
  @SuppressWarnings("unchecked") // what a part's slot holds was kept by that part
  <V> V heldPart(RecordPart<V> part) {
    return (V) RecordParts.slot(partsHeld, parts, part.index());
  }

  /** The server and model of a run that spreads its requests, or null. */
  public Route route() {
    return heldPart(Route.PART);
  }

  /**
   * The figures its endpoint's requests have: {@link Figures#GENERATED} (the default), or {@link
   * Figures#POOLED} for a pooling endpoint (embeddings), whose only latency is its E2EL (its TTFT
   * is the same, as vLLM sets it), with 0 output tokens.
   */
  public Figures figures() {
    Figures pooled = heldPart(Pooling.PART);
    return pooled == null ? Figures.GENERATED : pooled;
  }

  /** The stream's last {@code finish_reason}, null when it said none. */
  public String finishReason() {
    return heldPart(FinishReasons.PART);
  }

  /** What the stream said before its answer, null when it did not reason. */
  public Reasoning reasoning() {
    return heldPart(Reasoning.PART);
  }

  /** Where the input tokens came from: null for the server's usage, else {@link #TOKENIZER}. */
  public String inputTokensFrom() {
    return heldPart(TokensFrom.INPUT);
  }

  /**
   * Where the output tokens came from: null for the server's usage, else {@link #TOKENIZER} or
   * {@link #CHUNKS}.
   */
  public String outputTokensFrom() {
    return heldPart(TokensFrom.OUTPUT);
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

  /** The server's own timings of the request, null when it sent none. */
  public ServerTimings serverTimings() {
    return heldPart(ServerTimings.PART);
  }

  /** The conversation and turn, or the trace time; null when the request has neither. */
  public RequestOrigin origin() {
    return heldPart(RequestOrigin.PART);
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
        && partsHeld == r.partsHeld
        && sameParts(r)
        && itl.equals(r.itl);
  }

  private boolean sameParts(RequestRecord r) {
    for (RecordPart<?> part : RecordParts.ALL) {
      if (!samePart(part, r)) {
        return false;
      }
    }
    return true;
  }

  private <V> boolean samePart(RecordPart<V> part, RequestRecord r) {
    V mine = heldPart(part);
    return mine == null || part.same(mine, r.heldPart(part));
  }

  @Override
  public int hashCode() {
    // over the fields that tell records apart; equal records agree on them
    return Objects.hash(id(), level(), startMs, endMs, e2elMicros, ok, error);
  }

  @Override
  public String toString() {
    return String.format(
        "RequestRecord[id=%s, level=%s, startMs=%d, endMs=%d, ttftMs=%s, tpotMs=%s, e2elMs=%s,"
            + " itlMs=%s, inputTokens=%s, outputTokens=%s, outputTokensEstimated=%s, ok=%s,"
            + " error=%s, httpStatus=%s, profile=%s%s]",
        id(),
        level(),
        startMs,
        endMs,
        ttftMs(),
        tpotMs(),
        e2elMs(),
        itl,
        inputTokens(),
        outputTokens(),
        outputTokensEstimated,
        ok,
        error,
        httpStatus(),
        profile,
        partsText());
  }

  /** ", origin=..." for each part it has. */
  private String partsText() {
    StringBuilder text = new StringBuilder();
    for (RecordPart<?> part : RecordParts.ALL) {
      appendPart(text, part);
    }
    return text.toString();
  }

  private <V> void appendPart(StringBuilder text, RecordPart<V> part) {
    V value = part.valueIn(this);
    if (value != null) {
      text.append(", ").append(part).append('=').append(part.text(value));
    }
  }

  // ------------------------------------------------------------------ helpers

  private static long micros(Double ms, String what) {
    return ms == null ? ABSENT : ItlSeries.millisToMicros(ms, what);
  }

  /** The µs of a latency, checked: {@link #ABSENT}, or within {@link ItlSeries#MAX_ABS_MICROS}. */
  static long checkedMicros(long micros, String what) {
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
    return n == null ? NO_INT : count(n.intValue(), what);
  }

  private static int count(int n, String what) {
    if (n == NO_INT) {
      throw new IllegalArgumentException(what + " cannot be " + n);
    }
    return n;
  }

  private static Integer boxed(int n) {
    return n == NO_INT ? null : n;
  }
}
