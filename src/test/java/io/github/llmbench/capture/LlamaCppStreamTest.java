package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.ServerTimings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * llama.cpp's {@code llama-server} (0.7.0, Debian) streams, captured with curl from the tiny model
 * of the integration tests ({@code src/test/resources/llamacpp/}), as Gatling renders their events.
 * Each test is one row of the README's "Other servers" table.
 */
class LlamaCppStreamTest {

  /** The {@code data:} lines of a captured SSE body, as Gatling's {@code {"data":...}} messages, 10 ms apart. */
  static List<TimedMessage> captured(String resource) {
    try (InputStream in = LlamaCppStreamTest.class.getResourceAsStream("/llamacpp/" + resource)) {
      List<TimedMessage> out = new ArrayList<>();
      long t = 1000;
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("data: ")) {
          out.add(new TimedMessage(t, "{\"data\":" + line.substring(6) + "}"));
          t += 10;
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void chatRoleChunkWithNullContentAndFinishChunkWithEmptyDeltaCarryNoText() {
    List<TimedMessage> events = captured("chat-stream.sse");
    // role chunk (content null), 3 text chunks, finish chunk (delta {}), usage chunk, [DONE]
    assertEquals(7, events.size());
    assertTrue(events.get(0).message().contains("\"content\":null"));
    assertTrue(events.get(4).message().contains("\"delta\":{}"));
    ParsedStream p = StreamParser.parse(events);
    assertNull(p.error());
    assertEquals(List.of(1010L, 1020L, 1030L), p.textArrivalsMs());
    assertEquals(3, p.completionTokens());
    assertEquals(59, p.promptTokens());
    assertTrue(p.sawDone());
  }

  @Test
  void chatUsageChunkHasEmptyChoicesAndTimings() {
    ParsedStream p = StreamParser.parse(captured("chat-stream.sse"));
    ServerTimings t = p.serverTimings();
    assertNotNull(t);
    assertEquals(59, t.promptN());
    assertEquals(45.791, t.promptMs(), 1e-9);
    assertEquals(3, t.predictedN());
    assertEquals(4.394, t.predictedMs(), 1e-9);
    assertEquals(2.197, t.predictedPerTokenMs(), 1e-9);
  }

  @Test
  void completionsFinishChunkHasEmptyTextAndCarriesUsageAndTimings() {
    List<TimedMessage> events = captured("completions-stream.sse");
    // 3 text chunks, then ONE finish chunk with "text":"" + usage + timings (no choices:[] chunk), [DONE]
    assertEquals(5, events.size());
    assertTrue(events.get(3).message().contains("\"text\":\"\""));
    assertTrue(events.get(3).message().contains("\"usage\""));
    ParsedStream p = StreamParser.parse(events);
    assertNull(p.error());
    assertEquals(List.of(1000L, 1010L, 1020L), p.textArrivalsMs());
    assertEquals(3, p.completionTokens());
    assertEquals(6, p.promptTokens()); // usage counts the cached token, timings.prompt_n does not
    assertEquals(5, p.serverTimings().promptN());
    assertEquals(3, p.serverTimings().predictedN());
  }

  @Test
  void recordKeepsTimingsAndMetricsAreFromClientTimes() {
    RequestRecord r =
        RequestRecords.of("r", "c1", 950, 1070, StreamParser.parse(captured("chat-stream.sse")), null, 200);
    assertTrue(r.ok());
    assertEquals(60.0, r.ttftMs());
    assertEquals(80.0, r.e2elMs());
    assertEquals(List.of(10.0, 10.0), r.itlMs());
    assertEquals(3, r.outputTokens());
    assertEquals(4.394, r.serverTimings().predictedMs(), 1e-9);
  }

  @Test
  void vllmStreamHasNoTimings() {
    ParsedStream p =
        StreamParser.parse(
            StreamParserTest.timed(
                0, 1, StreamParserTest.ROLE, StreamParserTest.content("a"), StreamParserTest.usage(3, 1),
                StreamParserTest.DONE));
    assertNull(p.serverTimings());
  }
}
