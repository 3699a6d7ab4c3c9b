package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.capture.ParsedStream;
import io.github.llmbench.capture.SseText;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulator's SGLang, TGI and trtllm-serve dialects: the endpoints where those servers differ
 * from vLLM, and a tool-calling answer in vLLM's stream shape, read by the kit's parser.
 */
class ServerDialectsTest {

  static VllmSimulator start(Dialect dialect) {
    return VllmSimulator.start(
        SimulatorConfig.defaults()
            .withModel("sim-tiny")
            .withGpu("rtx4090")
            .withDialect(dialect)
            .withReasoningTokens(dialect == Dialect.SGLANG ? 3 : 0));
  }

  static final String CHAT =
      "{\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}],"
          + "\"max_completion_tokens\":12,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
          + "\"ignore_eos\":true";

  static List<String> events(SimClient c, String body) throws Exception {
    List<String> out = new ArrayList<>();
    for (SimClient.Event e : c.stream("/v1/chat/completions", body, new long[1])) {
      out.add(e.data());
    }
    return out;
  }

  @Test
  void sglangNamesItsMetricsAndStreamsReasoningContent() throws Exception {
    try (VllmSimulator sim = start(Dialect.SGLANG)) {
      SimClient c = new SimClient(sim, false);
      JsonNode card = SimClient.json(c.get("/v1/models").body()).path("data").get(0);
      assertEquals("sglang", card.path("owned_by").asText());
      assertTrue(card.path("max_model_len").canConvertToInt());
      JsonNode tok = SimClient.json(c.post("/tokenize", "{\"prompt\":\"a b c\"}").body());
      assertEquals(3, tok.path("count").asInt());
      List<String> data = events(c, CHAT + "}");
      assertTrue(data.get(1).contains("\"reasoning_content\":"), data.get(1));
      ParsedStream p = SseText.parse(data);
      assertNull(p.error());
      assertEquals(3, p.reasoningChunks());
      assertEquals(12, p.completionTokens());
      String metrics = c.get("/metrics").body();
      for (String name :
          List.of(
              "sglang:num_running_reqs{",
              "sglang:num_queue_reqs{",
              "sglang:token_usage{",
              "sglang:prompt_tokens_total{",
              "sglang:generation_tokens_total{",
              "sglang:cached_tokens_total{",
              "sglang:time_to_first_token_seconds_sum{")) {
        assertTrue(metrics.contains(name), name);
      }
      assertFalse(metrics.contains("vllm:"));
      assertTrue(
          metrics.contains(
              "sglang:generation_tokens_total{model_name=\""
                  + sim.servedModelName()
                  + "\",engine_type=\"unified\"} 12.0"),
          metrics);
    }
  }

  @Test
  void tgiHasInfoItsTokenizeShapeAndIgnoresIgnoreEos() throws Exception {
    try (VllmSimulator sim = start(Dialect.TGI)) {
      SimClient c = new SimClient(sim, false);
      JsonNode info = SimClient.json(c.get("/info").body());
      assertEquals(sim.modelSpec().maxModelLen(), info.path("max_total_tokens").asInt());
      JsonNode tokens = SimClient.json(c.post("/tokenize", "{\"inputs\":\"a b c\"}").body());
      assertTrue(tokens.isArray());
      assertEquals(3, tokens.size());
      assertTrue(tokens.get(0).has("id"));
      assertEquals(400, c.post("/tokenize", "{\"prompt\":\"a\"}").statusCode());
      int shorter = 0;
      for (int i = 0; i < 8; i++) {
        ParsedStream p = SseText.parse(events(c, CHAT.replace("12", "40") + "}"));
        assertNull(p.error());
        assertTrue(
            p.completionTokens() >= 20 && p.completionTokens() <= 40, "" + p.completionTokens());
        shorter += p.completionTokens() < 40 ? 1 : 0;
      }
      assertTrue(shorter >= 4, "ignore_eos is ignored: " + shorter + " of 8 shorter");
      String metrics = c.get("/metrics").body();
      assertTrue(metrics.contains("tgi_queue_size "), metrics);
      assertTrue(metrics.contains("tgi_request_generated_tokens_sum "), metrics);
      assertTrue(metrics.contains("tgi_request_input_length_sum "), metrics);
    }
  }

  @Test
  void trtllmRefusesUnknownKeysAndServesPrometheusTextApart() throws Exception {
    try (VllmSimulator sim = start(Dialect.TRTLLM)) {
      SimClient c = new SimClient(sim, false);
      assertEquals(
          "tensorrt_llm",
          SimClient.json(c.get("/v1/models").body()).path("data").get(0).path("owned_by").asText());
      String chat =
          CHAT.replace(
              "{\"messages\"", "{\"model\":\"" + sim.servedModelName() + "\",\"messages\"");
      var refused = c.post("/v1/chat/completions", chat + ",\"priority\":1}");
      assertEquals(400, refused.statusCode());
      assertTrue(
          refused.body().contains("priority") && refused.body().contains("extra_forbidden"),
          refused.body());
      assertEquals(404, c.post("/tokenize", "{\"prompt\":\"a\"}").statusCode());
      assertTrue(SimClient.json(c.get("/metrics").body()).isArray(), "JSON iteration stats");
      assertEquals(
          400, c.post("/v1/chat/completions", CHAT + "}").statusCode(), "model is required");
      ParsedStream p = SseText.parse(events(c, chat + "}"));
      assertNull(p.error());
      String text = c.get("/prometheus/metrics").body();
      assertTrue(text.contains("trtllm_generation_tokens_total{"), text);
      assertTrue(text.contains("trtllm_num_requests_running{"), text);
    }
  }

  @Test
  void aRequestWithToolsIsAnsweredWithAToolCall() throws Exception {
    try (VllmSimulator sim = start(Dialect.VLLM)) {
      SimClient c = new SimClient(sim, false);
      String body =
          CHAT
              + ",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
              + "\"parameters\":{\"type\":\"object\"}}}]}";
      List<String> data = events(c, body);
      assertTrue(data.get(0).contains("\"role\":\"assistant\""), data.get(0));
      assertTrue(data.get(1).contains("\"name\":\"get_weather\""), data.get(1));
      assertFalse(String.join("\n", data).contains("\"content\":\" "), "no text content");
      StringBuilder args = new StringBuilder();
      for (String d : data.subList(1, 13)) {
        args.append(
            SimClient.json(d)
                .path("choices")
                .get(0)
                .path("delta")
                .path("tool_calls")
                .get(0)
                .path("function")
                .path("arguments")
                .asText());
      }
      JsonNode parsed = SimClient.json(args.toString());
      assertTrue(parsed.path("text").isTextual(), args.toString());
      assertTrue(data.get(12).contains("\"finish_reason\":\"tool_calls\""), data.get(12));
      ParsedStream p = SseText.parse(data);
      assertNull(p.error());
      assertEquals(12, p.textCount(), "one chunk per token, the name's included");
      assertEquals(12, p.completionTokens());
      JsonNode whole =
          SimClient.json(
              c.post(
                      "/v1/chat/completions",
                      body.replace(
                          "\"stream\":true,\"stream_options\":{\"include_usage\":true},", ""))
                  .body());
      JsonNode call = whole.path("choices").get(0).path("message").path("tool_calls").get(0);
      assertEquals("get_weather", call.path("function").path("name").asText());
      assertEquals("tool_calls", whole.path("choices").get(0).path("finish_reason").asText());
    }
  }
}
