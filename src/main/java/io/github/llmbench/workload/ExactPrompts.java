package io.github.llmbench.workload;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;

/**
 * Prompts of an exact token count on any tokenizer, made with the server's own {@code /tokenize}
 * and {@code /detokenize}, as vLLM's random dataset does with its local tokenizer: draw token ids,
 * turn them into text, count the text's tokens, then drop ids from the end or draw more by the
 * difference, until the count is the target. It works where no word is a single token (byte-level
 * and small vocabularies), where the word-by-word method cannot be exact, and needs no word.
 *
 * <p>The ids are drawn from those of an English text ({@code prompts/base.txt}) as the server
 * tokenizes it, so no special or control token ever enters a prompt.
 *
 * <p>Ids become text in one of two ways ({@link Text}): the tokenizer's decoder, or, where the
 * vocabulary is here (a local {@code tokenizer.json}) and its decoder does not give back text of as
 * many tokens (a WordLevel file with {@code "decoder": null} joins tokens with spaces, so 60 ids
 * re-count as 119 tokens and even lengths are out of reach), their vocabulary pieces joined.
 */
public final class ExactPrompts {
  /**
   * Rounds of count-and-adjust before the closest text is kept (two or three suffice in practice).
   */
  static final int MAX_ROUNDS = 12;

  /** Tokens of the corpus decoded and re-counted to tell whether the decoder gives back as many. */
  static final int ROUND_TRIP_TOKENS = 64;

  /** How token ids become text. */
  public enum Text {
    DECODED("turned into text by the server's /detokenize"),
    PIECES(
        "turned into text by joining their vocabulary pieces (the tokenizer's decoder does not give back text of as many tokens)");

    private final String description;

    Text(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }
  }

  private final ServerTokenizer tokenizer;
  private final int[] idPool;
  private final int baseCount;
  private final Text text;

  /**
   * For {@link Text#PIECES}: each pool id's piece, a string that the tokenizer reads as that one
   * token.
   */
  private final Map<Integer, String> pieces;

  private ExactPrompts(
      ServerTokenizer tokenizer,
      int[] idPool,
      int baseCount,
      Text text,
      Map<Integer, String> pieces) {
    this.tokenizer = tokenizer;
    this.idPool = idPool;
    this.baseCount = baseCount;
    this.text = text;
    this.pieces = pieces;
  }

  /**
   * The method, when the tokenizer can do it: one that gives ids and either decodes them into text
   * of as many tokens or shows its vocabulary's pieces.
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
    Map<Integer, String> vocabulary = tokenizer.pieces();
    if (!vocabulary.isEmpty() && !decodesToAsManyTokens(tokenizer, ids.get(), base.getAsInt())) {
      Map<Integer, String> alone =
          oneTokenPieces(tokenizer, vocabulary, Arrays.stream(pool).boxed().toList());
      if (alone.isEmpty()) { // the corpus's tokens have no such piece: any of the vocabulary's
        alone = oneTokenPieces(tokenizer, vocabulary, vocabulary.keySet());
      }
      if (!alone.isEmpty()) {
        int[] piecePool = alone.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        return Optional.of(
            new ExactPrompts(tokenizer, piecePool, base.getAsInt(), Text.PIECES, alone));
      }
    }
    if (tokenizer.decode(new int[] {pool[0]}).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ExactPrompts(tokenizer, pool, base.getAsInt(), Text.DECODED, Map.of()));
  }

  /** Whether the decoded text of the corpus's first tokens re-counts to as many tokens. */
  private static boolean decodesToAsManyTokens(
      ServerTokenizer tokenizer, int[] corpusIds, int baseCount) {
    int[] sample = Arrays.copyOf(corpusIds, Math.min(corpusIds.length, ROUND_TRIP_TOKENS));
    Optional<String> decoded = tokenizer.decode(sample);
    if (decoded.isEmpty()) {
      return false;
    }
    OptionalInt counted = tokenizer.count(decoded.get());
    return counted.isPresent() && counted.getAsInt() - baseCount == sample.length;
  }

  /** The pieces among {@code ids} that the tokenizer reads back, alone, as their own one token. */
  private static Map<Integer, String> oneTokenPieces(
      ServerTokenizer tokenizer, Map<Integer, String> vocabulary, Iterable<Integer> ids) {
    Map<Integer, String> out = new TreeMap<>();
    for (int id : ids) {
      String piece = vocabulary.get(id);
      if (piece == null || piece.isEmpty()) {
        continue;
      }
      Optional<int[]> back = tokenizer.encode(piece);
      if (back.isPresent() && back.get().length == 1 && back.get()[0] == id) {
        out.put(id, piece);
      }
    }
    return Map.copyOf(out);
  }

  /** How the ids become text, for the start line. */
  public Text text() {
    return text;
  }

  /** The tokenizer the prompts are counted with, as the console names it. */
  public String tokenizer() {
    return tokenizer.describe();
  }

  /**
   * A text and its token count by the server (the target, unless {@link #MAX_ROUNDS} did not reach
   * it).
   */
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
      String text = join(head, textOf(body));
      int tokens = tokenizer.count(text).orElseThrow(() -> failed("/tokenize")) - baseCount;
      if (best == null || Math.abs(tokens - target) < Math.abs(best.tokens() - target)) {
        best = new Prompt(text, tokens);
      }
      int diff = target - tokens;
      if (diff == 0) {
        break;
      }
      int ids = idsFor(diff, body.length, tokens - headTokens);
      body = ids > 0 ? draw(body, ids, rnd) : Arrays.copyOf(body, Math.max(1, body.length + ids));
    }
    return best;
  }

  /**
   * Ids to add (or, negative, to drop) for {@code diff} more tokens, at the ids per token of the
   * text so far: about one, but not where ids merge (BPE pieces) or split (two tokens an id), where
   * a step of {@code diff} ids would overshoot by the same amount each round and never land.
   */
  static int idsFor(int diff, int bodyIds, int bodyTokens) {
    double idsPerToken = bodyTokens > 0 ? (double) bodyIds / bodyTokens : 1;
    int ids = (int) Math.round(diff * idsPerToken);
    return ids != 0 ? ids : Integer.signum(diff);
  }

  private String textOf(int[] ids) {
    if (text == Text.DECODED) {
      return tokenizer.decode(ids).orElseThrow(() -> failed("/detokenize"));
    }
    StringBuilder sb = new StringBuilder();
    for (int id : ids) {
      sb.append(pieces.get(id));
    }
    return sb.toString();
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
    return new DatasetException(
        "the server's " + endpoint + " stopped answering while the prompts were made");
  }
}
