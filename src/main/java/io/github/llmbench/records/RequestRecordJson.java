package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.github.llmbench.endpoints.Figures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The JSON form of a {@link RequestRecord}, one object per line of {@code llm/requests.jsonl}:
 *
 * <pre>
 * {"id":"req-1","level":"c64","start_ms":1700000000000,"end_ms":1700000001300,
 *  "ttft_ms":20.123,"tpot_ms":10.01,"e2el_ms":1290.5,"itl_ms":[10.003,9.998,10.0],
 *  "input_tokens":1024,"output_tokens":128,"output_tokens_estimated":false,"ok":true,
 *  "error":null,"http_status":200,"profile":null}
 * </pre>
 *
 * (on one line), plus {@code "server_timings":{...}} when the server sent some, and {@code
 * "conversation"}, {@code "turn"} (multi-turn runs), {@code "session"}, {@code "call"}, {@code
 * "step"}, {@code "parents"}, {@code "round"}, {@code "session_start_ms"} (agent sessions) or
 * {@code "trace_ms"}, {@code "sent_ms"} (trace replays), {@code "cached_tokens"} (the prompt tokens
 * the server's prefix cache served, where it said), {@code "client_queue_ms"} (a {@code -Dmax.conc}
 * wait) where the request has them ({@link RequestOrigin}), {@code "slot_idle_ms"} (how long its
 * virtual user's slot stood idle before it was sent, closed model), and {@code "endpoint"}, {@code
 * "model"} in a run over several servers or models ({@link Route}). Every other field is written,
 * null or not. Latencies are whole µs written as ms with at most 3 decimals and at least one
 * ({@code 10.0}, {@code 10.03}, {@code 10.003}): the decimal text of the integer, so no double
 * formatting noise such as {@code 10.003000000000002}.
 *
 * <p>Reading is streaming (no tree per line) and strict about types: integers for {@code start_ms},
 * {@code end_ms}, the token counts and the status; numbers or null for latencies; strings or null
 * for texts; true/false for the flags. {@code start_ms}, {@code end_ms} and {@code ok} are
 * required; {@code itl_ms} may be missing or null (no gaps) but not hold a null; unknown fields are
 * skipped. A latency with up to 3 decimals is read without {@code Double.parseDouble} (it is exact
 * in µs); others (older files, exponents) are parsed and rounded to the nearest µs.
 */
public final class RequestRecordJson {

  /** Returned by {@link #parseMillis} for a text it does not read itself. */
  private static final long NOT_SIMPLE = Long.MIN_VALUE + 1;

  /** Reused between the records of one reader: the gaps of the record being read, in µs. */
  private long[] itlScratch = new long[256];

  /** Writes the record as one JSON object. */
  public static final class Serializer extends StdSerializer<RequestRecord> {
    public Serializer() {
      super(RequestRecord.class);
    }

    @Override
    public void serialize(RequestRecord r, JsonGenerator g, SerializerProvider provider)
        throws IOException {
      char[] buf = new char[24];
      g.writeStartObject();
      g.writeStringField("id", r.id());
      g.writeStringField("level", r.level());
      g.writeNumberField("start_ms", r.startMs());
      g.writeNumberField("end_ms", r.endMs());
      g.writeFieldName("ttft_ms");
      writeMillis(g, r.ttftMicros(), buf);
      g.writeFieldName("tpot_ms");
      writeMillis(g, r.tpotMicros(), buf);
      g.writeFieldName("e2el_ms");
      writeMillis(g, r.e2elMicros(), buf);
      g.writeFieldName("itl_ms");
      ItlSeries itl = r.itlMs();
      g.writeStartArray(itl, itl.size());
      ItlSeries.Cursor c = itl.cursor();
      while (c.hasNext()) {
        writeMillis(g, c.nextMicros(), buf);
      }
      g.writeEndArray();
      writeInt(g, "input_tokens", r.inputTokens());
      writeInt(g, "output_tokens", r.outputTokens());
      g.writeBooleanField("output_tokens_estimated", r.outputTokensEstimated());
      g.writeBooleanField("ok", r.ok());
      g.writeStringField("error", r.error());
      writeInt(g, "http_status", r.httpStatus());
      g.writeStringField("profile", r.profile());
      if (r.serverTimings() != null) {
        provider.defaultSerializeField("server_timings", r.serverTimings(), g);
      }
      if (r.origin() != null) {
        writeOrigin(g, r.origin(), buf);
      }
      writeOptionalFields(g, r, buf);
      g.writeEndObject();
    }

