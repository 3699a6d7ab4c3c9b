package io.github.llmbench.workload;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server's tokenizer, as far as its endpoints go: counting ({@code /tokenize}), token ids of a
 * text and the text of token ids ({@code /detokenize}). What the server lacks answers empty.
 */
public interface ServerTokenizer extends TokenCounter {
  /**
   * Which endpoints answered, for the console, e.g. {@code "llama.cpp /tokenize + /detokenize"}.
   */
  String describe();

  /** Whether the server counts tokens at all. */
  default boolean present() {
    return true;
  }

  /** The token ids of a text, without special tokens; empty when the server cannot tell. */
  Optional<int[]> encode(String text);

  /** The text of token ids ({@code /detokenize}); empty when the server has no such endpoint. */
  Optional<String> decode(int[] ids);

  /**
   * The vocabulary's strings by token id, without added or special tokens, where the vocabulary is
   * here (a local {@code tokenizer.json}); empty for a server, which does not show it. Prompts of
   * token ids are made of these when the decoder does not give text back ({@link ExactPrompts}).
   */
  default Map<Integer, String> pieces() {
    return Map.of();
  }

  /** A server without a tokenizer endpoint. */
  ServerTokenizer NONE =
      new ServerTokenizer() {
        @Override
        public OptionalInt count(String text) {
          return OptionalInt.empty();
        }

        @Override
        public String describe() {
          return "none (no /tokenize)";
        }

        @Override
        public boolean present() {
          return false;
        }

        @Override
        public Optional<int[]> encode(String text) {
          return Optional.empty();
        }

        @Override
        public Optional<String> decode(int[] ids) {
          return Optional.empty();
        }
      };
}
