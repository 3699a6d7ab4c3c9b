package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.endpoints.Figures;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parts of a record: each writes and reads its own fields, in the order of the one list. */
class RecordPartsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String CORE =
      "{\"id\":\"req-3\",\"level\":\"c4\",\"start_ms\":1700000000000,\"end_ms\":1700000000250,"
          + "\"ttft_ms\":null,\"tpot_ms\":null,\"e2el_ms\":null,\"itl_ms\":[],\"input_tokens\":40,"
          + "\"output_tokens\":null,\"output_tokens_estimated\":false,\"ok\":false,"
          + "\"error\":\"cancelled by the client after 250 ms\",\"http_status\":null,"
          + "\"profile\":\"SL\"";

  /** The core of a cancelled request: the one kind of record every part can be set on. */
  private static RequestRecord.Builder core() {
    return RequestRecord.builder()
        .id("req-3")
        .level("c4")
        .profile("SL")
        .startMs(1_700_000_000_000L)
        .endMs(1_700_000_000_250L)
        .inputTokens(40)
        .error(RequestRecord.CANCELLED + " after 250 ms");
  }

  /** Every part set, each field of each part where it has a choice. */
  private static RequestRecord everyPart() {
    RequestOrigin origin =
        new RequestOrigin(
            new RequestOrigin.Workload(
                "conv-2",
                3,
                1_250_500,
                1_234,
                new RequestOrigin.SessionPlace(
                    "agent#1", "merge", 2, List.of("q1", "q2"), 1, 1_699_999_999_000L)),
            new RequestOrigin.Sending(1, 2, 4_500),
            new RequestOrigin.Pairing(7, RequestOrigin.Side.B));
    return core()
        .serverTimings(new ServerTimings(40, 12.5, 0, null, null))
        .origin(origin)
        .inputTokensFrom(RequestRecord.TOKENIZER)
        .part(CachedTokens.PART, 32)
        .reasoning(new Reasoning(RequestRecord.ABSENT, 9, Reasoning.TOKENIZER))
        .outputTokensFrom(RequestRecord.CHUNKS)
        .finishReason("abort")
        .part(SlotIdle.PART, 213L)
        .part(ChunkTokenCounts.PART, new int[] {2, 1})
        .figures(Figures.POOLED)
        .route(Route.of("http://127.0.0.1:8001", "sql"))
        .build();
  }

  @Test
  void aRecordWithEveryPartIsWrittenInTheListsOrderAndReadBackByteForByte() throws Exception {
    RequestRecord r = everyPart();
    for (RecordPart<?> part : RecordParts.ALL) {
      assertNotNull(r.part(part), "set in this test: " + part);
    }
    String line = JSON.writeValueAsString(r);
    assertEquals(
        CORE
            + ",\"server_timings\":{\"prompt_n\":40,\"prompt_ms\":12.5,\"predicted_n\":0,"
            + "\"predicted_ms\":null,\"predicted_per_token_ms\":null},"
            + "\"conversation\":\"conv-2\",\"turn\":3,\"session\":\"agent#1\",\"call\":\"merge\","
            + "\"step\":2,\"parents\":[\"q1\",\"q2\"],\"round\":1,"
            + "\"session_start_ms\":1699999999000,\"trace_ms\":1250.5,\"sent_ms\":1.234,"
            + "\"trial\":2,\"injector\":1,\"pair\":7,\"side\":\"B\",\"client_queue_ms\":4.5,"
            + "\"input_tokens_from\":\"tokenizer\",\"cached_tokens\":32,\"ttfo_ms\":null,"
            + "\"reasoning_tokens\":9,\"reasoning_tokens_from\":\"tokenizer\","
            + "\"output_tokens_from\":\"chunks\",\"finish_reason\":\"abort\","
            + "\"slot_idle_ms\":0.213,\"chunk_tokens\":[2,1],\"cancelled\":true,\"pooling\":true,"
            + "\"endpoint\":\"http://127.0.0.1:8001\",\"model\":\"sql\"}",
        line);
    RequestRecord back = RequestsJsonl.parseLine(line, "mem", 1);
    assertEquals(r, back);
    assertEquals(line, JSON.writeValueAsString(back));
    assertEquals(r, JSON.readValue(line, RequestRecord.class));
    assertEquals(r, r.toBuilder().build(), "a copy holds every part");
  }

  @Test
  void aRecordWithNoPartIsItsCoreAndReadBackByteForByte() throws Exception {
    RequestRecord r = core().build();
    for (RecordPart<?> part : RecordParts.ALL) {
      if (part != Cancelled.PART) { // derived from the core's error: this core is a cancel
        assertNull(r.part(part), part.toString());
      }
    }
    String line = JSON.writeValueAsString(r);
    assertEquals(CORE + ",\"cancelled\":true}", line);
    RequestRecord back = RequestsJsonl.parseLine(line, "mem", 1);
    assertEquals(r, back);
    assertEquals(line, JSON.writeValueAsString(back));
    RequestRecord failed = core().error("HTTP 500").build();
    assertEquals(
        CORE.replace("cancelled by the client after 250 ms", "HTTP 500") + "}",
        JSON.writeValueAsString(failed));
    assertNull(failed.part(Cancelled.PART));
  }

  @Test
  void eachPartOfAnEveryPartRecordIsReadBackFromItsOwnFieldsAlone() throws Exception {
    RequestRecord every = everyPart();
    for (RecordPart<?> part : RecordParts.ALL) {
      if (part == Cancelled.PART) {
        continue;
      }
      RequestRecord one = core().part(cast(part), every.part(part)).build();
      RequestRecord back = RequestsJsonl.parseLine(JSON.writeValueAsString(one), "mem", 1);
      assertEquals(one, back, part.toString());
      for (RecordPart<?> other : RecordParts.ALL) {
        if (other != part && other != Cancelled.PART) {
          assertNull(back.part(other), part + " read as " + other);
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static RecordPart<Object> cast(RecordPart<?> part) {
    return (RecordPart<Object>) part;
  }

  @Test
  void everyFieldIsReadByOnePartAndNoPartReadsACoreField() throws Exception {
    Set<String> core = new HashSet<>();
    JSON.readTree(CORE + "}").fieldNames().forEachRemaining(core::add);
    Set<String> seen = new HashSet<>();
    List<String> clashes = new ArrayList<>();
    for (int i = 0; i < RecordParts.ALL.size(); i++) {
      RecordPart<?> part = RecordParts.ALL.get(i);
      assertEquals(i, part.index());
      for (String field : part.fields()) {
        if (core.contains(field) || !seen.add(field)) {
          clashes.add(part + ": " + field);
        }
        assertEquals(part, RecordParts.reading(field));
      }
    }
    assertEquals(List.of(), clashes);
    assertNull(RecordParts.reading("id"));
  }

  @Test
  void aPartKeepsWhatItsSetterChecksAndCopies() {
    assertNull(core().part(SlotIdle.PART, RequestRecord.ABSENT).build().part(SlotIdle.PART));
    assertEquals(RequestRecord.ABSENT, SlotIdle.micros(core().build()));
    assertThrows(
        IllegalArgumentException.class,
        () -> core().part(SlotIdle.PART, ItlSeries.MAX_ABS_MICROS + 1));
    assertThrows(
        IllegalArgumentException.class, () -> core().part(CachedTokens.PART, Integer.MIN_VALUE));
    assertThrows(UnsupportedOperationException.class, () -> core().part(Cancelled.PART, true));
    assertNull(core().figures(Figures.GENERATED).build().part(Pooling.PART));
    int[] counts = {1, 2};
    RequestRecord r = core().part(ChunkTokenCounts.PART, counts).build();
    counts[0] = 9;
    ChunkTokenCounts.of(r)[1] = 9;
    assertArrayEquals(new int[] {1, 2}, ChunkTokenCounts.of(r), "copied in and out");
    assertEquals(r, core().part(ChunkTokenCounts.PART, new int[] {1, 2}).build());
    assertNotEquals(r, core().part(ChunkTokenCounts.PART, new int[] {1, 3}).build());
    assertTrue(r.toString().contains(", chunk_tokens=[1, 2], cancelled=true"), r.toString());
  }
}
