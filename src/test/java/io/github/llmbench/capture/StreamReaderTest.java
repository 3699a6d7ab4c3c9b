package io.github.llmbench.capture;

import static io.github.llmbench.capture.SseText.DONE;
import static io.github.llmbench.capture.SseText.ROLE;
import static io.github.llmbench.capture.SseText.content;
import static io.github.llmbench.capture.SseText.parse;
import static io.github.llmbench.capture.SseText.textArrivalsMs;
import static io.github.llmbench.capture.SseText.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the kit reads from a stream: chunk semantics first, then SSE framing over TCP reads. */
class StreamReaderTest {

  private static final String VLLM_BODY =
      SseText.events(
          List.of(ROLE, content("Here"), content(" is"), content(" it"), usage(13, 3), DONE));

  @Test
  void vllmChatStreamRoleChunkCarriesNoText() {
    ParsedStream p = parse(List.of(ROLE, content("Here"), content(" is"), usage(13, 2), DONE));
    assertEquals(List.of(1L, 2L), textArrivalsMs(p));
    assertEquals(13, p.promptTokens());
    assertEquals(2, p.completionTokens());
    assertTrue(p.sawDone());
    assertNull(p.error());
  }

  @Test
  void theAnswerIsKeptOnlyWhenAskedAndWithoutTheReasoning() {
    List<String> events =
        List.of(
            ROLE,
            content("Here"),
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hmm\"}}]}",
            content(" is \\\"it\\\"\\n\\u00e9"),
            usage(13, 3),
            DONE);
    StreamReader keeping = new StreamReader(4, true);
    StreamReader plain = new StreamReader(4);
    for (int i = 0; i < events.size(); i++) {
      byte[] b = SseText.events(List.of(events.get(i))).getBytes(StandardCharsets.UTF_8);
      keeping.feed(b, 0, b.length, i);
      plain.feed(b, 0, b.length, i);
    }
    assertEquals(
        "Here is \"it\"\n\u00e9",
        keeping.result().answer(),
        "JSON escapes decoded, reasoning left out");
    assertEquals(3, keeping.result().textCount());
    assertEquals(null, plain.result().answer());
    // completions: the text field
    StreamReader completions = new StreamReader(2, true);
    byte[] b =
        SseText.events(
                List.of(
                    "{\"choices\":[{\"index\":0,\"text\":\"ab\"}]}",
                    "{\"choices\":[{\"index\":0,\"text\":\"c\"}]}",
                    DONE))
            .getBytes(StandardCharsets.UTF_8);
    completions.feed(b, 0, b.length, 0);
    assertEquals("abc", completions.result().answer());
  }

  @Test
  void emptyContentChunkIsNotText() {
    ParsedStream p = parse(List.of(content("a"), content(""), content("b")));
    assertEquals(List.of(0L, 2L), textArrivalsMs(p));
  }

  @Test
  void llamaCppNullContentAndEmptyDeltaAreNotText() {
    String nullContent =
        "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}],\"object\":\"chat.completion.chunk\"}";
    String emptyDelta =
        "{\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}],\"object\":\"chat.completion.chunk\"}";
    ParsedStream p = parse(List.of(nullContent, content("x"), emptyDelta));
    assertEquals(List.of(1L), textArrivalsMs(p));
  }

  @Test
  void completionsTextAndReasoningContentCount() {
    String text =
        "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" hi\",\"logprobs\":null,\"finish_reason\":null}]}";
    String reasoning = "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hmm\"}}]}";
    String reasoningField =
        "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"so\",\"content\":null}}]}";
    String emptyText = "{\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":\"length\"}]}";
    ParsedStream p = parse(List.of(text, reasoning, reasoningField, emptyText));
    assertEquals(List.of(0L, 1L, 2L), textArrivalsMs(p));
  }

  @Test
  void onlyTheFirstChoiceIsMeasuredAndOtherMembersAreSkipped() {
    String secondChoiceOnly =
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"}},{\"index\":1,\"delta\":{\"content\":\"b\"}}],"
            + "\"extra\":{\"nested\":[1,{\"content\":\"x\"}]},\"system_fingerprint\":null}";
    String firstAfterNested =
        "{\"meta\":{\"choices\":[{\"delta\":{\"content\":\"no\"}}]},\"choices\":[{\"logprobs\":{\"content\":[{\"token\":\"a\"}]},\"delta\":{\"content\":\"a\"}}]}";
    ParsedStream p = parse(List.of(secondChoiceOnly, firstAfterNested));
    assertEquals(List.of(1L), textArrivalsMs(p));
  }

