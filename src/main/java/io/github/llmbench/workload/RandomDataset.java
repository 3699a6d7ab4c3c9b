package io.github.llmbench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Random;

/**
 * vLLM's random dataset: prompts of an exact number of tokens made of random words, outputs of an
 * exact number of tokens ({@code max_tokens} with {@code ignore_eos}), lengths optionally spread
 * uniformly over [len x (1 - r), len x (1 + r)], an optional shared prefix.
 *
 * <p>Exactness: each vocabulary word's token count (with its leading space) is measured once with
 * the server's tokenizer; a prompt is then a random sequence of words whose counts add up to the
 * target (BPE tokenizers split on the spaces, so counts add up; {@link #check} measures how well).
 * Without a tokenizer the counts are estimated and the run says so.
 */
public final class RandomDataset implements Dataset {
  private static final long PREFIX_SALT = 0x5EED_F1E1_D5A1_7L;

  private final Calibration calibration;
  private final int inputLen;
  private final int outputLen;
  private final double rangeRatio;
  private final int prefixLen;
  private final long seed;
  private final String prefix;

  /**
   * Token counts of the vocabulary words.
   *
   * @param tokens tokens of each word when it follows a space
   * @param exact whether the counts come from the server's tokenizer
   */
  public record Calibration(List<String> words, int[] tokens, boolean exact) {
    /** Measures each word with {@code counter}; falls back to an estimate when it cannot. */
    public static Calibration measure(List<String> vocabulary, TokenCounter counter) {
      OptionalInt base = counter.count("");
      if (base.isPresent()) {
        List<String> kept = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (String w : vocabulary) {
          OptionalInt c = counter.count(" " + w);
          if (c.isEmpty()) {
            kept.clear();
            break;
          }
          int n = c.getAsInt() - base.getAsInt();
          if (n >= 1) {
            kept.add(w);
            counts.add(n);
          }
        }
        if (counts.contains(1)) {
          return new Calibration(kept, counts.stream().mapToInt(Integer::intValue).toArray(), true);
        }
      }
      return estimated(vocabulary);
    }

    /** Every word counted as one token: the prompt then has {@value #ESTIMATE_NOTE}. */
    public static Calibration estimated(List<String> vocabulary) {
      int[] ones = new int[vocabulary.size()];
      java.util.Arrays.fill(ones, 1);
      return new Calibration(List.copyOf(vocabulary), ones, false);
    }

    static final String ESTIMATE_NOTE = "one word per token, an estimate";
  }

  public RandomDataset(
      Calibration calibration, int inputLen, int outputLen, double rangeRatio, int prefixLen, long seed) {
    if (calibration.words().isEmpty()) {
      throw new DatasetException("the prompt vocabulary is empty");
    }
    this.calibration = calibration;
    this.inputLen = inputLen;
    this.outputLen = outputLen;
    this.rangeRatio = rangeRatio;
    this.prefixLen = prefixLen;
    this.seed = seed;
    this.prefix = prefixLen > 0 ? words(prefixLen, new Random(seed ^ PREFIX_SALT)) : "";
  }

  /** The distinct words of {@code prompts/base.txt} (on the classpath). */
  public static List<String> shippedVocabulary() {
    try (java.io.InputStream in = RandomDataset.class.getResourceAsStream("/prompts/base.txt")) {
      if (in == null) {
        throw new IllegalStateException("prompts/base.txt is not on the classpath");
      }
      String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      return java.util.Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
          .filter(w -> !w.isEmpty())
          .distinct()
          .toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read prompts/base.txt", e);
    }
  }

  @Override
  public RequestSpec request(long index, String profile) {
    Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + index);
    int in = draw(inputLen, rnd);
    int out = draw(outputLen, rnd);
    String body = words(in, rnd);
    String prompt = prefixLen > 0 ? prefix + " " + body : body;
    return RequestSpec.ofPrompt(prompt, out, profile, prefixLen + in);
  }

  @Override
  public Dataset withSeed(long newSeed) {
    return new RandomDataset(calibration, inputLen, outputLen, rangeRatio, prefixLen, newSeed);
  }

  @Override
  public int maxTokens() {
    return rangeRatio == 0 ? outputLen : Math.max(1, (int) Math.ceil(outputLen * (1 + rangeRatio)));
  }

  public boolean exact() {
    return calibration.exact();
  }

  /** A length drawn uniformly from [len x (1 - r), len x (1 + r)], at least 1 (vLLM's rule). */
  int draw(int len, Random rnd) {
    if (rangeRatio == 0) {
      return len;
    }
    int low = Math.max(1, (int) Math.floor(len * (1 - rangeRatio)));
    int high = Math.max(low, (int) Math.ceil(len * (1 + rangeRatio)));
    return low + rnd.nextInt(high - low + 1);
  }

  /** Random words adding up to exactly {@code tokens} tokens by the calibration. */
  String words(int tokens, Random rnd) {
    List<String> words = calibration.words();
    int[] counts = calibration.tokens();
    List<Integer> oneToken = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] == 1) {
        oneToken.add(i);
      }
    }
    StringBuilder sb = new StringBuilder(tokens * 7);
    int remaining = tokens;
    while (remaining > 0) {
      int i = rnd.nextInt(words.size());
      if (counts[i] > remaining) {
        i = oneToken.get(rnd.nextInt(oneToken.size()));
      }
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(words.get(i));
      remaining -= counts[i];
    }
    return sb.toString();
  }

  /**
   * Checks a few prompts against the server's own count.
   *
   * @return a line for the console, e.g. "5 prompts checked with the server's tokenizer: within 0.2%"
   */
  public String check(TokenCounter counter, int samples) {
    if (!calibration.exact()) {
      return "prompt lengths ESTIMATED (" + Calibration.ESTIMATE_NOTE
          + "): the server has no /tokenize; input tokens are reported from the server's usage";
    }
    OptionalInt base = counter.count("");
    double worst = 0;
    int worstTokens = 0;
    for (int i = 0; i < samples; i++) {
      RequestSpec r = request(i, null);
      OptionalInt n = counter.count(r.prompt());
      if (n.isEmpty() || base.isEmpty()) {
        return "prompt lengths calibrated per word; the check with /tokenize failed";
      }
      int err = Math.abs(n.getAsInt() - base.getAsInt() - r.promptTokens());
      if (err > worstTokens) {
        worstTokens = err;
        worst = (double) err / Math.max(1, r.promptTokens());
      }
    }
    return String.format(
        Locale.ROOT,
        "exact lengths by the server's tokenizer: %d sample prompts within %d tokens (%.2f%%)%s",
        samples, worstTokens, 100 * worst, worst > 0.01 ? " — MORE THAN 1%: this tokenizer does not add up word by word" : "");
  }
}
