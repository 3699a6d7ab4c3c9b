package io.github.llmbench.servers;

import java.util.Optional;

/**
 * SGLang: model cards {@code owned_by: sglang} with {@code max_model_len}, vLLM's tokenizer form
 * (its {@code /detokenize} answers {@code text}), the {@code sglang:*} metrics ({@code
 * srt/metrics/collector.py}), the profiler and {@code /flush_cache}.
 */
final class Sglang implements ServerProfile {

  @Override
  public String id() {
    return "sglang";
  }

  @Override
  public String label() {
    return "SGLang";
  }

  @Override
  public Optional<String> ownedBy() {
    return Optional.of("sglang");
  }

  @Override
  public boolean chatTakesMaxCompletionTokens() {
    return true;
  }

  @Override
  public Optional<TokenizerForm> tokenizer() {
    return Optional.of(Vllm.TOKENIZER);
  }

  @Override
  public MetricNames metrics() {
    return MetricNames.family("sglang:")
        .running("sglang:num_running_reqs")
        .waiting("sglang:num_queue_reqs")
        .kvCacheUsage("sglang:token_usage")
        .preemptions("sglang:num_retracted_requests_total")
        .promptTokens("sglang:prompt_tokens_total")
        .cachedOfPromptTokens("sglang:cached_tokens_total")
        .generationTokens("sglang:generation_tokens_total")
        .ttft("sglang:time_to_first_token_seconds")
        .itl("sglang:inter_token_latency_seconds")
        .speculative(
            MetricNames.Speculative.gauges("sglang:spec_accept_length", "sglang:spec_accept_rate"))
        // its PD disaggregation's (srt/metrics/collector.py): gauges in older releases
        .disaggregated(
            MetricNames.Disaggregated.builder()
                .transferMillis("sglang:kv_transfer_latency_ms")
                .transferMegabytes("sglang:kv_transfer_total_mb")
                .transferFailures("sglang:num_transfer_failed_reqs_total")
                .build())
        .build();
  }

  @Override
  public Optional<String> prefixCacheReset() {
    return Optional.of("/flush_cache");
  }

  @Override
  public boolean hasProfiler() {
    return true;
  }
}