    /** The origin's fields that it has, in the file's order. */
    private static void writeOrigin(JsonGenerator g, RequestOrigin origin, char[] buf)
        throws IOException {
      if (origin.conversation() != null) {
        g.writeStringField("conversation", origin.conversation());
      }
      if (origin.turn() > 0) {
        g.writeNumberField("turn", origin.turn());
      }
      RequestOrigin.SessionPlace call = origin.sessionPlace();
      if (call != null) {
        g.writeStringField("session", call.session());
        g.writeStringField("call", call.call());
        g.writeNumberField("step", call.step());
        g.writeArrayFieldStart("parents");
        for (String parent : call.parents()) {
          g.writeString(parent);
        }
        g.writeEndArray();
        if (call.round() > 0) {
          g.writeNumberField("round", call.round());
        }
        if (call.sessionStartMs() != RequestRecord.ABSENT) {
          g.writeNumberField("session_start_ms", call.sessionStartMs());
        }
      }
      if (origin.traceMicros() != RequestRecord.ABSENT) {
        g.writeFieldName("trace_ms");
        writeMillis(g, origin.traceMicros(), buf);
      }
      if (origin.sentMicros() != RequestRecord.ABSENT) {
        g.writeFieldName("sent_ms");
        writeMillis(g, origin.sentMicros(), buf);
      }
      if (origin.trial() > 0) {
        g.writeNumberField("trial", origin.trial());
      }
      if (origin.injector() >= 0) {
        g.writeNumberField("injector", origin.injector());
      }
      if (origin.pairing().pair() > 0) {
        g.writeNumberField("pair", origin.pairing().pair());
        g.writeStringField("side", origin.pairing().side().name());
      }
      if (origin.queueMicros() != RequestRecord.ABSENT) {
        g.writeFieldName("client_queue_ms");
        writeMillis(g, origin.queueMicros(), buf);
      }
    }

    /** The fields written only where the record has them, after its origin. */
    private static void writeOptionalFields(JsonGenerator g, RequestRecord r, char[] buf)
        throws IOException {
      if (r.inputTokensFrom() != null) {
        g.writeStringField("input_tokens_from", r.inputTokensFrom());
      }
      if (r.cachedTokens() != null) {
        g.writeNumberField("cached_tokens", r.cachedTokens());
      }
      Reasoning reasoning = r.reasoning();
      if (reasoning != null) {
        g.writeFieldName("ttfo_ms");
        if (reasoning.ttfoMicros() == RequestRecord.ABSENT) {
          g.writeNull();
        } else {
          writeMillis(g, reasoning.ttfoMicros(), buf);
        }
        g.writeNumberField("reasoning_tokens", reasoning.tokens());
        g.writeStringField("reasoning_tokens_from", reasoning.tokensFrom());
      }
      if (r.outputTokensFrom() != null) {
        g.writeStringField("output_tokens_from", r.outputTokensFrom());
      }
      if (r.finishReason() != null) {
        g.writeStringField("finish_reason", r.finishReason());
      }
      if (r.slotIdleMicros() != RequestRecord.ABSENT) {
        g.writeFieldName("slot_idle_ms");
        writeMillis(g, r.slotIdleMicros(), buf);
      }
      int[] chunkTokens = r.chunkTokens();
      if (chunkTokens != null) {
        g.writeFieldName("chunk_tokens");
        g.writeArray(chunkTokens, 0, chunkTokens.length);
      }
      if (r.cancelled()) {
        g.writeBooleanField("cancelled", true);
      }
      if (r.figures() == Figures.POOLED) { // the file's word for it, as before the type
        g.writeBooleanField("pooling", true);
      }
      if (r.route() != null) {
        if (r.route().endpoint() != null) {
          g.writeStringField("endpoint", r.route().endpoint());
        }
        if (r.route().model() != null) {
          g.writeStringField("model", r.route().model());
        }
      }
    }

    private static void writeInt(JsonGenerator g, String name, Integer v) throws IOException {
      g.writeFieldName(name);
      if (v == null) {
        g.writeNull();
      } else {
        g.writeNumber(v.intValue());
      }
    }
  }

  /** Reads one record, for an ObjectMapper's {@code readValue(..., RequestRecord.class)}. */
  public static final class Deserializer extends StdDeserializer<RequestRecord> {
    public Deserializer() {
      super(RequestRecord.class);
    }

