package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
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
 * (on one line): the record's core, every field written, null or not; then the fields of each part
 * the record has ({@link RecordPart}: its origin, its reasoning, its route, ...), in the order of
 * {@link RecordParts#ALL}, each part's type documenting its own. Latencies are written as {@link
 * JsonOut} says: whole µs as ms with 1 to 3 decimals.
 *
 * <p>Reading is streaming (no tree per line) and strict about types ({@link JsonIn}). {@code
 * start_ms}, {@code end_ms} and {@code ok} are required; {@code itl_ms} may be missing or null (no
 * gaps) but not hold a null; a field of no part is skipped (a newer writer's).
 */
public final class RequestRecordJson {

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
      JsonOut out = new JsonOut(g, provider);
      g.writeStartObject();
      writeCore(r, out);
      for (RecordPart<?> part : RecordParts.ALL) {
        writePart(part, r, out);
      }
      g.writeEndObject();
    }

    private static void writeCore(RequestRecord r, JsonOut out) throws IOException {
      out.text("id", r.id());
      out.text("level", r.level());
      out.number("start_ms", r.startMs());
      out.number("end_ms", r.endMs());
      out.millis("ttft_ms", r.ttftMicros());
      out.millis("tpot_ms", r.tpotMicros());
      out.millis("e2el_ms", r.e2elMicros());
      out.name("itl_ms");
      ItlSeries itl = r.itlMs();
      out.startArray(itl, itl.size());
      ItlSeries.Cursor c = itl.cursor();
      while (c.hasNext()) {
        out.millis(c.nextMicros());
      }
      out.endArray();
      out.count("input_tokens", r.inputTokens());
      out.count("output_tokens", r.outputTokens());
      out.flag("output_tokens_estimated", r.outputTokensEstimated());
      out.flag("ok", r.ok());
      out.text("error", r.error());
      out.count("http_status", r.httpStatus());
      out.text("profile", r.profile());
    }

    private static <V> void writePart(RecordPart<V> part, RequestRecord r, JsonOut out)
        throws IOException {
      V value = part.valueIn(r);
      if (value != null) {
        part.write(value, out);
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

  /** The text of µs as ms, as written to the file, e.g. {@code "10.003"}. */
  public static String millisText(long micros) {
    char[] buf = new char[24];
    return new String(buf, 0, JsonOut.formatMillis(micros, buf));
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

  /** Each part's reader, by its place in {@link RecordParts#ALL} (null: a derived part). */
  private final RecordPart.Reader<?>[] partReaders = partReaders();

  // What the line read so far holds beyond its builder and its parts' readers: reset by startLine
  // for each line, so reading a line makes no holder of its own. Counts stay unboxed until the
  // end (MIN_VALUE: none).
  private RequestRecord.Builder record;
  private boolean hasStart;
  private boolean hasEnd;
  private boolean hasOk;
  private int input;
  private int output;
  private int status;

  private static RecordPart.Reader<?>[] partReaders() {
    List<RecordPart<?>> parts = RecordParts.ALL;
    RecordPart.Reader<?>[] readers = new RecordPart.Reader<?>[parts.size()];
    for (int i = 0; i < readers.length; i++) {
      readers[i] = parts.get(i).reader();
    }
    return readers;
  }

  private void startLine() {
    record = RequestRecord.builder();
    hasStart = false;
    hasEnd = false;
    hasOk = false;
    input = JsonIn.NO_INT;
    output = JsonIn.NO_INT;
    status = JsonIn.NO_INT;
    for (RecordPart.Reader<?> reader : partReaders) {
      if (reader != null) {
        reader.reset();
      }
    }
  }

  /** Reads one field's value, the parser at its first token {@code t}. */
  private void field(JsonParser p, String name, JsonToken t) throws IOException {
    switch (name) {
      case "id" -> record.id(JsonIn.text(p, t, name));
      case "level" -> record.level(JsonIn.text(p, t, name));
      case "start_ms" -> {
        hasStart = t != JsonToken.VALUE_NULL;
        record.startMs(hasStart ? JsonIn.longValue(p, t, name) : 0);
      }
      case "end_ms" -> {
        hasEnd = t != JsonToken.VALUE_NULL;
        record.endMs(hasEnd ? JsonIn.longValue(p, t, name) : 0);
      }
      case "ttft_ms" -> record.ttftMicros(JsonIn.micros(p, t, name));
      case "tpot_ms" -> record.tpotMicros(JsonIn.micros(p, t, name));
      case "e2el_ms" -> record.e2elMicros(JsonIn.micros(p, t, name));
      case "itl_ms" -> record.itl(itl(p, t));
      case "input_tokens" -> input = JsonIn.intOrAbsent(p, t, name);
      case "output_tokens" -> output = JsonIn.intOrAbsent(p, t, name);
      case "http_status" -> status = JsonIn.intOrAbsent(p, t, name);
      case "output_tokens_estimated" -> record.outputTokensEstimated(JsonIn.bool(t, name));
      case "ok" -> {
        hasOk = t != JsonToken.VALUE_NULL;
        record.ok(hasOk && JsonIn.bool(t, name));
      }
      case "error" -> record.error(JsonIn.text(p, t, name));
      case "profile" -> record.profile(JsonIn.text(p, t, name));
      default -> partField(p, name, t);
    }
  }

  /** A field of a part, read by its part; one of no part (a newer writer's) is skipped. */
  private void partField(JsonParser p, String name, JsonToken t) throws IOException {
    RecordPart<?> part = RecordParts.reading(name);
    if (part == null) {
      p.skipChildren();
    } else {
      partReaders[part.index()].read(name, p, t);
    }
  }

  /** The line's record, once its object has ended. */
  private RequestRecord endLine() {
    if (!hasStart) {
      throw JsonIn.missing("start_ms");
    }
    if (!hasEnd) {
      throw JsonIn.missing("end_ms");
    }
    if (!hasOk) {
      throw JsonIn.missing("ok");
    }
    if (input != JsonIn.NO_INT) {
      record.inputTokens(input);
    }
    if (output != JsonIn.NO_INT) {
      record.outputTokens(output);
    }
    if (status != JsonIn.NO_INT) {
      record.httpStatus(status);
    }
    for (int i = 0; i < partReaders.length; i++) {
      if (partReaders[i] != null) {
        setPart(RecordParts.ALL.get(i), partReaders[i]);
      }
    }
    RequestRecord read = record.build();
    record = null;
    return read;
  }

  @SuppressWarnings("unchecked") // partReaders[i] is RecordParts.ALL.get(i)'s own reader
  private <V> void setPart(RecordPart<V> part, RecordPart.Reader<?> reader) {
    V value = ((RecordPart.Reader<V>) reader).value();
    if (value != null) {
      record.part(part, value);
    }
  }

  private ItlSeries itl(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return ItlSeries.EMPTY;
    }
    if (t != JsonToken.START_ARRAY) {
      throw JsonIn.wrongType("itl_ms", "an array of numbers", t);
    }
    int n = 0;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == JsonToken.VALUE_NULL) {
        throw new IllegalArgumentException("itl_ms[" + n + "] is null");
      }
      if (n == itlScratch.length) {
        itlScratch = Arrays.copyOf(itlScratch, n * 2);
      }
      itlScratch[n] = JsonIn.micros(p, t, "itl_ms");
      n++;
    }
    return ItlSeries.ofMicros(itlScratch, n);
  }
}
