package io.github.llmbench.servers;

import java.util.Optional;

/**
 * NVIDIA's trtllm-serve: model cards {@code owned_by: tensorrt_llm}, no public tokenizer endpoint,
 * its Prometheus text ({@code trtllm_*}, {@code serve/metrics/collector.py}) at {@code
 * /prometheus/metrics} ({@code /metrics} answers JSON iteration stats).
 */
final class TrtllmServe implements ServerProfile {

  @Override
  public String id() {
    return "trtllm";
  }

  @Override
  public String label() {
    return "trtllm-serve";
  }

  @Override
  public Optional<String> ownedBy() {
    return Optional.of("tensorrt_llm");
  }

  @Override
  public boolean chatTakesMaxCompletionTokens() {
    return true;
  }

  @Override
  public Optional<TokenizerForm> tokenizer() {
    return Optional.empty();
  }

  @Override
  public MetricNames metrics() {
    return MetricNames.family("trtllm_")
        .running("trtllm_num_requests_running")
        .waiting("trtllm_num_requests_waiting")
        .kvCacheUsage("trtllm_kv_cache_utilization")
        .promptTokens("trtllm_prompt_tokens_total")
        .cachedOfPromptTokens("trtllm_prompt_cached_tokens_total")
        .generationTokens("trtllm_generation_tokens_total")
        .ttft("trtllm_time_to_first_token_seconds")
        .itl("trtllm_time_per_output_token_seconds")
        .build();
  }

  @Override
  public String metricsPath() {
    return "/prometheus/metrics";
  }
}
