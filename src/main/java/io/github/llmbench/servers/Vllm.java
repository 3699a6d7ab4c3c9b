package io.github.llmbench.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * vLLM ({@code vllm serve}): model cards {@code owned_by: vllm} with {@code max_model_len}, chat's
 * output length in {@code max_completion_tokens}, {@code /tokenize} and {@code /detokenize}, the
 * {@code vllm:*} metrics ({@code vllm/v1/metrics/loggers.py}), the profiler (with a profiler dir)
 * and {@code /reset_prefix_cache}.
 */
final class Vllm implements ServerProfile {

  /** vLLM's tokenizer form (SGLang's too). */
  static final TokenizerForm TOKENIZER = new VllmTokenizer("vLLM");

  @Override
  public String id() {
    return "vllm";
  }

  @Override
  public String label() {
    return "vLLM";
  }

  @Override
  public Optional<String> ownedBy() {
    return Optional.of("vllm");
  }

  @Override
  public boolean chatTakesMaxCompletionTokens() {
    return true;
  }

  @Override
  public Optional<TokenizerForm> tokenizer() {
    return Optional.of(TOKENIZER);
  }

  @Override
  public MetricNames metrics() {
    return MetricNames.family("vllm:")
        .running("vllm:num_requests_running")
        .waiting("vllm:num_requests_waiting")
        .kvCacheUsage("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc")
        .preemptions("vllm:num_preemptions_total")
        .prefixCacheQueries(
            "vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total")
        .prefixCacheHits("vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total")
        .promptTokens("vllm:prompt_tokens_total")
        .cachedOfPromptTokens("vllm:prompt_tokens_cached_total")
        .generationTokens("vllm:generation_tokens_total")
        .ttft("vllm:time_to_first_token_seconds")
        .itl("vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds")
        .speculative(
            MetricNames.Speculative.counters(
                "vllm:spec_decode_num_drafts_total",
                "vllm:spec_decode_num_draft_tokens_total",
                "vllm:spec_decode_num_accepted_tokens_total"))
        // the NIXL connector's (P/D disaggregation), and V1's per-request phase times
        .disaggregated(
            MetricNames.Disaggregated.builder()
                .transferSeconds("vllm:nixl_xfer_time_seconds")
                .transferBytes("vllm:nixl_bytes_transferred")
                .transferFailures("vllm:nixl_num_failed_transfers_total")
                .prefillSeconds("vllm:request_prefill_time_seconds")
                .decodeSeconds("vllm:request_decode_time_seconds")
                .build())
        .build();
  }

  @Override
  public Optional<String> prefixCacheReset() {
    return Optional.of("/reset_prefix_cache");
  }

  @Override
  public boolean hasProfiler() {
    return true;
  }

  /**
   * {@code {"model","prompt"}} -> {@code {"count","tokens"}}; {@code {"model","tokens"}} -> {@code
   * {"prompt"}} (SGLang's {@code {"text"}}); a chat's {@code {"model","messages"}} -> {@code
   * {"count"}} with its template.
   */
  private record VllmTokenizer(String label) implements TokenizerForm {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Override
    public OptionalInt count(JsonPost server, String model, String text) {
      return server
          .post("/tokenize", JSON.objectNode().put("model", model).put("prompt", text))
          .map(j -> j.path("count"))
          .filter(JsonNode::canConvertToInt)
          .map(c -> OptionalInt.of(c.asInt()))
          .orElse(OptionalInt.empty());
    }

    @Override
    public Optional<int[]> encode(JsonPost server, String model, String text) {
      ObjectNode body =
          JSON.objectNode()
              .put("model", model)
              .put("prompt", text)
              .put("add_special_tokens", false);
      return server.post("/tokenize", body).flatMap(j -> Tokens.ids(j.path("tokens")));
    }

    @Override
    public Optional<String> decode(JsonPost server, String model, int[] ids) {
      ObjectNode body = JSON.objectNode().put("model", model);
      body.set("tokens", Tokens.array(ids));
      return server
          .post("/detokenize", body)
          .map(j -> j.has("prompt") ? j.get("prompt") : j.get("text"))
          .filter(JsonNode::isTextual)
          .map(JsonNode::asText);
    }

    @Override
    public OptionalInt templatedChatTokens(JsonPost server, String model, String content) {
      ObjectNode body = JSON.objectNode().put("model", model).put("add_generation_prompt", true);
      ArrayNode messages = body.putArray("messages");
      messages.addObject().put("role", "user").put("content", content);
      return server
          .post("/tokenize", body)
          .map(j -> j.path("count"))
          .filter(JsonNode::canConvertToInt)
          .map(c -> OptionalInt.of(c.asInt()))
          .orElse(OptionalInt.empty());
    }
  }
}
