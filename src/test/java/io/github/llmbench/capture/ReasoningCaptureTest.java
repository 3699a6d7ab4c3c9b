package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reasoning model's stream: thinking first ({@code delta.reasoning}, vLLM's; {@code
 * delta.reasoning_content}, SGLang's and llama.cpp's), then the answer. TTFT stays at the first
 * token of either kind, as vLLM's; TTFO is the first answer token's; the reasoning tokens come from
 * the usage where it says, else from the reasoning chunks.
 */
class ReasoningCaptureTest {

  static String delta(String field, String text) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\""
        + field
        + "\":\""
        + text
        + "\"},\"finish_reason\":null}]}";
  }

  static RequestRecord record(ParsedStream p) {
    // sent at -1 ms: the role chunk arrives at 0 ms, the i-th event at i ms
    return RequestRecords.of(
        new RequestRecords.Sent("r1", "c1", null, null, -1_000_000L, null),
        20_000_000L,
        p,
        null,
        200,
        null);
  }

  @Test
  void thinkingThenAnswerGivesTtftTtfoAndReasoningTokens() {
    for (String field : List.of("reasoning", "reasoning_content")) {
      ParsedStream p =
          SseText.parse(
              List.of(
                  SseText.ROLE,
                  delta(field, "Let"),
                  delta(field, " me"),
                  delta(field, " think"),
                  SseText.content("Paris"),
                  SseText.content("."),
                  SseText.usage(10, 5),
                  SseText.DONE));
      assertEquals(5, p.textCount());
      assertEquals(3, p.reasoningChunks());
      assertEquals(3, p.firstOutput());
      RequestRecord r = record(p);
      assertEquals(2.0, r.ttftMs(), 1e-9, "the first thinking token, as vLLM's TTFT");
      Reasoning reasoning = r.reasoning();
      assertEquals(5.0, reasoning.ttfoMs(), 1e-9, "the first answer token");
      assertEquals(3, reasoning.tokens());
      assertEquals(Reasoning.CHUNKS, reasoning.tokensFrom());
      assertEquals(5, r.outputTokens(), "usage counts thinking and answer");
    }
  }

  @Test
  void withALocalTokenizerTheThinkingTextIsCountedWhereTheUsageDoesNotSay() {
    StreamReader reader = new StreamReader(8, true);
    List<String> events =
        List.of(
            delta("reasoning_content", "Let me"),
            delta("reasoning_content", " think it over"),
            SseText.content("Paris"),
            SseText.usage(10, 6),
            SseText.DONE);
    for (int i = 0; i < events.size(); i++) {
      byte[] b =
          SseText.events(List.of(events.get(i))).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      reader.feed(b, 0, b.length, i * 1_000_000L);
    }
    ParsedStream p = reader.result();
    assertEquals("Let me think it over", p.reasoningText());
    assertEquals("Paris", p.answer(), "the thinking stays out of the answer");
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r1", "c1", null, null, -1_000_000L, null),
            20_000_000L,
            p,
            null,
            200,
            text -> text.trim().split("\\s+").length);
    assertEquals(5, r.reasoning().tokens(), "five words, five tokens of the test's tokenizer");
    assertEquals(Reasoning.TOKENIZER, r.reasoning().tokensFrom());
  }

  @Test
  void withALocalTokenizerEachChunkIsCountedInItsOwnText() {
    StreamReader reader = new StreamReader(2, true); // arrays grow past their first size
    List<String> events =
        List.of(
            delta("reasoning_content", "Let me"),
            SseText.content("The capital"),
            delta("reasoning_content", " think it over"),
            SseText.content(" is Paris, of course"),
            SseText.usage(10, 9),
            SseText.DONE);
    for (int i = 0; i < events.size(); i++) {
      byte[] b =
          SseText.events(List.of(events.get(i))).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      reader.feed(b, 0, b.length, i * 1_000_000L);
    }
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r1", "c1", null, null, -1_000_000L, null),
            20_000_000L,
            reader.result(),
            null,
            200,
            text -> text.isBlank() ? 0 : text.trim().split("\\s+").length);
    // in the chunks' order, thinking and answer each counted in its own text, a word a token
    assertArrayEquals(new int[] {2, 2, 3, 4}, ChunkTokenCounts.of(r));
    assertEquals(9, r.outputTokens(), "the usage's count stays the output tokens");
  }

  @Test
  void theUsageCountOfReasoningTokensWinsWhereTheServerGivesIt() {
    String usage =
        "{\"id\":\"x\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":40,"
            + "\"completion_tokens_details\":{\"reasoning_tokens\":31}}}";
    ParsedStream p =
        SseText.parse(
            List.of(delta("reasoning", "hmm"), SseText.content("yes"), usage, SseText.DONE));
    assertEquals(31, p.reasoningTokens());
    Reasoning reasoning = record(p).reasoning();
    assertEquals(31, reasoning.tokens());
    assertEquals(Reasoning.USAGE, reasoning.tokensFrom());
  }

  @Test
  void anAnswerWithoutThinkingHasNoReasoningAndThinkingWithoutAnswerNoTtfo() {
    ParsedStream plain =
        SseText.parse(
            List.of(SseText.ROLE, SseText.content("a"), SseText.content("b"), SseText.DONE));
    assertEquals(0, plain.firstOutput());
    assertNull(record(plain).reasoning());
    ParsedStream onlyThinking =
        SseText.parse(List.of(delta("reasoning", "a"), delta("reasoning", "b"), SseText.DONE));
    Reasoning r = record(onlyThinking).reasoning();
    assertNull(r.ttfoMs(), "it never answered");
    assertEquals(2, r.tokens());
  }
}
