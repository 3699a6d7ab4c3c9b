package io.github.llmbench.servers;

import java.util.Optional;

/**
 * One inference server as the kit and the simulator know it: its name, how it is recognised before
 * the load, what its requests carry, its tokenizer endpoints, its Prometheus names and where they
 * are, and the kit's own calls it has. One file per server, registered in {@link
 * ServerProfiles#ALL}; what a server does not override is what vLLM does, which most
 * OpenAI-compatible servers copy.
 */
public interface ServerProfile {

  /** A short id ({@code vllm}, {@code llamacpp}, ...), the simulator's {@code --dialect} name. */
  String id();

  /** How the console names it ({@code vLLM}, {@code llama.cpp}, ...). */
  String label();

  /**
   * How its {@code Server} header starts, lower case, where that tells the server apart
   * (llama.cpp's {@code llama.cpp}).
   */
  default Optional<String> serverHeaderPrefix() {
    return Optional.empty();
  }

  /** The {@code owned_by} of its {@code GET /v1/models} cards, lower case, where it says which. */
  default Optional<String> ownedBy() {
    return Optional.empty();
  }

  /**
   * The key of its {@code GET /info} that holds the context length, where it has one (TGI's {@code
   * max_total_tokens}): an answer with it recognises the server.
   */
  default Optional<String> infoContextKey() {
    return Optional.empty();
  }

  /**
   * Whether a chat request's output length goes in {@code max_completion_tokens} (vLLM deprecates
   * {@code max_tokens} for chat and {@code vllm bench serve} sends the new key; SGLang, TGI and
   * trtllm-serve take both), else {@code max_tokens}, which every server reads.
   */
  boolean chatTakesMaxCompletionTokens();

  /**
   * The key a request's output length goes in; completions requests always say {@code max_tokens}.
   */
  default String maxTokensKey(boolean chat) {
    return chat && chatTakesMaxCompletionTokens() ? "max_completion_tokens" : "max_tokens";
  }

  /**
   * Whether it honours {@code ignore_eos} (TGI has no such field: its answers end where the model
   * ends them, so output lengths fall short of {@code max_tokens}).
   */
  default boolean honoursIgnoreEos() {
    return true;
  }

  /**
   * Whether it closes the connection after each streamed response although it announces keep-alive
   * (llama.cpp's {@code llama-server}): the kit then asks for a new connection per request.
   */
  default boolean closesConnectionAfterStream() {
    return false;
  }

  /** The shape of its {@code POST /tokenize} (and {@code /detokenize}); empty when it has none. */
  Optional<TokenizerForm> tokenizer();

  /** The names of its Prometheus metrics that the kit maps. */
  MetricNames metrics();

  /** Where its Prometheus text is. */
  default String metricsPath() {
    return "/metrics";
  }

  /**
   * The route that empties its prefix cache: vLLM's {@code /reset_prefix_cache} (a dev-mode route
   * of recent versions), SGLang's {@code /flush_cache}; empty when it has none.
   */
  default Optional<String> prefixCacheReset() {
    return Optional.empty();
  }

  /** Whether it has {@code POST /start_profile} and {@code /stop_profile} (vLLM's, SGLang's). */
  default boolean hasProfiler() {
    return false;
  }
}
