package io.github.llmbench.simulator;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic stand-in for the model's tokenizer and chat template.
 *
 * <ul>
 *   <li>Tokens: every match of {@code \w+|[^\w\s]} (a word, or one punctuation character). Real BPE
 *       tokenizers give ~1.3 tokens per English word, so counts here run a bit low; what matters is
 *       that they are stable and that usage, /tokenize and max_model_len checks agree.
 *   <li>Ids: {@code (String.hashCode() & 0x7fffffff) % vocab_size}.
 *   <li>Chat template (modelled on Qwen2.5's ChatML): each message is {@code <|im_start|>role\n ...
 *       <|im_end|>\n}, i.e. {@value #TOKENS_PER_MESSAGE} tokens around the content, and the
 *       generation prompt {@code <|im_start|>assistant\n} adds {@value #TOKENS_PER_CONVERSATION}.
 *       Qwen's default system prompt (added when the conversation has none) is not modelled.
 * </ul>
 *
 * Generated text cycles through {@link #OUTPUT_WORDS}, one word (with its leading space) per token.
 */
final class StubTokenizer {

  static final int TOKENS_PER_MESSAGE = 5;
  static final int TOKENS_PER_CONVERSATION = 3;

  private static final Pattern TOKEN =
      Pattern.compile("\\w+|[^\\w\\s]", Pattern.UNICODE_CHARACTER_CLASS);

  /** Output vocabulary; plain ASCII words, so their JSON form needs no escaping. */
  static final String[] OUTPUT_WORDS = {
    " the", " of", " and", " to", " a", " in", " is", " that", " for", " it", " as", " with",
    " was", " on", " be", " by", " this", " are", " from", " at", " an", " which", " or", " model",
    " data", " time", " we", " can", " each", " more", " token", " server", ".", ","
  };

  /** {@code "<word>"} as JSON string literals, UTF-8. */
  static final byte[][] OUTPUT_WORDS_JSON = new byte[OUTPUT_WORDS.length][];

  static {
    for (int i = 0; i < OUTPUT_WORDS.length; i++) {
      OUTPUT_WORDS_JSON[i] = ("\"" + OUTPUT_WORDS[i] + "\"").getBytes(StandardCharsets.US_ASCII);
    }
  }

  private final int vocabSize;

  StubTokenizer(int vocabSize) {
    this.vocabSize = vocabSize;
  }

  int vocabSize() {
    return vocabSize;
  }

  /** Token count of a text. */
  int count(String text) {
    Matcher m = TOKEN.matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** Token ids of a text, appended to {@code out}. */
  void encode(String text, List<Integer> out) {
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      out.add(id(m.group()));
    }
  }

  int id(String token) {
    return (token.hashCode() & 0x7fffffff) % vocabSize;
  }

  /**
   * Index into {@link #OUTPUT_WORDS} of generated token {@code k} of a request seeded with {@code
   * seed}.
   */
  static int outputWord(int seed, int k) {
    return Math.floorMod(seed + k * 7, OUTPUT_WORDS.length);
  }
}
