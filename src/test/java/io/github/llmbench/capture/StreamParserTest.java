package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamParserTest {

  /** vLLM's chunks (PR 15593 of vllm-project/vllm), as Gatling renders SSE events. */
  static final String ROLE =
      "{\"data\":{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}}";

  static String content(String text) {
    return "{\"data\":{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
        + text
        + "\"},\"logprobs\":null,\"finish_reason\":null}]}}";
  }

  static String usage(int prompt, int completion) {
    return "{\"data\":{\"id\":\"chatcmpl-eb116bdb\",\"object\":\"chat.completion.chunk\",\"created\":1750734209,\"model\":\"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\",\"choices\":[],\"usage\":{\"prompt_tokens\":"
        + prompt
        + ",\"total_tokens\":"
        + (prompt + completion)
        + ",\"completion_tokens\":"
        + completion
        + "}}}";
  }

  static final String DONE = "{\"data\":[DONE]}";

  static List<TimedMessage> timed(long start, long step, String... messages) {
    List<TimedMessage> out = new ArrayList<>();
    for (int i = 0; i < messages.length; i++) {
      out.add(new TimedMessage(start + i * step, messages[i]));
    }
    return out;
  }

  @Test
  void vllmChatStreamRoleChunkCarriesNoText() {
    ParsedStream p =
        StreamParser.parse(timed(1000, 10, ROLE, content("Here"), content(" is"), usage(13, 2), DONE));
    assertEquals(List.of(1010L, 1020L), p.textArrivalsMs());
    assertEquals(13, p.promptTokens());
    assertEquals(2, p.completionTokens());
    assertTrue(p.sawDone());
    assertNull(p.error());
  }

  @Test
  void emptyContentChunkIsNotText() {
    ParsedStream p = StreamParser.parse(timed(0, 5, content("a"), content(""), content("b")));
    assertEquals(List.of(0L, 10L), p.textArrivalsMs());
  }

  @Test
  void llamaCppNullContentAndEmptyDeltaAreNotText() {
    String nullContent =
        "{\"data\":{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}],\"object\":\"chat.completion.chunk\"}}";
    String emptyDelta =
        "{\"data\":{\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}],\"object\":\"chat.completion.chunk\"}}";
    ParsedStream p = StreamParser.parse(timed(0, 1, nullContent, content("x"), emptyDelta));
    assertEquals(List.of(1L), p.textArrivalsMs());
  }

  @Test
  void completionsTextAndReasoningContentCount() {
    String text = "{\"data\":{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" hi\",\"logprobs\":null,\"finish_reason\":null}]}}";
    String reasoning = "{\"data\":{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hmm\"}}]}}";
    ParsedStream p = StreamParser.parse(timed(0, 3, text, reasoning));
    assertEquals(List.of(0L, 3L), p.textArrivalsMs());
  }

  @Test
  void missingUsageLeavesCountsNull() {
    ParsedStream p = StreamParser.parse(timed(0, 1, ROLE, content("a"), content("b")));
    assertNull(p.completionTokens());
    assertNull(p.promptTokens());
  }

  @Test
  void errorEventInsideA200Stream() {
    String error = "{\"data\":{\"error\":{\"message\":\"KV cache exhausted\",\"type\":\"InternalServerError\",\"code\":500}}}";
    ParsedStream p = StreamParser.parse(timed(0, 1, ROLE, content("a"), error));
    assertEquals("error event: KV cache exhausted (code 500)", p.error());
  }

  @Test
  void invalidJsonChunk() {
    ParsedStream p = StreamParser.parse(timed(0, 1, content("a"), "{\"data\":\"not json at all\"}"));
    assertEquals("invalid JSON chunk: not json at all", p.error());
    // a truncated object is embedded raw by Gatling when it ends with '}' by chance; else quoted
    ParsedStream q = StreamParser.parse(timed(0, 1, "{\"data\":{\"choices\":[}}"));
    assertTrue(q.error().startsWith("invalid JSON chunk"), q.error());
  }

  @Test
  void dataIsFoundAfterEventAndIdAndBeforeRetry() {
    assertEquals("[DONE]", StreamParser.data("{\"event\":\"message\",\"id\":\"7\",\"data\":[DONE],\"retry\":3000}"));
    assertEquals("plain text", StreamParser.data("{\"data\":\"plain text\"}"));
    assertNull(StreamParser.data("{\"event\":\"ping\"}"));
    assertNull(StreamParser.endFailure(DONE));
    assertEquals("error event: {}", StreamParser.endFailure("{\"data\":{\"error\":{}}}"));
    assertEquals("invalid JSON chunk: oops", StreamParser.endFailure("{\"data\":\"oops\"}"));
  }
}