  @Test
  void textThatLooksLikeTheEndNeverEndsTheStream() {
    ParsedStream p =
        parse(
            List.of(
                content("[DONE]"),
                content("\\\"error\\\":{}"),
                content("data: [DONE]"),
                "[DONE] ",
                content("after")));
    assertEquals(List.of(0L, 1L, 2L), textArrivalsMs(p));
    assertTrue(p.sawDone());
  }

  @Test
  void missingUsageLeavesCountsNull() {
    ParsedStream p = parse(List.of(ROLE, content("a"), content("b")));
    assertNull(p.completionTokens());
    assertNull(p.promptTokens());
    assertFalse(p.sawDone());
  }

  @Test
  void errorEventInsideA200Stream() {
    String error =
        "{\"error\":{\"message\":\"KV cache exhausted\",\"type\":\"InternalServerError\",\"code\":500}}";
    ParsedStream p = parse(List.of(ROLE, content("a"), error, content("b")));
    assertEquals("error event: KV cache exhausted (code 500)", p.error());
    assertEquals(List.of(1L), textArrivalsMs(p), "nothing is read after the error");
    assertEquals("error event: {}", parse(List.of("{\"error\":{}}")).error());
    assertEquals("error event: boom", parse(List.of("{\"error\":\"boom\"}")).error());
    assertNull(
        parse(List.of("{\"error\":null,\"choices\":[{\"delta\":{\"content\":\"x\"}}]}")).error());
  }

  @Test
  void invalidJsonChunks() {
    assertEquals(
        "invalid JSON chunk: not json at all",
        parse(List.of(content("a"), "not json at all")).error());
    assertTrue(parse(List.of("{\"choices\":[}")).error().startsWith("invalid JSON chunk"));
    assertTrue(
        parse(List.of("{\"choices\":[{\"delta\":{\"content\":\"a\""))
            .error()
            .startsWith("invalid JSON chunk"));
    assertTrue(parse(List.of("[1,2]")).error().startsWith("invalid JSON chunk"));
    assertTrue(parse(List.of("\"text\"")).error().startsWith("invalid JSON chunk"));
  }

  @Test
  void anEventThatIsNotUtf8IsNamedSo() {
    byte[] event =
        "data: {\"choices\":[{\"delta\":{\"content\":\" X\"}}]}\n\n"
            .getBytes(StandardCharsets.US_ASCII);
    int x = new String(event, StandardCharsets.US_ASCII).indexOf('X');
    event[x] = (byte) 0xC3; // a lead byte before an ASCII quote
    String error = read(event).error();
    assertTrue(
        error.startsWith(
            "invalid UTF-8 in an event (byte 0xC3 at offset "
                + (x - "data: ".length())
                + "): {\"choices\""),
        error);
    assertEquals(-1, ChunkInspector.invalidUtf8At("é ok".getBytes(StandardCharsets.UTF_8), 5));
    assertEquals(
        "invalid JSON chunk: {\"a\":é",
        parse(List.of("{\"a\":é")).error(),
        "valid UTF-8, invalid JSON");
  }

  // ---- SSE framing over TCP reads

  private static ParsedStream read(byte[] body, int... cuts) {
    StreamReader r = new StreamReader(4);
    int from = 0;
    long t = 0;
    for (int cut : cuts) {
      r.feed(body, from, cut - from, t++ * 1_000_000L);
      from = cut;
    }
    r.feed(body, from, body.length - from, t * 1_000_000L);
    return r.result();
  }

  private static void assertVllmBody(ParsedStream p, String context) {
    assertNull(p.error(), context);
    assertEquals(3, p.textCount(), context);
    assertEquals(13, p.promptTokens(), context);
    assertEquals(3, p.completionTokens(), context);
    assertTrue(p.sawDone(), context);
  }

  @Test
  void anEventSplitAtAnyByteAcrossTwoReadsIsReadOnce() {
    for (String eol : List.of("\n", "\r\n", "\r")) {
      byte[] body = VLLM_BODY.replace("\n", eol).getBytes(StandardCharsets.UTF_8);
      for (int cut = 1; cut < body.length; cut++) {
        assertVllmBody(
            read(body, cut),
            "line end " + eol.replace("\r", "CR").replace("\n", "LF") + ", cut at " + cut);
      }
    }
  }

  @Test
  void everyByteInItsOwnRead() {
    for (String eol : List.of("\n", "\r\n", "\r")) {
      byte[] body = VLLM_BODY.replace("\n", eol).getBytes(StandardCharsets.UTF_8);
      int[] cuts = new int[body.length - 1];
      for (int i = 0; i < cuts.length; i++) {
        cuts[i] = i + 1;
      }
      assertVllmBody(read(body, cuts), eol.replace("\r", "CR").replace("\n", "LF"));
    }
  }

