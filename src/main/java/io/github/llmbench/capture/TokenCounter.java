package io.github.llmbench.capture;

import java.util.function.BiFunction;
import java.util.function.ToIntFunction;

/**
 * Counts the tokens of streamed text with a local tokenizer ({@code -Dtokenizer}): a whole text,
 * and each chunk of it, so a chunk that carried several tokens (a server's batched output, a
 * speculative step's accepted drafts) is counted as such rather than given the request's mean.
 */
@FunctionalInterface
public interface TokenCounter {

  /** The tokens of {@code text}. */
  int count(String text);

  /**
   * The tokens of each chunk of {@code text}: chunk {@code i} ends (exclusive) at {@code ends[i]},
   * ascending, the first starting at 0, the last taking any text after its end. This way counts
   * each chunk alone; a tokenizer that maps its tokens to their place in the text counts once
   * ({@link #of}).
   */
  default int[] perChunk(String text, int[] ends) {
    int[] out = new int[ends.length];
    int from = 0;
    for (int i = 0; i < ends.length; i++) {
      // text after the last end (a tool call's closing) is the last chunk's, as one encoding has it
      int end = i == ends.length - 1 ? text.length() : ends[i];
      out[i] = end > from ? count(text.substring(from, end)) : 0;
      from = Math.max(from, end);
    }
    return out;
  }

  /** A counter of whole texts, {@code count}, and of chunks, {@code perChunk}. */
  static TokenCounter of(ToIntFunction<String> count, BiFunction<String, int[], int[]> perChunk) {
    return new TokenCounter() {
      @Override
      public int count(String text) {
        return count.applyAsInt(text);
      }

      @Override
      public int[] perChunk(String text, int[] ends) {
        return perChunk.apply(text, ends);
      }
    };
  }
}
