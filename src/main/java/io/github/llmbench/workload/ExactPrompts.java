package io.github.llmbench.workload;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;

/**
 * Prompts of an exact token count on any tokenizer, made with the server's own {@code /tokenize}
 * and {@code /detokenize}, as vLLM's random dataset does with its local tokenizer: draw token ids,
 * turn them into text, count the text's tokens, then drop ids from the end or draw more by the
 * difference, until the count is the target. It works where no word is a single token (byte-level
 * and small vocabularies), where the word-by-word method cannot be exact.
 *
 * <p>The ids are drawn from those of an English text ({@code prompts/base.txt}) as the server
 * tokenizes it, so no special or control token ever enters a prompt.
 */
public final class ExactPrompts {
  /** Rounds of count-and-adjust before the closest text is kept (two or three suffice in practice). */
  static final int MAX_ROUNDS = 12;

  private final ServerTokenizer tokenizer;
  private final int[] idPool;
  private final int baseCount;

  private ExactPrompts(ServerTokenizer tokenizer, int[] idPool, int baseCount) {
    this.tokenizer = tokenizer;
    this.idPool = idPool;
    this.baseCount = baseCount;
  }

  /**
   * The method, when the server can do it: a tokenizer that gives ids and decodes them.
   *
   * @param corpus a text whose token ids are drawn from
   */
  public static Optional<ExactPrompts> of(ServerTokenizer tokenizer, String corpus) {
    OptionalInt base = tokenizer.count("");
    Optional<int[]> ids = tokenizer.encode(corpus);
    if (base.isEmpty() || ids.isEmpty() || ids.get().length == 0) {
      return Optional.empty();
    }
    int[] pool = Arrays.stream(ids.get()).distinct().sorted().toArray();
    ExactPrompts exact = new ExactPrompts(tokenizer, pool, base.getAsInt());
    if (tokenizer.decode(new int[] {pool[0]}).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(exact);
  }

  /** A text and its token count by the server (the target, unless {@link #MAX_ROUNDS} did not reach it). */
  public record Prompt(String text, int tokens) {}

  /**
   * A text of {@code target} tokens that starts with {@code head} (a shared prefix, or "").
   *
   * @param headTokens the tokens of {@code head} counted in {@code target}
   */
  public Prompt make(String head, int headTokens, int target, Random rnd) {
    int bodyTarget = target - headTokens;
    int[] body = draw(new int[0], Math.max(1, bodyTarget), rnd);
    Prompt best = null;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      String text = join(head, tokenizer.decode(body).orElseThrow(() -> failed("/detokenize")));
      int tokens = tokenizer.count(text).orElseThrow(() -> failed("/tokenize")) - baseCount;
      if (best == null || Math.abs(tokens - target) < Math.abs(best.tokens() - target)) {
        best = new Prompt(text, tokens);
      }
      int diff = target - tokens;
      if (diff == 0) {
        break;
      }
      body = diff > 0 ? draw(body, diff, rnd) : Arrays.copyOf(body, Math.max(1, body.length + diff));
    }
    return best;
  }

  private static String join(String head, String body) {
    if (head.isEmpty() || body.isEmpty() || Character.isWhitespace(body.charAt(0))) {
      return head + body;
    }
    return head + " " + body; // else the prefix's last word and the body's first would run together
  }

  private int[] draw(int[] start, int more, Random rnd) {
    int[] out = Arrays.copyOf(start, start.length + more);
    for (int i = start.length; i < out.length; i++) {
      out[i] = idPool[rnd.nextInt(idPool.length)];
    }
    return out;
  }

  private static DatasetException failed(String endpoint) {
    return new DatasetException("the server's " + endpoint + " stopped answering while the prompts were made");
  }
}