    @Override
    public RequestRecord deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      try {
        return new RequestRecordJson().read(p);
      } catch (IllegalArgumentException e) {
        throw JsonMappingException.from(p, e.getMessage(), e);
      }
    }
  }

  /** µs as ms with 3 decimals at most (null for {@link RequestRecord#ABSENT}). */
  static void writeMillis(JsonGenerator g, long micros, char[] buf) throws IOException {
    if (micros == RequestRecord.ABSENT) {
      g.writeNull();
      return;
    }
    int len = formatMillis(micros, buf);
    g.writeNumber(buf, 0, len);
  }

  /**
   * Writes µs as a decimal number of ms into {@code buf} (24 chars are enough): the integer part, a
   * point, and the fraction without trailing zeros but with at least one digit.
   *
   * @return the number of chars written
   */
  static int formatMillis(long micros, char[] buf) {
    // |micros| <= 2^52 (ItlSeries.MAX_ABS_MICROS), so the negation below cannot overflow
    long abs = Math.abs(micros);
    long whole = abs / 1000;
    int frac = (int) (abs % 1000);
    int pos = buf.length;
    int fracDigits = 3;
    while (fracDigits > 1 && frac % 10 == 0) {
      frac /= 10;
      fracDigits--;
    }
    for (int i = 0; i < fracDigits; i++) {
      buf[--pos] = (char) ('0' + frac % 10);
      frac /= 10;
    }
    buf[--pos] = '.';
    do {
      buf[--pos] = (char) ('0' + whole % 10);
      whole /= 10;
    } while (whole > 0);
    if (micros < 0) {
      buf[--pos] = '-';
    }
    int len = buf.length - pos;
    System.arraycopy(buf, pos, buf, 0, len);
    return len;
  }

  /** The text of µs as ms, as written to the file, e.g. {@code "10.003"}. */
  public static String millisText(long micros) {
    char[] buf = new char[24];
    return new String(buf, 0, formatMillis(micros, buf));
  }

  // ------------------------------------------------------------------ reading

  /**
   * Reads the object the parser is at ({@link JsonToken#START_OBJECT}, already the current token),
   * leaving the parser at its {@link JsonToken#END_OBJECT}.
   *
   * @throws IOException when the JSON itself is broken
   * @throws IllegalArgumentException for a missing required field or a value of the wrong type
   */
  RequestRecord read(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("not a JSON object");
    }
    startLine();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      field(p, name, p.nextToken());
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IllegalArgumentException("unexpected " + t + " in the object");
    }
    return endLine();
  }

  // What the line read so far holds beyond its builder: reset by startLine for each line, so
  // reading a line makes no holder of its own. Counts stay unboxed until the end (MIN_VALUE: none).
  private RequestRecord.Builder record;
  private boolean hasStart;
  private boolean hasEnd;
  private boolean hasOk;
  private int input;
  private int output;
  private int status;
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
  private boolean reasoned;
  private long ttfoMicros;
  private int reasoningTokens;
  private String reasoningFrom;
  private String endpoint;
  private String model;

  private void startLine() {
    record = RequestRecord.builder();
    hasStart = false;
    hasEnd = false;
    hasOk = false;
    input = Integer.MIN_VALUE;
    output = Integer.MIN_VALUE;
    status = Integer.MIN_VALUE;
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
    reasoned = false;
    ttfoMicros = RequestRecord.ABSENT;
    reasoningTokens = 0;
    reasoningFrom = null;
    endpoint = null;
    model = null;
  }

  /** Reads one field's value, the parser at its first token {@code t}. */
  private void field(JsonParser p, String name, JsonToken t) throws IOException {
    switch (name) {
      case "id" -> record.id(text(p, t, name));
      case "level" -> record.level(text(p, t, name));
      case "start_ms" -> {
        hasStart = t != JsonToken.VALUE_NULL;
        record.startMs(hasStart ? longValue(p, t, name) : 0);
      }
      case "end_ms" -> {
        hasEnd = t != JsonToken.VALUE_NULL;
        record.endMs(hasEnd ? longValue(p, t, name) : 0);
      }
      case "ttft_ms" -> record.ttftMicros(micros(p, t, name));
      case "tpot_ms" -> record.tpotMicros(micros(p, t, name));
      case "e2el_ms" -> record.e2elMicros(micros(p, t, name));
      case "itl_ms" -> record.itl(itl(p, t));
      case "input_tokens" -> input = intOrAbsent(p, t, name);
      case "output_tokens" -> output = intOrAbsent(p, t, name);
      case "http_status" -> status = intOrAbsent(p, t, name);
      case "output_tokens_estimated" -> record.outputTokensEstimated(bool(t, name));
      case "ok" -> {
        hasOk = t != JsonToken.VALUE_NULL;
        record.ok(hasOk && bool(t, name));
      }
      case "error" -> record.error(text(p, t, name));
      case "profile" -> record.profile(text(p, t, name));
      case "server_timings" ->
          record.serverTimings(
              t == JsonToken.VALUE_NULL ? null : p.readValueAs(ServerTimings.class));
      case "conversation" -> conversation = text(p, t, name);
      case "turn" -> turn = intOr(p, t, name, 0);
      case "session" -> session = text(p, t, name);
      case "call" -> call = text(p, t, name);
      case "step" -> step = intOr(p, t, name, 0);
      case "parents" -> parents = texts(p, t, name);
      case "round" -> round = intOr(p, t, name, 0);
      case "session_start_ms" -> sessionStartMs = longValue(p, t, name);
      case "trace_ms" -> traceMicros = micros(p, t, name);
      case "sent_ms" -> sentMicros = micros(p, t, name);
      case "client_queue_ms" -> queueMicros = micros(p, t, name);
      case "ttfo_ms" -> {
        ttfoMicros = micros(p, t, name);
        reasoned = true;
      }
      case "reasoning_tokens" -> {
        reasoningTokens = intOr(p, t, name, 0);
        reasoned = true;
      }
      case "reasoning_tokens_from" -> reasoningFrom = text(p, t, name);
      case "finish_reason" -> record.finishReason(text(p, t, name));
      case "chunk_tokens" -> record.chunkTokens(ints(p, t, name));
      case "slot_idle_ms" -> record.slotIdleMicros(micros(p, t, name));
      case "pooling" -> record.figures(bool(t, name) ? Figures.POOLED : Figures.GENERATED);
      case "endpoint" -> endpoint = text(p, t, name);
      case "model" -> model = text(p, t, name);
      case "input_tokens_from" -> record.inputTokensFrom(text(p, t, name));
      case "cached_tokens" -> {
        int cached = intOrAbsent(p, t, name);
        record.cachedTokens(cached == Integer.MIN_VALUE ? null : cached);
      }
      case "output_tokens_from" -> record.outputTokensFrom(text(p, t, name));
      case "injector" -> injector = intOr(p, t, name, -1);
      case "trial" -> trial = intOr(p, t, name, 0);
      case "pair" -> pair = intOr(p, t, name, 0);
      case "side" -> side = text(p, t, name);
      default -> p.skipChildren(); // a field of a newer writer
    }
  }

  /** An A/B record's pair and side; none when the line has no pair or a side of no A/B run. */
  private static RequestOrigin.Pairing pairing(int pair, String side) {
    if (pair < 1 || !("A".equals(side) || "B".equals(side))) {
      return RequestOrigin.Pairing.NONE;
    }
    return new RequestOrigin.Pairing(pair, RequestOrigin.Side.valueOf(side));
  }

  /** The line's record, once its object has ended. */
  private RequestRecord endLine() {
    if (!hasStart) {
      throw missing("start_ms");
    }
    if (!hasEnd) {
      throw missing("end_ms");
    }
    if (!hasOk) {
      throw missing("ok");
    }
    if (input != Integer.MIN_VALUE) {
      record.inputTokens(input);
    }
    if (output != Integer.MIN_VALUE) {
      record.outputTokens(output);
    }
    if (status != Integer.MIN_VALUE) {
      record.httpStatus(status);
    }
    if (conversation != null
        || turn > 0
        || session != null
        || traceMicros != RequestRecord.ABSENT
        || sentMicros != RequestRecord.ABSENT
        || injector >= 0
        || trial > 0
        || pair > 0
        || queueMicros != RequestRecord.ABSENT) {
      record.origin(
          new RequestOrigin(
              new RequestOrigin.Workload(
                  conversation,
                  turn,
                  traceMicros,
                  sentMicros,
                  session == null
                      ? null
                      : new RequestOrigin.SessionPlace(
                          session, call, step, parents, round, sessionStartMs)),
              new RequestOrigin.Sending(injector, trial, queueMicros),
              pairing(pair, side)));
    }
    if (reasoned) {
      record.reasoning(
          new Reasoning(
              ttfoMicros,
              reasoningTokens,
              reasoningFrom == null ? Reasoning.CHUNKS : reasoningFrom));
    }
    RequestRecord read = record.route(Route.of(endpoint, model)).build();
    record = null;
    return read;
  }

  /** An array of whole numbers, or null. */
  private static int[] ints(JsonParser p, JsonToken t, String name) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_ARRAY) {
      throw wrongType(name, "an array of whole numbers", t);
    }
    int[] out = new int[16];
    int n = 0;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw wrongType(name + "[" + n + "]", "a whole number", t);
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = p.getIntValue();
    }
    return Arrays.copyOf(out, n);
  }

  private ItlSeries itl(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return ItlSeries.EMPTY;
    }
    if (t != JsonToken.START_ARRAY) {
      throw wrongType("itl_ms", "an array of numbers", t);
    }
    int n = 0;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == JsonToken.VALUE_NULL) {
        throw new IllegalArgumentException("itl_ms[" + n + "] is null");
      }
      if (n == itlScratch.length) {
        itlScratch = Arrays.copyOf(itlScratch, n * 2);
      }
      itlScratch[n] = micros(p, t, "itl_ms");
      n++;
    }
    return ItlSeries.ofMicros(itlScratch, n);
  }

  private static long micros(JsonParser p, JsonToken t, String name) throws IOException {
    switch (t) {
      case VALUE_NULL:
        return RequestRecord.ABSENT;
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        long us = parseMillis(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        return us != NOT_SIMPLE ? us : ItlSeries.millisToMicros(p.getDoubleValue(), name);
      default:
        throw wrongType(name, "a number of ms", t);
    }
  }

  /**
   * A JSON number of ms as µs when it has at most 15 integer digits and at most 3 decimals, no
   * exponent (what this class writes): the exact value, which is also {@code Math.round(parsed *
   * 1000)} for any duration below a year (far beyond, the double's own rounding can be off by
   * ulps). Anything else gives {@link #NOT_SIMPLE}.
   */
  static long parseMillis(char[] s, int off, int len) {
    int i = off;
    int end = off + len;
    boolean negative = i < end && s[i] == '-';
    if (negative) {
      i++;
    }
    long whole = 0;
    int wholeDigits = 0;
    while (i < end && s[i] >= '0' && s[i] <= '9') {
      whole = whole * 10 + (s[i++] - '0');
      if (++wholeDigits > 15) {
        return NOT_SIMPLE;
      }
    }
    if (wholeDigits == 0) {
      return NOT_SIMPLE;
    }
    long frac = 0;
    int fracDigits = 0;
    if (i < end && s[i] == '.') {
      i++;
      while (i < end && s[i] >= '0' && s[i] <= '9') {
        if (++fracDigits > 3) {
          return NOT_SIMPLE;
        }
        frac = frac * 10 + (s[i++] - '0');
      }
      if (fracDigits == 0) {
        return NOT_SIMPLE;
      }
    }
    if (i != end) {
      return NOT_SIMPLE; // an exponent
    }
    for (int k = fracDigits; k < 3; k++) {
      frac *= 10;
    }
    long us = whole * 1000 + frac;
    if (us > ItlSeries.MAX_ABS_MICROS) {
      return NOT_SIMPLE; // let millisToMicros reject it with its message
    }
    return negative ? -us : us;
  }

  private static List<String> texts(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.START_ARRAY) {
      throw wrongType(name, "an array of strings", t);
    }
    List<String> out = new ArrayList<>();
    JsonToken e;
    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
      if (e != JsonToken.VALUE_STRING) {
        throw wrongType(name, "an array of strings", e);
      }
      out.add(p.getText());
    }
    return List.copyOf(out);
  }

  private static String text(JsonParser p, JsonToken t, String name) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_STRING) {
      throw wrongType(name, "a string", t);
    }
    return p.getText();
  }

  private static long longValue(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "an integer", t);
    }
    return p.getLongValue();
  }

  private static int intOrAbsent(JsonParser p, JsonToken t, String name) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return Integer.MIN_VALUE;
    }
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "an integer", t);
    }
    int v = p.getIntValue();
    if (v == Integer.MIN_VALUE) {
      throw new IllegalArgumentException("field '" + name + "' cannot be " + v);
    }
    return v;
  }

  /** An integer field's value, {@code none} for null. */
  private static int intOr(JsonParser p, JsonToken t, String name, int none) throws IOException {
    int v = intOrAbsent(p, t, name);
    return v == Integer.MIN_VALUE ? none : v;
  }

  private static boolean bool(JsonToken t, String name) {
    if (t == JsonToken.VALUE_TRUE) {
      return true;
    }
    if (t == JsonToken.VALUE_FALSE) {
      return false;
    }
    throw wrongType(name, "true or false", t);
  }

  private static IllegalArgumentException missing(String field) {
    return new IllegalArgumentException("missing field '" + field + "'");
  }

  private static IllegalArgumentException wrongType(String field, String expected, JsonToken t) {
    return new IllegalArgumentException(
        "field '" + field + "' must be " + expected + ", not " + describe(t));
  }

  private static String describe(JsonToken t) {
    return switch (t) {
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      default -> String.valueOf(t);
    };
  }
}
