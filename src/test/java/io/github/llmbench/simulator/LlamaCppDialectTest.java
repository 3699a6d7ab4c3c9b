package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.capture.ParsedStream;
import io.github.llmbench.capture.SseText;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulator's llama.cpp dialect against llama-server 0.7.0's captured output ({@code
 * src/test/resources/llamacpp/}): each chunk has the same fields in the same order with the same
 * JSON types, and the kit's parser reads it as it reads the real server.
 */
class LlamaCppDialectTest {
  static VllmSimulator sim;
  static SimClient client;

  @BeforeAll
  static void start() {
    sim =
        VllmSimulator.start(
            SimulatorConfig.defaults()
                .withModel("sim-tiny")
                .withGpu("rtx4090")
                .withDialect(Dialect.LLAMACPP));
    client = new SimClient(sim, true);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  static List<String> captured(String name) throws Exception {
    try (InputStream in = LlamaCppDialectTest.class.getResourceAsStream("/llamacpp/" + name)) {
      List<String> data = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("data: ")) {
          data.add(line.substring(6));
        }
      }
      return data;
    }
  }

  /** Field names in order and JSON types, recursively; arrays by their first element. */
  static String shape(JsonNode n) {
    if (n.isObject()) {
      StringBuilder b = new StringBuilder("{");
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        b.append(e.getKey())
            .append(':')
            .append(shape(e.getValue()))
            .append(it.hasNext() ? "," : "");
      }
      return b.append('}').toString();
    }
    if (n.isArray()) {
      return n.isEmpty() ? "[]" : "[" + shape(n.get(0)) + "]";
    }
    return n.isNumber() ? "number" : n.getNodeType().name().toLowerCase();
  }

  private static List<String> stream(String path, String body) throws Exception {
    List<String> out = new ArrayList<>();
    for (SimClient.Event e : client.stream(path, body, new long[1])) {
      out.add(e.data());
    }
    return out;
  }

  private static void sameShapes(List<String> real, List<String> simulated) throws Exception {
    assertEquals(real.size(), simulated.size(), "events: " + simulated);
    for (int i = 0; i < real.size(); i++) {
      if (real.get(i).equals("[DONE]")) {
        assertEquals("[DONE]", simulated.get(i));
        continue;
      }
      assertEquals(
          shape(SimClient.json(real.get(i))),
          shape(SimClient.json(simulated.get(i))),
          "event " + i);
    }
  }

  private static ParsedStream parse(List<String> data) {
    return SseText.parse(data);
  }

  @Test
  void chatStreamHasLlamaServersShape() throws Exception {
    List<String> sim =
        stream(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"how fast is the server\"}],\"max_tokens\":3,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}");
    sameShapes(captured("chat-stream.sse"), sim);
    assertTrue(
        sim.get(0).contains("\"delta\":{\"role\":\"assistant\",\"content\":null}"), sim.get(0));
    assertTrue(
        sim.get(4).contains("\"finish_reason\":\"length\",\"index\":0,\"delta\":{}"), sim.get(4));
    ParsedStream p = parse(sim);
    assertEquals(List.of(1L, 2L, 3L), SseText.textArrivalsMs(p));
    assertEquals(3, p.completionTokens());
    assertEquals(3, p.serverTimings().predictedN());
    assertEquals(
        p.serverTimings().predictedMs() / 2, p.serverTimings().predictedPerTokenMs(), 1e-3);
  }

  @Test
  void completionsStreamHasLlamaServersShape() throws Exception {
    List<String> sim =
        stream(
            "/v1/completions",
            "{\"prompt\":\"how fast is the server\",\"max_tokens\":3,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}");
    sameShapes(captured("completions-stream.sse"), sim);
    ParsedStream p = parse(sim);
    assertEquals(List.of(0L, 1L, 2L), SseText.textArrivalsMs(p));
    assertEquals(3, p.completionTokens());
    assertEquals(3, p.serverTimings().predictedN());
  }

  @Test
  void endpointsAnswerAsLlamaServer() throws Exception {
    JsonNode models = SimClient.json(client.get("/v1/models").body());
    assertTrue(models.path("models").isArray());
    assertEquals("llamacpp", models.path("data").get(0).path("owned_by").asText());
    assertEquals(sim.servedModelName(), models.path("data").get(0).path("id").asText());
    assertEquals("{\"status\":\"ok\"}", client.get("/health").body());
    JsonNode tokens =
        SimClient.json(client.post("/tokenize", "{\"content\":\"how fast is the server\"}").body());
    assertEquals(5, tokens.path("tokens").size());
    assertEquals(
        shape(SimClient.json(captured("tokenize-vllm-form.json", true))),
        shape(
            SimClient.json(
                client.post("/tokenize", "{\"model\":\"x\",\"prompt\":\"how fast\"}").body())));
    assertEquals(
        "{\"tokens\":[]}",
        client.post("/tokenize", "{\"model\":\"x\",\"prompt\":\"how fast\"}").body());
  }

  static String captured(String name, boolean whole) throws Exception {
    try (InputStream in = LlamaCppDialectTest.class.getResourceAsStream("/llamacpp/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
