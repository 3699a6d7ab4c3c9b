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

  /** nanoTime readings at these milliseconds */
  private static long[] ns(long... ms) {
    long[] out = new long[ms.length];
    for (int i = 0; i < ms.length; i++) {
      out[i] = ms(ms[i]);
    }
    return out;
  }

  private static long ms(long ms) {
    return ms * 1_000_000L;
  }

  @Test
  void timesAreFractionalMillisecondsToTheMicrosecond() {
    // t0 = 0; chunks at 10.0004, 17.3006, 24.6 ms -> TTFT 10.000; offsets from the first chunk
    // 7.3002 and 14.5996 ms, rounded to 7.300 and 14.600: ITL 7.3 and 7.3, E2EL = TTFT + their sum
    long[] arrivals = {10_000_400L, 17_300_600L, 24_600_000L};
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("f", "c1", null, 0L),
            25_000_000L,
            new ParsedStream(arrivals, 3, 3, 3, true, null),
            null,
            200,
            null);
    assertEquals(10.0, r.ttftMs());
    assertEquals(List.of(7.3, 7.3), r.itlMs());
    assertEquals(24.6, r.e2elMs());
    assertEquals(7.3, r.tpotMs(), 1e-12);
    assertEquals(r.startMs() + 25, r.endMs(), 1, "end_ms on the wall clock, whole ms");
  }

  @Test
  void aFailureNeverEndsBeforeItStarted() {
    // the end's clock reading may precede t0's in whole ms: a failed record's end is its start then
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("f", "c1", null, ms(1000)),
            ms(900),
            new ParsedStream(new long[0], null, null, false, null),
            "HTTP 503",
            503,
            null);
    assertEquals(r.startMs(), r.endMs());
    assertEquals("HTTP 503", r.error());
  }

  @Test
  void oneTokenPerChunk() {
    // t0 = 1000; chunks at 1100, 1120, 1150, 1160 -> TTFT 100, ITL 20/30/10, E2EL 160, TPOT 60/3
    ParsedStream s = new ParsedStream(ns(1100, 1120, 1150, 1160), 50, 4, true, null);
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r1", "c1", null, ms(1000)), ms(1170), s, null, null, null);
    assertTrue(r.ok());
    assertEquals(100.0, r.ttftMs());
    assertEquals(160.0, r.e2elMs());
    assertEquals(List.of(20.0, 30.0, 10.0), r.itlMs());
    assertEquals(20.0, r.tpotMs(), 1e-9);
    assertEquals(4, r.outputTokens());
    assertEquals(50, r.inputTokens());
    assertFalse(r.outputTokensEstimated());
    assertEquals(r.startMs() + 170, r.endMs(), 1);
    assertEquals(200, r.httpStatus());
  }

  @Test
  void multiTokenChunksUseUsageForTpot() {
    // 3 chunks but 7 tokens: TPOT = (E2EL - TTFT) / 6, ITL stays per chunk
    ParsedStream s = new ParsedStream(ns(1050, 1080, 1110), 10, 7, true, null);
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r2", "c1", null, ms(1000)), ms(1110), s, null, null, null);
    assertEquals(50.0, r.ttftMs());
    assertEquals(110.0, r.e2elMs());
    assertEquals(10.0, r.tpotMs(), 1e-9);
    assertEquals(List.of(30.0, 30.0), r.itlMs());
    assertEquals(r.e2elMs(), r.ttftMs() + (r.outputTokens() - 1) * r.tpotMs(), 1e-9);
  }

  @Test
  void oneTokenOutputHasNoTpot() {
    ParsedStream s = new ParsedStream(ns(1200), 10, 1, true, null);
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r3", "c1", null, ms(1000)), ms(1201), s, null, null, null);
    assertTrue(r.ok());
    assertNull(r.tpotMs());
    assertEquals(200.0, r.ttftMs());
    assertEquals(200.0, r.e2elMs());
    assertEquals(List.of(), r.itlMs());
  }

  @Test
  void missingUsageCountsChunksAsEstimated() {
    ParsedStream s = new ParsedStream(ns(1010, 1020, 1030), null, null, true, null);
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r4", "c1", null, ms(1000)), ms(1030), s, null, null, null);
    assertEquals(3, r.outputTokens());
    assertTrue(r.outputTokensEstimated());
    assertNull(r.inputTokens());
    assertEquals(10.0, r.tpotMs(), 1e-9);
  }

  @Test
  void failuresCarryNoLatency() {
    ParsedStream s = new ParsedStream(ns(1010), null, null, false, "error event: boom");
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r5", "c1", null, ms(1000)), ms(1500), s, null, 200, null);
    assertFalse(r.ok());
    assertEquals("error event: boom", r.error());
    assertNull(r.ttftMs());
    assertNull(r.e2elMs());
    assertEquals(List.of(), r.itlMs());
    RequestRecord http =
        RequestRecords.of(
            new RequestRecords.Sent("r6", "c1", null, ms(1000)),
            ms(1001),
            s,
            "HTTP 500",
            500,
            null);
    assertEquals("HTTP 500", http.error());
    assertEquals(500, http.httpStatus());
  }

  @Test
  void noTextIsAFailure() {
    ParsedStream s = new ParsedStream(new long[0], 5, 0, true, null);
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r7", "c1", null, ms(1000)), ms(1100), s, null, null, null);
    assertFalse(r.ok());
    assertEquals("no generated text in the stream", r.error());
  }
}
