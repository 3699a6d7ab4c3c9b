package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.endpoints.Endpoints;
import io.github.llmbench.workload.sessions.AgentSession;
import io.github.llmbench.workload.sessions.SessionFile;
import io.github.llmbench.workload.sessions.SessionRun;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theExtraBodyIsMergedAndWinsOverTheKitsKeys() throws Exception {
    ObjectNode extra =
        (ObjectNode) JSON.readTree("{\"temperature\":0.6,\"top_p\":0.95,\"max_tokens\":7}");
    RequestBodies bodies = new RequestBodies(Endpoints.CHAT, "m", extra);
    extra.put("temperature", 2); // the caller's node is copied, not shared
    JsonNode body = JSON.readTree(bodies.body(RequestSpec.ofPrompt("hi", 128, null, 1)));
    assertEquals(0.6, body.get("temperature").asDouble());
    assertEquals(0.95, body.get("top_p").asDouble());
    assertEquals(7, body.get("max_tokens").asInt(), "vLLM's --extra-body: its keys win");
    assertEquals("hi", body.get("messages").get(0).get("content").asText());
    assertEquals(true, body.get("stream").asBoolean());
    assertEquals(true, body.get("stream_options").get("include_usage").asBoolean());
  }

  @Test
  void aSessionCallSendsItsRoundsMessagesToolsAndFieldsOverTheRunsOwn() throws Exception {
    AgentSession s =
        SessionFile.session(
            "{\"calls\":[{\"id\":\"a\",\"prompt\":\"Weather?\",\"model\":\"small\","
                + "\"max_tokens\":9,\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],"
                + "\"body\":{\"temperature\":0,\"tool_choice\":\"auto\"}},"
                + "{\"id\":\"b\",\"after\":\"a\",\"prompt\":\"{{answer:a}}!\"}]}",
            "s");
    SessionRun run = new SessionRun(s, 1, (n, key) -> "");
    run.start();
    run.answered("a", new SessionRun.Answer("", List.of(new SessionRun.ToolCall("c1", "f", "{}"))));
    ObjectNode extra = (ObjectNode) JSON.readTree("{\"temperature\":0.7,\"top_p\":0.9}");
    RequestBodies bodies = new RequestBodies(Endpoints.CHAT, "big", extra);
    JsonNode round1 = JSON.readTree(bodies.sessionBody(run.request("a"), 64));
    assertEquals("small", round1.get("model").asText());
    assertEquals(9, round1.get("max_tokens").asInt());
    assertEquals(0, round1.get("temperature").asInt(), "the call's fields win over -Dextra.body");
    assertEquals(0.9, round1.get("top_p").asDouble());
    assertEquals("auto", round1.get("tool_choice").asText());
    assertEquals("f", round1.get("tools").get(0).get("function").get("name").asText());
    JsonNode m = round1.get("messages");
    assertEquals(3, m.size());
    assertEquals("c1", m.get(1).get("tool_calls").get(0).get("id").asText());
    assertEquals("tool", m.get(2).get("role").asText());
    assertEquals("c1", m.get(2).get("tool_call_id").asText());
    assertEquals(true, round1.get("stream").asBoolean());
    run.answered("a", new SessionRun.Answer("sunny", List.of()));
    JsonNode b = JSON.readTree(bodies.sessionBody(run.request("b"), 64));
    assertEquals("big", b.get("model").asText());
    assertEquals(64, b.get("max_tokens").asInt());
    assertEquals("sunny!", b.get("messages").get(0).get("content").asText());
    assertTrue(!b.has("tools"));
    assertEquals(
        "agent sessions send chat messages: -Dapi=completions takes none",
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RequestBodies(Endpoints.COMPLETIONS, "m", JSON.createObjectNode())
                        .sessionBody(run.request("b"), 8))
            .getMessage());
  }

  @Test
  void aResponsesBodyCarriesTheMessagesAsInputAndItsOwnLengthKey() throws Exception {
    JsonNode body =
        JSON.readTree(
            new RequestBodies(
                    Endpoints.RESPONSES, "m", JSON.createObjectNode(), "max_completion_tokens")
                .body(RequestSpec.ofPrompt("hi", 128, null, 1), "sql"));
    assertEquals(
        List.of("model", "input", "max_output_tokens", "stream", "ignore_eos"),
        iterate(body.fieldNames()),
        "no stream_options: the last event carries the usage");
    assertEquals("sql", body.get("model").asText(), "the model of a mix");
    assertEquals("user", body.get("input").get(0).get("role").asText());
    assertEquals("hi", body.get("input").get(0).get("content").asText());
    assertEquals(128, body.get("max_output_tokens").asInt());
  }

  @Test
  void anEmbeddingsBodyCarriesThePromptAsInputAndNoStreamOrLength() throws Exception {
    var extra = JSON.createObjectNode().put("encoding_format", "float");
    RequestBodies bodies = new RequestBodies(Endpoints.EMBEDDINGS, "m", extra);
    JsonNode body =
        JSON.readTree(bodies.body(RequestSpec.ofPrompt("hi there", 128, null, 2), "e5"));
    assertEquals(
        List.of("model", "input", "encoding_format"),
        iterate(body.fieldNames()),
        "no stream, length or ignore_eos; the extra body merged");
    assertEquals("e5", body.get("model").asText());
    assertEquals("hi there", body.get("input").asText());
    JsonNode chat =
        JSON.readTree(
            new RequestBodies(Endpoints.CHAT, "m", JSON.createObjectNode())
                .body(RequestSpec.ofPrompt("hi", 8, null, 1), "m"));
    assertTrue(chat.get("stream").asBoolean(), "other endpoints stream");
  }

  @Test
  void withoutExtraBodyTheKitsBody() throws Exception {
    JsonNode body =
        JSON.readTree(
            new RequestBodies(Endpoints.COMPLETIONS, "m", JSON.createObjectNode())
                .body(RequestSpec.ofPrompt("hi", 128, null, 1)));
    assertEquals(
        List.of("model", "prompt", "max_tokens", "stream", "stream_options", "ignore_eos"),
        iterate(body.fieldNames()));
  }

  @Test
  void aChatServerThatReadsMaxCompletionTokensGetsItAndTheExtraBodysChoiceWins() throws Exception {
    RequestSpec spec = RequestSpec.ofPrompt("hi", 128, null, 1);
    JsonNode body =
        JSON.readTree(
            new RequestBodies(Endpoints.CHAT, "m", JSON.createObjectNode(), "max_completion_tokens")
                .body(spec));
    assertEquals(128, body.get("max_completion_tokens").asInt());
    assertEquals(false, body.has("max_tokens"), "never both");
    ObjectNode extra = (ObjectNode) JSON.readTree("{\"max_tokens\":7}");
    JsonNode mine =
        JSON.readTree(
            new RequestBodies(Endpoints.CHAT, "m", extra, "max_completion_tokens").body(spec));
    assertEquals(7, mine.get("max_tokens").asInt());
    assertEquals(false, mine.has("max_completion_tokens"), "the user's key alone");
  }

  private static List<String> iterate(Iterator<String> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
