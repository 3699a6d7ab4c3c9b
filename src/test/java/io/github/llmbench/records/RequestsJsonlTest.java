package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestsJsonlTest {

  static final String OK_LINE =
      "{\"id\":\"r1\",\"level\":\"c8\",\"start_ms\":1700000000000,\"end_ms\":1700000002000,"
          + "\"ttft_ms\":400.5,\"tpot_ms\":500.0,\"e2el_ms\":1900.0,\"itl_ms\":[600.0,500.0,400.0],"
          + "\"input_tokens\":10,\"output_tokens\":4,\"output_tokens_estimated\":false,"
          + "\"ok\":true,\"error\":null,\"http_status\":200}";

  static final String FAILED_LINE =
      "{\"id\":\"r2\",\"level\":\"c8\",\"start_ms\":1700000000100,\"end_ms\":1700000003500,"
          + "\"ttft_ms\":null,\"tpot_ms\":null,\"e2el_ms\":null,\"itl_ms\":[],"
          + "\"input_tokens\":null,\"output_tokens\":null,\"output_tokens_estimated\":false,"
          + "\"ok\":false,\"error\":\"HTTP 503\",\"http_status\":503,\"future_field\":1}";

  @Test
  void readsRecordsSkippingBlankLines(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("requests.jsonl");
    Files.writeString(file, OK_LINE + "\n\n" + FAILED_LINE + "\n");
    List<RequestRecord> recs = RequestsJsonl.read(file);
    assertEquals(2, recs.size());

    RequestRecord a = recs.get(0);
    assertEquals("r1", a.id());
    assertEquals("c8", a.level());
    assertEquals(1_700_000_000_000L, a.startMs());
    assertEquals(1_700_000_002_000L, a.endMs());
    assertEquals(400.5, a.ttftMs());
    assertEquals(500.0, a.tpotMs());
    assertEquals(1900.0, a.e2elMs());
    assertEquals(List.of(600.0, 500.0, 400.0), a.itlMs());
    assertEquals(10, a.inputTokens());
    assertEquals(4, a.outputTokens());
    assertFalse(a.outputTokensEstimated());
    assertTrue(a.ok());
    assertNull(a.error());
    assertEquals(200, a.httpStatus());

    RequestRecord b = recs.get(1);
    assertFalse(b.ok());
    assertNull(b.ttftMs());
    assertNull(b.inputTokens());
    assertEquals(List.of(), b.itlMs());
    assertEquals("HTTP 503", b.error());
    assertEquals(503, b.httpStatus());
  }

  @Test
  void malformedLineNamesFileAndLineNumber(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("requests.jsonl");
    Files.writeString(file, OK_LINE + "\n" + FAILED_LINE + "\n\n{\"id\":\"r3\",\"start_ms\":1,\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RequestsJsonl.read(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("line 4"), e.getMessage());
  }

  @Test
  void otherKindsOfMalformedLines() {
    assertLineError("[1,2]", "line 2", "not a JSON object");
    assertLineError("{\"id\":\"x\",\"end_ms\":5,\"ok\":true}", "line 2", "start_ms");
    assertLineError(
        OK_LINE.replace("\"start_ms\":1700000000000", "\"start_ms\":\"soon\""), "line 2", "");
    assertLineError(OK_LINE + " trailing", "line 2", "");
    assertLineError("not json", "line 2", "");
  }

  private static void assertLineError(String badLine, String where, String why) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RequestsJsonl.read(new StringReader(OK_LINE + "\n" + badLine + "\n"), "mem.jsonl"));
    assertTrue(
        e.getMessage().startsWith("malformed record in mem.jsonl at " + where + ":"),
        e.getMessage());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void emptyFileGivesNoRecords() throws Exception {
    assertEquals(List.of(), RequestsJsonl.read(new StringReader(""), "empty"));
    assertEquals(List.of(), RequestsJsonl.read(new StringReader("\n  \n"), "blank"));
  }
}
