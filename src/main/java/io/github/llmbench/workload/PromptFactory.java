package io.github.llmbench.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Prompts of about a target number of tokens, made of words drawn at random from a base text
 * ({@code prompts/base.txt}).
 *
 * <p>Each prompt is drawn afresh, so no two requests share a prefix: a server's prefix cache cannot
 * serve one prompt from another, and the test measures prefill, not cache hits. The word count is
 * calibrated once with the server's tokenizer when it has one ({@code /tokenize}); otherwise it
 * is estimated, and the run says so. (Exact-length prompts come with the datasets.)
 */
public final class PromptFactory {
  /** A typical tokens-per-word ratio of English text under BPE tokenizers, used when uncalibrated. */
  public static final double ESTIMATED_TOKENS_PER_WORD = 1.3;

  private final List<String> vocabulary;

  public PromptFactory(List<String> vocabulary) {
    if (vocabulary.isEmpty()) {
      throw new IllegalArgumentException("prompt vocabulary is empty");
    }
    this.vocabulary = List.copyOf(vocabulary);
  }

  /** The factory over the words of {@code prompts/base.txt} (on the classpath). */
  public static PromptFactory fromBaseText() {
    try (InputStream in = PromptFactory.class.getResourceAsStream("/prompts/base.txt")) {
      if (in == null) {
        throw new IllegalStateException("prompts/base.txt is not on the classpath");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new PromptFactory(words(text));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read prompts/base.txt", e);
    }
  }

  static List<String> words(String text) {
    return Arrays.stream(text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}']+"))
        .filter(w -> !w.isEmpty())
        .distinct()
        .toList();
  }

  /** A prompt of {@code words} words drawn with {@code random}. */
  public String prompt(int words, Random random) {
    StringBuilder sb = new StringBuilder(words * 8);
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(vocabulary.get(random.nextInt(vocabulary.size())));
    }
    return sb.toString();
  }

  /** How many words make about {@code tokens} tokens at {@code tokensPerWord}. */
  public static int wordsFor(int tokens, double tokensPerWord) {
    return Math.max(1, (int) Math.round(tokens / tokensPerWord));
  }
}
