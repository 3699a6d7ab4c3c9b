package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * NVIDIA trtllm-serve's answers ({@link Dialect#TRTLLM}), as read in its {@code
 * serve/openai_protocol.py}: request bodies with a key it does not know are refused (400, {@code
 * extra_forbidden}), {@code model} is required, {@code GET /metrics} answers JSON iteration stats
 * and its Prometheus text ({@code trtllm_*}) is at {@code /prometheus/metrics}.
 */
final class TrtllmAnswers extends VllmAnswers {

  @Override
  JsonNode models(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("object", "list");
    ObjectNode card = o.putArray("data").addObject();
    String name = sim.servedModelName();
    card.put("id", name);
    card.put("object", "model");
    card.put("created", System.currentTimeMillis() / 1000);
    card.put("owned_by", "tensorrt_llm");
    return o;
  }

  @Override
  String prometheus(SimMetrics metrics, String model) {
    return metrics.renderTrtllm(model);
  }

  @Override
  Optional<String> metricsJson(SimMetrics metrics) {
    return Optional.of(metrics.trtllmIterationStats());
  }

  /** The field a reasoning model's thinking streams in: the older one. */
  @Override
  String reasoningField() {
    return "reasoning_content";
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
  @Override
  void checkBody(JsonNode body, boolean chat) {
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
