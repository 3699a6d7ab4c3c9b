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
 * Each test is one row of the "Other servers" table in docs/servers.md.
 */
class LlamaCppStreamTest {

  /** The {@code data:} values of a captured SSE body. */
  static List<String> captured(String resource) {
    try (InputStream in = LlamaCppStreamTest.class.getResourceAsStream("/llamacpp/" + resource)) {
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("data: ")) {
          out.add(line.substring(6));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The captured body as one read: events exactly as the server wrote them. */
  static ParsedStream readWhole(String resource) {
    try (InputStream in = LlamaCppStreamTest.class.getResourceAsStream("/llamacpp/" + resource)) {
      byte[] body = in.readAllBytes();
      StreamReader r = new StreamReader(4);
      r.feed(body, 0, body.length, 0);
      return r.result();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void chatRoleChunkWithNullContentAndFinishChunkWithEmptyDeltaCarryNoText() {
    List<String> events = captured("chat-stream.sse");
    // role chunk (content null), 3 text chunks, finish chunk (delta {}), usage chunk, [DONE]
    assertEquals(7, events.size());
    assertTrue(events.get(0).contains("\"content\":null"));
    assertTrue(events.get(4).contains("\"delta\":{}"));
    ParsedStream p = SseText.parse(events);
    assertNull(p.error());
    assertEquals(List.of(1L, 2L, 3L), SseText.textArrivalsMs(p));
    ParsedStream whole = readWhole("chat-stream.sse");
    assertNull(whole.error());
    assertEquals(3, whole.textCount());
    assertTrue(whole.sawDone());
    assertEquals(3, p.completionTokens());
    assertEquals(59, p.promptTokens());
    assertTrue(p.sawDone());
  }

  @Test
  void chatUsageChunkHasEmptyChoicesAndTimings() {
    ParsedStream p = readWhole("chat-stream.sse");
    ServerTimings t = p.serverTimings();
    assertNotNull(t);
    assertEquals(59, t.promptN());
    assertEquals(45.791, t.promptMs(), 1e-9);
    assertEquals(3, t.predictedN());
    assertEquals(4.394, t.predictedMs(), 1e-9);
    assertEquals(2.197, t.predictedPerTokenMs(), 1e-9);
    assertEquals(0, p.cachedTokens());
  }

  @Test
  void completionsFinishChunkHasEmptyTextAndCarriesUsageAndTimings() {
    List<String> events = captured("completions-stream.sse");
    // 3 text chunks, then ONE finish chunk with "text":"" + usage + timings (no choices:[] chunk),
    // [DONE]
    assertEquals(5, events.size());
    assertTrue(events.get(3).contains("\"text\":\"\""));
    assertTrue(events.get(3).contains("\"usage\""));
    ParsedStream p = SseText.parse(events);
    assertNull(p.error());
    assertEquals(List.of(0L, 1L, 2L), SseText.textArrivalsMs(p));
    assertEquals(3, p.completionTokens());
    assertEquals(6, p.promptTokens()); // usage counts the cached token, timings.prompt_n does not
    assertEquals(1, p.cachedTokens(), "usage.prompt_tokens_details.cached_tokens");
    List<String> timingsOnly =
        events.stream()
            .map(e -> e.replace(",\"prompt_tokens_details\":{\"cached_tokens\":1}", ""))
            .toList();
    assertEquals(1, SseText.parse(timingsOnly).cachedTokens(), "else timings.cache_n");
    assertEquals(5, p.serverTimings().promptN());
    assertEquals(3, p.serverTimings().predictedN());
  }

  @Test
  void recordKeepsTimingsAndMetricsAreFromClientTimes() {
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r", "c1", null, -9_000_000L),
            10_000_000L,
            SseText.parse(captured("chat-stream.sse")),
            null,
            200,
            null);
    assertTrue(r.ok());
    assertEquals(10.0, r.ttftMs());
    assertEquals(12.0, r.e2elMs());
    assertEquals(List.of(1.0, 1.0), r.itlMs());
    assertEquals(3, r.outputTokens());
    assertEquals(4.394, r.serverTimings().predictedMs(), 1e-9);
  }

  @Test
  void vllmStreamHasNoTimings() {
    ParsedStream p =
        SseText.parse(
            List.of(SseText.ROLE, SseText.content("a"), SseText.usage(3, 1), SseText.DONE));
    assertNull(p.serverTimings());
  }
}
