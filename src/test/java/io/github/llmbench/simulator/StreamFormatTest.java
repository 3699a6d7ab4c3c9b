package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The wire format, compared field by field (names, order, JSON types) with real vLLM output. */
class StreamFormatTest {

  // Samples from vLLM (see the kit's brief): role chunk, content chunk, usage chunk.
  static final String CHAT_ROLE =
      "{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}";
  static final String CHAT_CONTENT =
      "{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Here\"},\"logprobs\":null,\"finish_reason\":null}]}";
  static final String CHAT_USAGE =
      "{\"id\":\"chatcmpl-eb116bdb\",\"object\":\"chat.completion.chunk\",\"created\":1750734209,\"model\":\"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\",\"choices\":[],\"usage\":{\"prompt_tokens\":13,\"total_tokens\":501,\"completion_tokens\":488}}";
  // The finishing chunk: serving_chat.py builds it with finish_reason and stop_reason set.
  static final String CHAT_LAST =
      "{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" it\"},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}";
  // Completions (serving_completion.py: CompletionResponseStreamChoice(index, text, logprobs,
  // finish_reason, stop_reason)).
  static final String CMPL_TEXT =
      "{\"id\":\"cmpl-9c1b5e3f0a8d4e2b8f6a1c3d5e7f9a0b\",\"object\":\"text_completion\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"text\":\" Paris\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}]}";
  static final String CMPL_LAST =
      "{\"id\":\"cmpl-9c1b5e3f0a8d4e2b8f6a1c3d5e7f9a0b\",\"object\":\"text_completion\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"text\":\".\",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}";
  static final String CMPL_USAGE =
      "{\"id\":\"cmpl-9c1b5e3f0a8d4e2b8f6a1c3d5e7f9a0b\",\"object\":\"text_completion\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],\"usage\":{\"prompt_tokens\":6,\"total_tokens\":22,\"completion_tokens\":16}}";

  static VllmSimulator sim;
  static SimClient client;

  @BeforeAll
  static void start() {
    sim = VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"));
    client = new SimClient(sim);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  /** Structure of a JSON value: field names in order and value types, recursively. */
  static String shape(JsonNode n) {
    if (n.isObject()) {
      StringBuilder sb = new StringBuilder("{");
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        sb.append(e.getKey())
            .append(':')
            .append(shape(e.getValue()))
            .append(it.hasNext() ? "," : "");
      }
      return sb.append('}').toString();
    }
    if (n.isArray()) {
      StringBuilder sb = new StringBuilder("[");
      for (JsonNode x : n) {
        sb.append(shape(x)).append(';');
      }
      return sb.append(']').toString();
    }
    return n.getNodeType().name().toLowerCase();
  }

  static void assertSameShape(String sample, String actual) throws Exception {
    assertEquals(shape(SimClient.json(sample)), shape(SimClient.json(actual)), actual);
  }

  private static List<String> rawEvents(String body) {
    // every event is exactly "data: <payload>\n\n"
    assertTrue(body.endsWith("\n\n"), "stream must end with a blank line");
    List<String> out = new ArrayList<>();
    for (String ev : body.substring(0, body.length() - 2).split("\n\n", -1)) {
      assertTrue(ev.startsWith("data: "), ev);
      assertFalse(ev.contains("\n"), ev);
      out.add(ev.substring(6));
    }
    return out;
  }

  @Test
  void chatStreamMatchesVllm() throws Exception {
    HttpResponse<String> r =
        client.post(
            "/v1/chat/completions",
            "{\"model\":\"llmbench/sim-tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi there, tell me a story.\"}],"
                + "\"max_tokens\":5,\"stream\":true,\"ignore_eos\":true,\"stream_options\":{\"include_usage\":true}}");
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
    List<String> ev = rawEvents(r.body());
    assertEquals(1 + 5 + 1 + 1, ev.size(), r.body());
    assertSameShape(CHAT_ROLE, ev.get(0));
    for (int i = 1; i < 5; i++) {
      assertSameShape(CHAT_CONTENT, ev.get(i));
    }
    assertSameShape(CHAT_LAST, ev.get(5));
    assertSameShape(CHAT_USAGE, ev.get(6));
    assertEquals("[DONE]", ev.get(7));
    // values
    JsonNode first = SimClient.json(ev.get(0));
    String id = first.get("id").asText();
    assertTrue(id.matches("chatcmpl-[0-9a-f]{32}"), id);
    assertEquals("llmbench/sim-tiny", first.get("model").asText());
    for (int i = 0; i < 7; i++) {
      JsonNode c = SimClient.json(ev.get(i));
      assertEquals(id, c.get("id").asText());
      assertEquals(first.get("created").asLong(), c.get("created").asLong());
    }
    JsonNode last = SimClient.json(ev.get(5)).get("choices").get(0);
    assertEquals("length", last.get("finish_reason").asText());
    assertFalse(last.get("delta").get("content").asText().isEmpty());
    JsonNode usage = SimClient.json(ev.get(6)).get("usage");
    // 8 content tokens (Hi there , tell me a story .) + 5 (one message) + 3 (generation prompt)
    assertEquals(16, usage.get("prompt_tokens").asInt());
    assertEquals(5, usage.get("completion_tokens").asInt());
    assertEquals(21, usage.get("total_tokens").asInt());
  }

