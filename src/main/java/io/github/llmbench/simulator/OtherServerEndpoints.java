package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The answers where SGLang, TGI and trtllm-serve differ from vLLM ({@link Dialect#SGLANG}, {@link
 * Dialect#TGI}, {@link Dialect#TRTLLM}), as read in their sources (SGLang {@code
 * srt/entrypoints/openai/protocol.py}; TGI {@code router/src/lib.rs}, {@code server.rs};
 * TensorRT-LLM {@code serve/openai_protocol.py}).
 */
final class OtherServerEndpoints {
  private OtherServerEndpoints() {}

  /** {@code GET /v1/models}: SGLang's card has {@code max_model_len}; TGI's and trtllm's none. */
  static ObjectNode models(VllmSimulator sim, Dialect dialect) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("object", "list");
    ObjectNode card = o.putArray("data").addObject();
    String name = sim.servedModelName();
    card.put("id", name);
    card.put("object", "model");
    switch (dialect) {
      case SGLANG -> {
        card.put("created", System.currentTimeMillis() / 1000);
        card.put("owned_by", "sglang");
        card.put("root", sim.modelSpec().hfId());
        card.putNull("parent");
        card.put("max_model_len", sim.modelSpec().maxModelLen());
      }
      case TGI -> {
        card.put("created", 0);
        card.put("owned_by", name);
      }
      default -> {
        card.put("created", System.currentTimeMillis() / 1000);
        card.put("owned_by", "tensorrt_llm");
      }
    }
    return o;
  }

  /** TGI's {@code GET /info}: the context is {@code max_total_tokens}. */
  static ObjectNode tgiInfo(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("model_id", sim.modelSpec().hfId());
    o.putNull("model_sha");
    o.put("model_pipeline_tag", "text-generation");
    o.put("max_concurrent_requests", 128);
    o.put("max_best_of", 2);
    o.put("max_stop_sequences", 4);
    o.put("max_input_tokens", sim.modelSpec().maxModelLen() - 1);
    o.put("max_total_tokens", sim.modelSpec().maxModelLen());
    o.put("validation_workers", 2);
    o.put("max_client_batch_size", 4);
    o.put("router", "text-generation-router");
    o.put("version", "3.3.6");
    o.putNull("sha");
    o.putNull("docker_label");
    return o;
  }

  /**
   * TGI's {@code POST /tokenize}: {@code {"inputs": text}} gives a bare list of {@code
   * {"id","text","start","stop"}}.
   */
  static ArrayNode tgiTokenize(JsonNode body, VllmSimulator sim) {
    JsonNode inputs = body.path("inputs");
    if (!inputs.isTextual()) {
      throw ApiError.badRequest(
          "Failed to deserialize the JSON body into the target type: missing field `inputs`", null);
    }
    List<Integer> ids = new ArrayList<>();
    sim.tokenizer().encode(inputs.asText(), ids);
    ArrayNode out = Json.MAPPER.createArrayNode();
    for (int i = 0; i < ids.size(); i++) {
      out.addObject().put("id", ids.get(i)).put("text", "").put("start", i).put("stop", i + 1);
    }
    return out;
  }

  /** The body keys both of trtllm-serve's request models accept (they forbid any other). */
  private static final List<String> TRTLLM_COMMON_KEYS =
      List.of(
          "model",
          "max_tokens",
          "stream",
          "stream_options",
          "ignore_eos",
          "min_tokens",
          "temperature",
          "top_p",
          "top_k",
          "min_p",
          "n",
          "seed",
          "stop",
          "stop_token_ids",
          "frequency_penalty",
          "presence_penalty",
          "repetition_penalty",
          "logprobs",
          "logit_bias",
          "user",
          "best_of",
          "use_beam_search",
          "length_penalty",
          "include_stop_str_in_output",
          "skip_special_tokens",
          "spaces_between_special_tokens",
          "add_special_tokens",
          "cache_salt");

  /** The body keys trtllm-serve's ChatCompletionRequest accepts. */
  static final Set<String> TRTLLM_CHAT_KEYS =
      keys(
          "messages",
          "max_completion_tokens",
          "top_logprobs",
          "tools",
          "tool_choice",
          "response_format",
          "add_generation_prompt",
          "chat_template",
          "chat_template_kwargs",
          "reasoning_effort");

  /** The body keys trtllm-serve's CompletionRequest accepts. */
  static final Set<String> TRTLLM_COMPLETION_KEYS = keys("prompt", "echo", "suffix");

  private static Set<String> keys(String... own) {
    Set<String> all = new HashSet<>(TRTLLM_COMMON_KEYS);
    all.addAll(List.of(own));
    return Set.copyOf(all);
  }

  /**
   * trtllm-serve's pydantic check ({@code extra="forbid"}, {@code model} required): 400 naming the
   * first key it does not know.
   */
  static void checkTrtllmBody(JsonNode body, boolean chat) {
    if (!body.isObject()) {
      return; // ParsedRequest answers that
    }
    String type = chat ? "ChatCompletionRequest" : "CompletionRequest";
    Set<String> known = chat ? TRTLLM_CHAT_KEYS : TRTLLM_COMPLETION_KEYS;
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!known.contains(key)) {
        throw ApiError.badRequest(
            "1 validation error for "
                + type
                + "\n"
                + key
                + "\n  Extra inputs are not permitted [type=extra_forbidden]",
            null);
      }
    }
    if (!body.hasNonNull("model")) {
      throw ApiError.badRequest(
          "1 validation error for " + type + "\nmodel\n  Field required [type=missing]", null);
    }
  }
}
