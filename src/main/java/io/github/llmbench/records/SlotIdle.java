package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * How long a request's virtual user's slot stood idle before it was sent: from the end of the
 * user's previous request to this one's t0, in µs. None for the user's first request, or a load
 * without such slots. The closed model's cost of the client between requests. Written to {@code
 * requests.jsonl} as {@code "slot_idle_ms"}, only where known.
 */
public final class SlotIdle {

  /**
   * A record's slot idle time in µs; set with {@code builder.part(PART, micros)}, {@link
   * RequestRecord#ABSENT} or null for none.
   */
  public static final RecordPart<Long> PART =
      new RecordPart.OneField<>("slot_idle_ms") {
        @Override
        Long kept(Long micros) {
          return micros == null || micros == RequestRecord.ABSENT
              ? null
              : RequestRecord.checkedMicros(micros, "slot idle time");
        }

        @Override
        Long read(JsonParser p, JsonToken t, String name) throws IOException {
          return JsonIn.micros(p, t, name);
        }

        @Override
        void writeValue(Long micros, JsonOut out) throws IOException {
          out.millis(micros);
        }
      };

  private SlotIdle() {}

  /** The record's slot idle time in µs, {@link RequestRecord#ABSENT} when unknown. */
  public static long micros(RequestRecord r) {
    Long micros = r.part(PART);
    return micros == null ? RequestRecord.ABSENT : micros;
  }
}
