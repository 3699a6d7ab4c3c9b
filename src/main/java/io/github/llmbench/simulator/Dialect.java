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
 * </ul>
 */
public enum Dialect {
  VLLM,
  LLAMACPP;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The dialect named {@code id} ({@code vllm}, {@code llamacpp}). */
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
