package io.github.llmbench.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which server's stream and endpoint shapes the simulator speaks (timing is the same for both).
 *
 * <ul>
 *   <li>{@link #VLLM}: vLLM's (the default).
 *   <li>{@link #LLAMACPP}: llama.cpp's {@code llama-server}, as captured from version 0.7.0: chat's
 *       role chunk with {@code "content":null}, the finish reason in a chunk of its own ({@code
 *       "delta":{}} for chat, {@code "text":""} for completions), completions' usage in that finish
 *       chunk, a {@code timings} object in the last chunk, {@code /v1/models} with an extra
 *       Ollama-style {@code models} list, {@code /tokenize} answering {@code {"content"}} with
 *       {@code {"tokens":[...]}} (and vLLM's {@code {"prompt"}} form with an empty list), {@code
 *       /health} with {@code {"status":"ok"}}. Non-streaming responses keep vLLM's shape.
 *   <li>{@link #SGLANG}: SGLang's: vLLM's stream with {@code delta.reasoning_content}, {@code
 *       /v1/models} owned by {@code sglang} with {@code max_model_len}, {@code /tokenize} as
 *       vLLM's, and its {@code sglang:*} metrics.
 *   <li>{@link #TGI}: Hugging Face TGI's: {@code GET /info} ({@code max_total_tokens}), {@code
 *       /tokenize} taking {@code {"inputs"}} and answering a list of {@code {id,text,start,stop}},
 *       {@code /v1/models} without a context length, {@code tgi_*} metrics; it ignores {@code
 *       ignore_eos}, so each answer ends at a drawn point between half and all of {@code
 *       max_tokens}, as a model that meets its end-of-sequence token does.
 *   <li>{@link #TRTLLM}: NVIDIA trtllm-serve's: request bodies with a key it does not know are
 *       refused (400, {@code extra_forbidden}), {@code model} is required, no tokenizer endpoint,
 *       {@code GET /metrics} answers JSON iteration stats and the Prometheus text ({@code
 *       trtllm_*}) is at {@code /prometheus/metrics}.
 * </ul>
 */
public enum Dialect {
  VLLM,
  LLAMACPP,
  SGLANG,
  TGI,
  TRTLLM;

  /**
   * Whether this server has {@code path}: {@code /props} is llama.cpp's, {@code /info} TGI's,
   * {@code /prometheus/metrics} trtllm-serve's, which has no {@code /tokenize}; the profiler's
   * {@code /start_profile} and {@code /stop_profile} are vLLM's (with a profiler dir) and SGLang's;
   * the prefix cache's reset is vLLM's {@code /reset_prefix_cache} (a dev-mode route of recent
   * versions, always here) and SGLang's {@code /flush_cache}; the others all have.
   */
  boolean serves(String path) {
    return switch (path) {
      case "/props" -> this == LLAMACPP;
      case "/info" -> this == TGI;
      case "/prometheus/metrics" -> this == TRTLLM;
      case "/tokenize" -> this != TRTLLM;
      case "/start_profile", "/stop_profile" -> this == VLLM || this == SGLANG;
      case "/reset_prefix_cache" -> this == VLLM;
      case "/flush_cache" -> this == SGLANG;
      default -> true;
    };
  }

  /** The field a reasoning model's thinking streams in: vLLM's current one, else the older. */
  String reasoningField() {
    return this == VLLM ? "reasoning" : "reasoning_content";
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The dialect named {@code id} ({@code vllm}, {@code llamacpp}, {@code sglang}, ...). */
  public static Dialect fromId(String id) {
    for (Dialect d : values()) {
      if (d.id().equals(id)) {
        return d;
      }
    }
    throw new IllegalArgumentException("unknown dialect '" + id + "' (accepted: " + ids() + ")");
  }

  public static String ids() {
    return Arrays.stream(values()).map(Dialect::id).collect(Collectors.joining(", "));
  }
}
