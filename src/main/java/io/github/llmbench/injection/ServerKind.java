package io.github.llmbench.injection;

import java.util.Locale;

/**
 * Which server answers, told apart before the load by what it says of itself: llama.cpp's {@code
 * Server: llama.cpp} header, the {@code owned_by} of its {@code GET /v1/models} cards ({@code
 * vllm}, {@code sglang}, {@code tensorrt_llm}), or TGI's {@code GET /info} ({@code
 * max_total_tokens}). The kit adapts only where the servers differ: the output-length key, {@code
 * ignore_eos}, the connection after a stream. Anything else is {@link #OTHER} and is sent what vLLM
 * is sent.
 */
public enum ServerKind {
  VLLM("vLLM", true, true),
  SGLANG("SGLang", true, true),
  LLAMACPP("llama.cpp", false, true),
  TGI("TGI", true, false),
  TRTLLM("trtllm-serve", true, true),
  OTHER("an OpenAI-compatible server", false, true);

  private final String label;
  private final boolean completionTokensKey;
  private final boolean honoursIgnoreEos;

  ServerKind(String label, boolean completionTokensKey, boolean honoursIgnoreEos) {
    this.label = label;
    this.completionTokensKey = completionTokensKey;
    this.honoursIgnoreEos = honoursIgnoreEos;
  }

  public String label() {
    return label;
  }

  /**
   * The key a chat request's output length goes in: {@code max_completion_tokens} where the server
   * reads it (vLLM deprecates {@code max_tokens} for chat and {@code vllm bench serve} sends the
   * new key; SGLang, TGI and trtllm-serve take both), else {@code max_tokens}, which every server
   * reads. Completions requests always say {@code max_tokens}.
   */
  public String maxTokensKey(boolean chat) {
    return chat && completionTokensKey ? "max_completion_tokens" : "max_tokens";
  }

  /**
   * Whether the server honours {@code ignore_eos} (TGI has no such field: its answers end where the
   * model ends them, so output lengths fall short of {@code max_tokens}).
   */
  public boolean honoursIgnoreEos() {
    return honoursIgnoreEos;
  }

  /** The kind named by a model card's {@code owned_by}, or {@link #OTHER}. */
  static ServerKind ofOwner(String ownedBy) {
    if (ownedBy == null) {
      return OTHER;
    }
    return switch (ownedBy.toLowerCase(Locale.ROOT)) {
      case "vllm" -> VLLM;
      case "sglang" -> SGLANG;
      case "tensorrt_llm" -> TRTLLM;
      case "llamacpp" -> LLAMACPP;
      default -> OTHER;
    };
  }
}
