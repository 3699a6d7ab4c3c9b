package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-request formulas on hand-made timestamp sequences. */
class RequestRecordsTest {

  @Test
  void oneTokenPerChunk() {
    // t0 = 1000; chunks at 1100, 1120, 1150, 1160 -> TTFT 100, ITL 20/30/10, E2EL 160, TPOT 60/3
    ParsedStream s = new ParsedStream(List.of(1100L, 1120L, 1150L, 1160L), 50, 4, true, null);
    RequestRecord r = RequestRecords.of("r1", "c1", 1000, 1170, s, null, null);
    assertTrue(r.ok());
    assertEquals(100.0, r.ttftMs());
    assertEquals(160.0, r.e2elMs());
    assertEquals(List.of(20.0, 30.0, 10.0), r.itlMs());
    assertEquals(20.0, r.tpotMs(), 1e-9);
    assertEquals(4, r.outputTokens());
    assertEquals(50, r.inputTokens());
    assertFalse(r.outputTokensEstimated());
    assertEquals(1170, r.endMs());
    assertEquals(200, r.httpStatus());
  }

  @Test
  void multiTokenChunksUseUsageForTpot() {
    // 3 chunks but 7 tokens: TPOT = (E2EL - TTFT) / 6, ITL stays per chunk
    ParsedStream s = new ParsedStream(List.of(1050L, 1080L, 1110L), 10, 7, true, null);
    RequestRecord r = RequestRecords.of("r2", "c1", 1000, 1110, s, null, null);
    assertEquals(50.0, r.ttftMs());
    assertEquals(110.0, r.e2elMs());
    assertEquals(10.0, r.tpotMs(), 1e-9);
    assertEquals(List.of(30.0, 30.0), r.itlMs());
    assertEquals(r.e2elMs(), r.ttftMs() + (r.outputTokens() - 1) * r.tpotMs(), 1e-9);
  }

  @Test
  void oneTokenOutputHasNoTpot() {
    ParsedStream s = new ParsedStream(List.of(1200L), 10, 1, true, null);
    RequestRecord r = RequestRecords.of("r3", "c1", 1000, 1201, s, null, null);
    assertTrue(r.ok());
    assertNull(r.tpotMs());
    assertEquals(200.0, r.ttftMs());
    assertEquals(200.0, r.e2elMs());
    assertEquals(List.of(), r.itlMs());
  }

  @Test
  void missingUsageCountsChunksAsEstimated() {
    ParsedStream s = new ParsedStream(List.of(1010L, 1020L, 1030L), null, null, true, null);
    RequestRecord r = RequestRecords.of("r4", "c1", 1000, 1030, s, null, null);
    assertEquals(3, r.outputTokens());
    assertTrue(r.outputTokensEstimated());
    assertNull(r.inputTokens());
    assertEquals(10.0, r.tpotMs(), 1e-9);
  }

  @Test
  void failuresCarryNoLatency() {
    ParsedStream s = new ParsedStream(List.of(1010L), null, null, false, "error event: boom");
    RequestRecord r = RequestRecords.of("r5", "c1", 1000, 1500, s, null, 200);
    assertFalse(r.ok());
    assertEquals("error event: boom", r.error());
    assertNull(r.ttftMs());
    assertNull(r.e2elMs());
    assertEquals(List.of(), r.itlMs());
    RequestRecord http = RequestRecords.of("r6", "c1", 1000, 1001, s, "HTTP 500", 500);
    assertEquals("HTTP 500", http.error());
    assertEquals(500, http.httpStatus());
  }

  @Test
  void noTextIsAFailure() {
    ParsedStream s = new ParsedStream(List.of(), 5, 0, true, null);
    RequestRecord r = RequestRecords.of("r7", "c1", 1000, 1100, s, null, null);
    assertFalse(r.ok());
    assertEquals("no generated text in the stream", r.error());
  }
}
