package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A response that calls a tool streams {@code delta.tool_calls} (vLLM, SGLang, llama.cpp: a first
 * delta with the call's id, type and function name, then pieces of its arguments) and no content.
 * The pieces are generated output: they time TTFT, ITL and E2EL, and a stream of them alone is OK.
 */
class ToolCallCaptureTest {

  static String call(String id, String name, String arguments) {
    String head = id == null ? "" : "\"id\":\"" + id + "\",\"type\":\"function\",";
    String fn =
        name == null
            ? "\"function\":{\"arguments\":" + quote(arguments) + "}"
            : "\"function\":{\"name\":\"" + name + "\",\"arguments\":" + quote(arguments) + "}";
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"tool_calls\":[{\"index\":0,"
        + head
        + fn
        + "}]},\"finish_reason\":null}]}";
  }

  private static String quote(String s) {
    return "\"" + s.replace("\"", "\\\"") + "\"";
  }

  static RequestRecord record(ParsedStream p) {
    return ReasoningCaptureTest.record(p);
  }

  @Test
  void aToolCallOnlyResponseIsOkWithItsTokensAndTimes() {
    ParsedStream p =
        SseText.parse(
            List.of(
                SseText.ROLE,
                call("call_1", "get_weather", ""),
                call(null, null, "{\"city\":"),
                call(null, null, " \"Paris\""),
                call(null, null, "}"),
                SseText.usage(10, 7),
                SseText.DONE));
    assertNull(p.error());
    assertEquals(4, p.textCount(), "the name chunk and three argument pieces");
    assertEquals(0, p.reasoningChunks());
    RequestRecord r = record(p);
    assertTrue(r.ok(), r.toString());
    assertEquals(2.0, r.ttftMs(), 1e-9, "the call's name is its first generated token");
    assertEquals(5.0, r.e2elMs(), 1e-9);
    assertEquals(List.of(1.0, 1.0, 1.0), r.itlMs());
    assertEquals(7, r.outputTokens(), "usage.completion_tokens");
    assertNull(r.finishReason(), "no chunk said one");
    assertNull(r.reasoning(), "a tool call is answer, not thinking");
  }

  /** Two calls whose pieces interleave, as a server streaming parallel tool calls may send them. */
  @Test
  void keptAnswersKeepEachToolCallWholeByItsIndex() {
    String second =
        call("call_b", "get_time", "").replace("\"index\":0,\"id\"", "\"index\":1,\"id\"");
    String secondArgs =
        call(null, null, "{\"tz\":\"CET\"}").replace("[{\"index\":0,", "[{\"index\":1,");
    List<String> events =
        List.of(
            SseText.ROLE,
            SseText.content("Checking."),
            call("call_a", "get_weather", ""),
            second,
            call(null, null, "{\"city\":"),
            secondArgs,
            call(null, null, " \"Lyon\"}"),
            SseText.usage(10, 12),
            SseText.DONE);
    StreamReader reader = new StreamReader(events.size(), true);
    for (int i = 0; i < events.size(); i++) {
      byte[] b = SseText.events(List.of(events.get(i))).getBytes(StandardCharsets.UTF_8);
      reader.feed(b, 0, b.length, i * 1_000_000L);
    }
    ParsedStream p = reader.result();
    assertEquals(
        List.of(
            new ParsedStream.ToolCall("call_a", "get_weather", "{\"city\": \"Lyon\"}"),
            new ParsedStream.ToolCall("call_b", "get_time", "{\"tz\":\"CET\"}")),
        p.toolCalls());
    assertTrue(p.answer().startsWith("Checking."), p.answer());
    assertEquals("Checking.", p.content(), "the content without the calls' names and arguments");
    // not kept where answers are not
    assertEquals(List.of(), SseText.parse(events).toolCalls());
  }

  @Test
  void aMixedResponseKeepsItsTextAndCallChunksInOneSeries() {
    ParsedStream p =
        SseText.parse(
            List.of(
                SseText.ROLE,
                SseText.content("Let me look."),
                call("call_1", "search", "{\"q\":1}"),
                SseText.usage(10, 9),
                SseText.DONE));
    assertEquals(2, p.textCount());
    RequestRecord r = record(p);
    assertTrue(r.ok(), r.toString());
    assertEquals(3.0, r.e2elMs(), 1e-9, "E2EL ends at the call, not at the text");
    assertEquals(List.of(1.0), r.itlMs());
  }

  @Test
  void withoutUsageTheCallsArgumentsAreCountedAsItsText() {
    StreamReader reader = new StreamReader(4, true);
    List<String> events =
        List.of(call("call_1", "f", "{\"a\":"), call(null, null, "\"b c\"}"), SseText.DONE);
    for (int i = 0; i < events.size(); i++) {
      byte[] b = SseText.events(List.of(events.get(i))).getBytes(StandardCharsets.UTF_8);
      reader.feed(b, 0, b.length, i * 1_000_000L);
    }
    ParsedStream p = reader.result();
    assertEquals("f{\"a\":\"b c\"}", p.answer());
    assertEquals("", p.content(), "a call alone has no content");
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("r1", "c1", null, null, -1_000_000L, null),
            20_000_000L,
            p,
            null,
            200,
            text -> text.split("\\W+").length);
    assertEquals(RequestRecord.TOKENIZER, r.outputTokensFrom());
    assertTrue(r.outputTokens() > 1, r.toString());
  }

  @Test
  void anEmptyToolCallDeltaCarriesNoText() {
    String empty =
        "{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[]},"
            + "\"finish_reason\":\"tool_calls\"}]}";
    ParsedStream p =
        SseText.parse(List.of(call("call_1", "f", "{}"), empty, SseText.usage(1, 2), SseText.DONE));
    assertEquals(1, p.textCount());
    assertEquals("tool_calls", p.finishReason(), "the finish chunk's reason is kept");
  }
}
