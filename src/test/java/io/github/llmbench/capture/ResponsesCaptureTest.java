package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Responses API's event stream ({@code /v1/responses}): output text deltas time TTFT, ITL and
 * E2EL as chat deltas do, reasoning deltas are thinking, {@code response.incomplete} / {@code
 * response.completed} end it with the usage, and {@code error} / {@code response.failed} events
 * fail it with their text.
 */
class ResponsesCaptureTest {

  static String delta(String type, String text) {
    // the delta before the type, as OpenAI's and vLLM's models serialize it
    return "{\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\""
        + text
        + "\",\"type\":\""
        + type
        + "\",\"sequence_number\":3}";
  }

  static final String CREATED =
      "{\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"usage\":null},"
          + "\"type\":\"response.created\",\"sequence_number\":0}";

  static String ended(String type, String status, String reason, int in, int out, int thought) {
    return "{\"response\":{\"id\":\"resp_1\",\"status\":\""
        + status
        + "\",\"incomplete_details\":"
        + (reason == null ? "null" : "{\"reason\":\"" + reason + "\"}")
        + ",\"usage\":{\"input_tokens\":"
        + in
        + ",\"output_tokens\":"
        + out
        + ",\"output_tokens_details\":{\"reasoning_tokens\":"
        + thought
        + "}}},\"type\":\""
        + type
        + "\",\"sequence_number\":9}";
  }

  static RequestRecord record(ParsedStream p) {
    return ReasoningCaptureTest.record(p); // sent at -1 ms, the i-th event at i ms
  }

  @Test
  void outputTextDeltasAreTheAnswerAndTheLastEventGivesUsageAndFinish() {
    ParsedStream p =
        SseText.parse(
            List.of(
                CREATED,
                "{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{}}",
                delta("response.output_text.delta", "Paris"),
                delta("response.output_text.delta", " is"),
                delta("response.output_text.delta", ""),
                delta("response.output_text.delta", " big"),
                "{\"type\":\"response.output_text.done\",\"text\":\"Paris is big\"}",
                ended("response.incomplete", "incomplete", "max_output_tokens", 12, 3, 0)));
    assertTrue(p.sawDone(), "the last event ends the stream");
    assertNull(p.error());
    assertEquals(3, p.textCount(), "an empty delta carries no text");
    assertEquals(12, p.promptTokens());
    assertEquals(3, p.completionTokens());
    RequestRecord r = record(p);
    assertTrue(r.ok(), r.toString());
    assertEquals(3, r.outputTokens());
    assertEquals("length", r.finishReason(), "stopped at max_output_tokens");
    assertNull(r.reasoning(), "reasoning_tokens 0 is a model that does not reason");
    assertEquals(3.0, r.ttftMs(), 1e-9, "the first output delta, the third event");
    assertEquals(
        "stop",
        record(
                SseText.parse(
                    List.of(
                        delta("response.output_text.delta", "x"),
                        delta("response.output_text.delta", "y"),
                        ended("response.completed", "completed", null, 5, 2, 0))))
            .finishReason());
  }

  @Test
  void reasoningDeltasAreThinkingBeforeTheAnswer() {
    ParsedStream p =
        SseText.parse(
            List.of(
                delta("response.reasoning_text.delta", "Let"),
                delta("response.reasoning_text.delta", " me"),
                delta("response.output_text.delta", "Paris"),
                ended("response.incomplete", "incomplete", "max_output_tokens", 10, 3, 2)));
    assertEquals(3, p.textCount());
    assertEquals(2, p.reasoningChunks());
    RequestRecord r = record(p);
    assertEquals(1.0, r.ttftMs(), 1e-9, "the first token of either kind, as vLLM's TTFT");
    assertEquals(3.0, r.reasoning().ttfoMs(), 1e-9, "the first answer token");
    assertEquals(2, r.reasoning().tokens());
  }

  @Test
  void anErrorEventAndAFailedResponseFailTheRequestWithTheirText() {
    ParsedStream error =
        SseText.parse(
            List.of(
                delta("response.output_text.delta", "x"),
                "{\"type\":\"error\",\"code\":\"server_error\",\"message\":\"generation failed\","
                    + "\"param\":null,\"sequence_number\":4}"));
    assertEquals("error event: generation failed", error.error());
    RequestRecord r = record(error);
    assertFalse(r.ok());
    assertEquals("error event: generation failed", r.error());
    ParsedStream failed =
        SseText.parse(
            List.of(
                delta("response.output_text.delta", "x"),
                "{\"response\":{\"id\":\"resp_1\",\"status\":\"failed\",\"error\":{\"code\":"
                    + "\"server_error\",\"message\":\"engine dead\"}},\"type\":\"response.failed\"}"));
    assertEquals("response failed: engine dead (code server_error)", failed.error());
    // a stream that ends with neither its last event nor an error is cut
    ParsedStream cut = SseText.parse(List.of(CREATED, delta("response.output_text.delta", "x")));
    assertFalse(cut.sawDone());
    assertNull(cut.error());
  }
}