  @Test
  void withPromptTokensDetailsTheUsageSaysThePromptTokensItsPrefixCacheServed() throws Exception {
    VllmSimulator details =
        VllmSimulator.start(
            SimulatorConfig.defaults()
                .withModel("sim-tiny")
                .withGpu("rtx4090")
                .withPromptTokensDetails(true));
    try {
      SimClient c = new SimClient(details);
      String body =
          "{\"model\":\"llmbench/sim-tiny\",\"messages\":[{\"role\":\"user\",\"content\":\""
              + "word ".repeat(100)
              + "\"}],\"max_tokens\":2,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
      List<Integer> cached = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        List<String> ev = rawEvents(c.post("/v1/chat/completions", body).body());
        JsonNode usage = SimClient.json(ev.get(ev.size() - 2)).get("usage");
        cached.add(usage.get("prompt_tokens_details").get("cached_tokens").asInt());
      }
      assertEquals(0, cached.get(0), "a new prompt");
      assertTrue(cached.get(1) > 0, "the same prompt again, its full blocks cached: " + cached);
    } finally {
      details.close();
    }
  }

  @Test
  void chatStreamWithoutIncludeUsageHasNoUsageChunk() throws Exception {
    HttpResponse<String> r =
        client.post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}]}],\"max_tokens\":3,\"stream\":true}");
    List<String> ev = rawEvents(r.body());
    assertEquals(1 + 3 + 1, ev.size(), r.body());
    assertSameShape(CHAT_ROLE, ev.get(0));
    assertSameShape(CHAT_LAST, ev.get(3));
    assertEquals("[DONE]", ev.get(4));
  }

  @Test
  void completionStreamMatchesVllm() throws Exception {
    HttpResponse<String> r =
        client.post(
            "/v1/completions",
            "{\"model\":\"llmbench/sim-tiny\",\"prompt\":\"The capital of France is\",\"max_tokens\":4,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}");
    assertEquals(200, r.statusCode());
    List<String> ev = rawEvents(r.body());
    assertEquals(4 + 1 + 1, ev.size(), r.body());
    for (int i = 0; i < 3; i++) {
      assertSameShape(CMPL_TEXT, ev.get(i));
    }
    assertSameShape(CMPL_LAST, ev.get(3));
    assertSameShape(CMPL_USAGE, ev.get(4));
    assertEquals("[DONE]", ev.get(5));
    assertTrue(SimClient.json(ev.get(0)).get("id").asText().matches("cmpl-[0-9a-f]{32}"));
    JsonNode usage = SimClient.json(ev.get(4)).get("usage");
    assertEquals(5, usage.get("prompt_tokens").asInt());
    assertEquals(4, usage.get("completion_tokens").asInt());
  }

  @Test
  void completionPromptAsTokenIdsAndSingletonList() throws Exception {
    JsonNode a =
        SimClient.json(
            client.post("/v1/completions", "{\"prompt\":[1,2,3,4,5,6,7],\"max_tokens\":2}").body());
    assertEquals(7, a.get("usage").get("prompt_tokens").asInt());
    JsonNode b =
        SimClient.json(
            client
                .post("/v1/completions", "{\"prompt\":[\"one two three\"],\"max_tokens\":2}")
                .body());
    assertEquals(3, b.get("usage").get("prompt_tokens").asInt());
    assertEquals(
        400,
        client.post("/v1/completions", "{\"prompt\":[\"a\",\"b\"],\"max_tokens\":2}").statusCode());
  }

  @Test
  void nonStreamingChat() throws Exception {
    HttpResponse<String> r =
        client.post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}],\"max_tokens\":6}");
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/json"));
    JsonNode o = SimClient.json(r.body());
    assertEquals("chat.completion", o.get("object").asText());
    JsonNode c = o.get("choices").get(0);
    assertEquals("assistant", c.get("message").get("role").asText());
    assertFalse(c.get("message").get("content").asText().isEmpty());
    assertEquals("length", c.get("finish_reason").asText());
    assertEquals(2 * 5 + 3 + 3 + 1, o.get("usage").get("prompt_tokens").asInt());
    assertEquals(6, o.get("usage").get("completion_tokens").asInt());
  }

  @Test
  void nonStreamingCompletion() throws Exception {
    JsonNode o =
        SimClient.json(
            client.post("/v1/completions", "{\"prompt\":\"Hello world\",\"max_tokens\":3}").body());
    assertEquals("text_completion", o.get("object").asText());
    assertEquals("length", o.get("choices").get(0).get("finish_reason").asText());
    assertEquals(3, o.get("usage").get("completion_tokens").asInt());
    assertEquals(5, o.get("usage").get("total_tokens").asInt());
  }

  @Test
  void defaultMaxTokensIsTheRestOfTheContext() throws Exception {
    // sim-tiny: max_model_len 4096; prompt "x" = 1 token -> 4095 tokens (~5 s of steps); check via
    // a
    // prompt that leaves little room instead.
    StringBuilder p = new StringBuilder();
    for (int i = 0; i < 4090; i++) {
      p.append("w ");
    }
    JsonNode o =
        SimClient.json(client.post("/v1/completions", "{\"prompt\":\"" + p + "\"}").body());
    assertEquals(6, o.get("usage").get("completion_tokens").asInt());
  }

  @Test
  void modelsAndHealth() throws Exception {
    HttpResponse<String> h = client.get("/health");
    assertEquals(200, h.statusCode());
    assertEquals("", h.body());
    JsonNode m = SimClient.json(client.get("/v1/models").body());
    assertEquals("list", m.get("object").asText());
    JsonNode card = m.get("data").get(0);
    assertEquals(
        "{id:string,object:string,created:number,owned_by:string,root:string,parent:null,max_model_len:number,permission:[",
        shape(card).substring(0, shape(card).indexOf('[') + 1));
    assertEquals("llmbench/sim-tiny", card.get("id").asText());
    assertEquals("vllm", card.get("owned_by").asText());
    assertEquals(4096, card.get("max_model_len").asInt());
    assertEquals(404, client.get("/nope").statusCode());
  }

  @Test
  void tokenizeCounts() throws Exception {
    JsonNode t =
        SimClient.json(
            client
                .post("/tokenize", "{\"model\":\"llmbench/sim-tiny\",\"prompt\":\"Hello, world!\"}")
                .body());
    assertEquals(4, t.get("count").asInt());
    assertEquals(4, t.get("tokens").size());
    assertEquals(4096, t.get("max_model_len").asInt());
    for (JsonNode id : t.get("tokens")) {
      assertTrue(id.asInt() >= 0 && id.asInt() < 32000);
    }
    JsonNode c =
        SimClient.json(
            client
                .post(
                    "/tokenize",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello, world!\"}]}")
                .body());
    assertEquals(4 + 5 + 3, c.get("count").asInt());
    assertEquals(c.get("count").asInt(), c.get("tokens").size());
    // same count as the usage of a chat request with that conversation
    JsonNode chat =
        SimClient.json(
            client
                .post(
                    "/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello, world!\"}],\"max_tokens\":1}")
                .body());
    assertEquals(12, chat.get("usage").get("prompt_tokens").asInt());
  }

  private static void assertError(HttpResponse<String> r, int code, String type, String messagePart)
      throws Exception {
    assertEquals(code, r.statusCode(), r.body());
    JsonNode o = SimClient.json(r.body());
    assertEquals(
        "{error:{message:string,type:string,param:"
            + shape(o.get("error").get("param"))
            + ",code:number}}",
        shape(o));
    assertEquals(type, o.get("error").get("type").asText());
    assertEquals(code, o.get("error").get("code").asInt());
    assertTrue(o.get("error").get("message").asText().contains(messagePart), r.body());
  }

  @Test
  void badRequests() throws Exception {
    assertError(
        client.post("/v1/chat/completions", "{not json"), 400, "BadRequestError", "Invalid JSON");
    assertError(
        client.post("/v1/chat/completions", "{\"max_tokens\":3}"),
        400,
        "BadRequestError",
        "messages");
    assertError(
        client.post("/v1/completions", "{\"max_tokens\":3}"), 400, "BadRequestError", "prompt");
    assertError(
        client.post("/v1/completions", "{\"prompt\":\"hi\",\"max_tokens\":0}"),
        400,
        "BadRequestError",
        "max_tokens must be at least 1, got 0.");
    assertError(
        client.post("/v1/completions", "{\"prompt\":\"hi there\",\"max_tokens\":4095}"),
        400,
        "BadRequestError",
        "maximum context length is 4096 tokens");
    assertError(
        client.post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3,\"stream_options\":{\"include_usage\":true}}"),
        400,
        "BadRequestError",
        "stream=True");
    assertError(client.post("/tokenize", "{}"), 400, "BadRequestError", "prompt");
  }

  @Test
  void unknownModelIs404() throws Exception {
    HttpResponse<String> r =
        client.post(
            "/v1/chat/completions",
            "{\"model\":\"gpt-4\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3}");
    assertError(r, 404, "NotFoundError", "The model `gpt-4` does not exist.");
    assertEquals("model", SimClient.json(r.body()).get("error").get("param").asText());
    assertError(
        client.post("/tokenize", "{\"model\":\"x\",\"prompt\":\"a\"}"),
        404,
        "NotFoundError",
        "`x`");
  }
}
