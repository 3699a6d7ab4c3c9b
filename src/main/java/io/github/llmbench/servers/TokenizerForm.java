package io.github.llmbench.servers;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The shape of a server's tokenizer endpoints: what {@code POST /tokenize} takes and answers, and
 * {@code POST /detokenize} where it has one. Each call goes through {@link JsonPost}, which answers
 * empty on any failure.
 */
public interface TokenizerForm {

  /** The server whose form this is, as the start lines name it ({@code vLLM}). */
  String label();

  /** The tokens of {@code text}, the server's special tokens included; empty unless this form. */
  OptionalInt count(JsonPost server, String model, String text);

  /** The ids of {@code text}, without special tokens. */
  Optional<int[]> encode(JsonPost server, String model, String text);

  /** The text of {@code ids}; empty where the form has no {@code /detokenize}. */
  Optional<String> decode(JsonPost server, String model, int[] ids);

  /**
   * The tokens of a chat of one user message {@code content}, with the chat template and the
   * generation prompt, as the server counts them; empty when this form cannot tell.
   */
  default OptionalInt templatedChatTokens(JsonPost server, String model, String content) {
    return OptionalInt.empty();
  }

  /** A JSON POST to the server: its answer, or empty on any failure. */
  @FunctionalInterface
  interface JsonPost {
    Optional<JsonNode> post(String path, JsonNode body);
  }
}