  @Test
  void severalEventsInOneReadShareThatReadsArrivalTime() {
    byte[] body = VLLM_BODY.getBytes(StandardCharsets.UTF_8);
    ParsedStream p = read(body);
    assertVllmBody(p, "one read");
    assertEquals(List.of(0L, 0L, 0L), textArrivalsMs(p));
    // cut right after the second content event: the third arrives with the second read
    int cut = VLLM_BODY.indexOf("data: " + content(" it"));
    ParsedStream q = read(body, cut);
    assertEquals(List.of(0L, 0L, 1L), textArrivalsMs(q));
  }

  @Test
  void aTextChunkIsStampedWhenItsEventEndsNotWhenItBegins() {
    String body = SseText.events(List.of(content("a")));
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    // all but the blank line in the first read: the event is complete only with the second
    ParsedStream p = read(b, b.length - 1);
    assertEquals(List.of(1L), textArrivalsMs(p));
  }

  @Test
  void commentsEventFieldsAndKeepAlivesAreNotEvents() {
    String body =
        ": ping\n\n"
            + "event: message\nid: 7\nretry: 3000\n"
            + "data: "
            + content("a")
            + "\n\n"
            + ":keep-alive\n"
            + "event: ping\n\n"
            + "data:"
            + content("b")
            + "\n\n" // no space after the colon
            + "database: not data\n\n"
            + "data: "
            + DONE
            + "\n\n";
    ParsedStream p = read(body.getBytes(StandardCharsets.UTF_8));
    assertNull(p.error());
    assertEquals(2, p.textCount());
    assertTrue(p.sawDone());
  }

  @Test
  void multiLineDataIsJoinedWithLineFeeds() {
    String body =
        "data: {\"choices\":\ndata: [{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]\n\n";
    for (String eol : List.of("\n", "\r\n", "\r")) {
      byte[] b = body.replace("\n", eol).getBytes(StandardCharsets.UTF_8);
      for (int cut = 1; cut < b.length; cut++) {
        ParsedStream p = read(b, cut);
        String context = eol.replace("\r", "CR").replace("\n", "LF") + " cut at " + cut;
        assertNull(p.error(), context);
        assertEquals(1, p.textCount(), context);
        assertTrue(p.sawDone(), context);
      }
    }
  }

  @Test
  void aByteOrderMarkAtTheStartIsSkipped() {
    byte[] text = VLLM_BODY.getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[text.length + 3];
    body[0] = (byte) 0xEF;
    body[1] = (byte) 0xBB;
    body[2] = (byte) 0xBF;
    System.arraycopy(text, 0, body, 3, text.length);
    assertVllmBody(read(body), "BOM");
    assertVllmBody(read(body, 1), "BOM split");
    assertVllmBody(read(body, 2, 5), "BOM split twice");
  }

  @Test
  void aStreamCutMidEventDispatchesNothingOfThatEvent() {
    String whole = SseText.events(List.of(ROLE, content("a")));
    String cut = whole + "data: " + content("b").substring(0, 40);
    ParsedStream p = read(cut.getBytes(StandardCharsets.UTF_8));
    assertNull(p.error());
    assertEquals(1, p.textCount());
    assertFalse(p.sawDone());
    // an event whose data line is complete but whose blank line never came is not dispatched either
    ParsedStream q =
        read((whole + "data: " + content("b") + "\n").getBytes(StandardCharsets.UTF_8));
    assertEquals(1, q.textCount());
  }

  @Test
  void multiByteTextSplitInsideACharacterIsReadWhole() {
    String body = SseText.events(List.of(content("żółw 🐢"), DONE));
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    int turtle = new String(b, StandardCharsets.UTF_8).indexOf("🐢");
    int byteIndex =
        body.substring(0, turtle).getBytes(StandardCharsets.UTF_8).length + 2; // inside the emoji
    ParsedStream p = read(b, byteIndex);
    assertNull(p.error());
    assertEquals(1, p.textCount());
  }

  @Test
  void anOversizedEventIsAnErrorNotUnboundedMemory() {
    StreamReader r = new StreamReader(1);
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) 'x');
    byte[] start = "data: ".getBytes(StandardCharsets.US_ASCII);
    r.feed(start, 0, start.length, 0);
    boolean ended = false;
    for (int i = 0; i < 6 && !ended; i++) {
      ended = r.feed(chunk, 0, chunk.length, i);
    }
    assertTrue(ended);
    assertTrue(r.error().startsWith("an SSE event larger than"), r.error());
  }

  @Test
  void nothingIsReadAfterDone() {
    List<String> events = new ArrayList<>(List.of(content("a"), DONE, content("b"), "garbage"));
    ParsedStream p = parse(events);
    assertNull(p.error());
    assertEquals(1, p.textCount());
  }
}
