package io.github.llmbench.workload;

import io.github.llmbench.core.LengthDistribution;
import io.github.llmbench.core.Seeds;
import io.github.llmbench.settings.WorkloadSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

/**
 * vLLM's random dataset: prompts of an exact number of tokens, outputs of an exact number of tokens
 * ({@code max_tokens} with {@code ignore_eos}), lengths optionally spread uniformly over [len x (1
 * - r), len x (1 + r)], an optional shared prefix.
 *
 * <p>Exactness, by one of three methods ({@link Method}), chosen by {@link #forServer} from what
 * the server's tokenizer allows and shows:
 *
 * <ul>
 *   <li>{@link Method#WORDS}: each vocabulary word's token count is measured once with the server's
 *       tokenizer (at a prompt's start, and after a space); a prompt is then random words whose
 *       counts add up to the target. Made on the fly, any number of prompts. Exact where the
 *       tokenizer splits on spaces and has one-token words (BPE vocabularies of real models);
 *       checked on sample prompts before the load.
 *   <li>{@link Method#TOKEN_IDS}: where words do not add up or none is one token (byte-level and
 *       small vocabularies), each prompt is made with the server's {@code /detokenize} (or a local
 *       vocabulary's pieces) and counted with its {@code /tokenize} ({@link ExactPrompts}): exact
 *       by construction, no word needed, made before the load ({@link #prepare}), as many as the
 *       run sends (or a pool used in turn).
 *   <li>{@link Method#ESTIMATE}: no tokenizer endpoint: one word per token, an estimate.
 * </ul>
 */
public final class RandomDataset implements Dataset {
  private static final long PREFIX_SALT = 0x5EED_F1E1_D5A1_7L;
  private static final long TEXT_SALT = 0x7E57_0F1D_5EEDL;

  /** How prompt lengths are made exact. */
  public enum Method {
    WORDS("words of prompts/base.txt, each measured with the server's tokenizer"),
    TOKEN_IDS(
        "token ids turned into text by the server's /detokenize, re-counted with /tokenize, trimmed or padded"),
    ESTIMATE("one word per token, an ESTIMATE");

    private final String description;

    Method(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }
  }

  private final Calibration calibration;

  /**
   * The words of one token, after a space and at a prompt's start: what a prompt ends (or starts)
   * on.
   */
  private final int[] oneToken;

  private final int[] oneTokenFirst;
  private final ExactPrompts exact;
  private final Lengths lengths;
  private final int prefixLen;
  private final long seed;
  private int shardIndex;
  private int shardCount;

  /** The shared prefixes, one per group ({@code -Dprefix.groups}); empty without a prefix. */
  private final List<String> prefixes;

  /**
   * The tokens a request may have in all (the server's context less the chat template's), to which
   * distributions without a top are clipped ({@link #fitTo}).
   */
  private volatile int budget = UNLIMITED;

  private static final int UNLIMITED = Integer.MAX_VALUE / 4;

  /** The draws {@link #longestRequests} and {@link #sample} look at when the run's size is open. */
  static final int SAMPLED_REQUESTS = 10_000;

  /**
   * How long prompts and outputs are: their distributions, and the prefix in front of each prompt.
   *
   * @param prefixLen tokens of the prefix every prompt starts with (0: none)
   * @param prefixGroups distinct prefixes, the requests taking them in turn
   */
  public record Lengths(
      LengthDistribution input, LengthDistribution output, int prefixLen, int prefixGroups) {
    public Lengths {
      if (prefixGroups < 1 || prefixLen < 0) {
        throw new IllegalArgumentException(
            "prefix of " + prefixLen + " tokens in " + prefixGroups + " groups");
      }
    }

    /** vLLM's random dataset: one range ratio for both lengths, one shared prefix. */
    public static Lengths of(int inputLen, int outputLen, double rangeRatio, int prefixLen) {
      return new Lengths(
          LengthDistribution.ofRangeRatio(inputLen, rangeRatio),
          LengthDistribution.ofRangeRatio(outputLen, rangeRatio),
          prefixLen,
          1);
    }

    /** The random dataset's lengths as the settings give them. */
    public static Lengths of(WorkloadSettings w) {
      return new Lengths(w.inputLengths(), w.outputLengths(), w.prefixLen(), w.prefixGroups());
    }

    /** Whether either length is drawn (not one fixed number). */
    public boolean spread() {
      return !input.isFixed() || !output.isFixed();
    }
  }

  private volatile List<ExactPrompts.Prompt> made = List.of();
  private volatile Exactness exactness = Exactness.ALL;

  /**
   * The prepared prompts off their target: how many, and the one furthest off (its target, its
   * count).
   */
  private record Exactness(int off, int worstTarget, int worstTokens) {
    static final Exactness ALL = new Exactness(0, 0, 0);

    int worstError() {
      return Math.abs(worstTokens - worstTarget);
    }
  }

  /**
   * Token counts of the vocabulary words.
   *
   * @param tokens tokens of each word when it follows a space
   * @param firstTokens tokens of each word at the start of a text (many tokenizers count a word
   *     with no space before it differently)
   * @param exact whether the counts come from the server's tokenizer and can make any length
   */
  public record Calibration(List<String> words, int[] tokens, int[] firstTokens, boolean exact) {
    /** Measures each word with {@code counter}; falls back to an estimate when it cannot. */
    public static Calibration measure(List<String> vocabulary, TokenCounter counter) {
      OptionalInt base = counter.count("");
      if (base.isEmpty()) {
        return estimated(vocabulary);
      }
      List<String> kept = new ArrayList<>();
      List<int[]> counts = new ArrayList<>();
      for (String w : vocabulary) {
        OptionalInt after = counter.count(" " + w);
        OptionalInt first = counter.count(w);
        if (after.isEmpty() || first.isEmpty()) {
          return estimated(vocabulary);
        }
        int n = after.getAsInt() - base.getAsInt();
        int f = first.getAsInt() - base.getAsInt();
        if (n >= 1 && f >= 1) {
          kept.add(w);
          counts.add(new int[] {n, f});
        }
      }
      int[] tokens = counts.stream().mapToInt(c -> c[0]).toArray();
      int[] firstTokens = counts.stream().mapToInt(c -> c[1]).toArray();
      // any length needs a one-token word to end on, and one to start with (a 1-token prompt)
      boolean exact =
          Arrays.stream(tokens).anyMatch(n -> n == 1)
              && Arrays.stream(firstTokens).anyMatch(n -> n == 1);
      return new Calibration(kept, tokens, firstTokens, exact);
    }

    /** Every word counted as one token: the prompt then has {@value #ESTIMATE_NOTE}. */
    public static Calibration estimated(List<String> vocabulary) {
      int[] ones = new int[vocabulary.size()];
      Arrays.fill(ones, 1);
      return new Calibration(List.copyOf(vocabulary), ones, ones, false);
    }

    static final String ESTIMATE_NOTE = "one word per token, an estimate";

    /** No words: what the token-ids method, which needs none, is given. */
    static Calibration none() {
      return new Calibration(List.of(), new int[0], new int[0], false);
    }
  }

  /** The words method (or, with an estimated calibration, the estimate). */
  public RandomDataset(
      Calibration calibration,
      int inputLen,
      int outputLen,
      double rangeRatio,
      int prefixLen,
      long seed) {
    this(calibration, null, Lengths.of(inputLen, outputLen, rangeRatio, prefixLen), seed);
  }

  /** The words method with lengths of any distribution and prefix groups. */
  public RandomDataset(Calibration calibration, Lengths lengths, long seed) {
    this(calibration, null, lengths, seed);
  }

  private RandomDataset(Calibration calibration, ExactPrompts exact, Lengths lengths, long seed) {
    if (exact == null && calibration.words().isEmpty()) { // token ids need no words
      throw new DatasetException("the prompt vocabulary is empty");
    }
    this.calibration = calibration;
    this.oneToken =
        IntStream.range(0, calibration.tokens().length)
            .filter(i -> calibration.tokens()[i] == 1)
            .toArray();
    this.oneTokenFirst =
        IntStream.range(0, calibration.firstTokens().length)
            .filter(i -> calibration.firstTokens()[i] == 1)
            .toArray();
    this.exact = exact;
    this.lengths = lengths;
    this.prefixLen = lengths.prefixLen();
    this.seed = seed;
    this.shardIndex = 0;
    this.shardCount = 1;
    Random prefixRandom = new Random(seed ^ PREFIX_SALT);
    List<String> made = new ArrayList<>();
    for (int g = 0; prefixLen > 0 && g < lengths.prefixGroups(); g++) {
      made.add(
          exact != null
              ? exact.make("", 0, prefixLen, prefixRandom).text()
              : words(prefixLen, prefixRandom, true));
    }
    this.prefixes = List.copyOf(made);
  }

  /** The prefix request {@code index} starts with ("" without one): the groups in turn. */
  private String prefixOf(long index) {
    return prefixes.isEmpty() ? "" : prefixes.get((int) (index % prefixes.size()));
  }

  /** The token-ids method: prompts made by {@code exact}, no word needed. */
  public static RandomDataset byTokenIds(
      ExactPrompts exact,
      int inputLen,
      int outputLen,
      double rangeRatio,
      int prefixLen,
      long seed) {
    return byTokenIds(exact, Lengths.of(inputLen, outputLen, rangeRatio, prefixLen), seed);
  }

  /** The token-ids method with lengths of any distribution and prefix groups. */
  public static RandomDataset byTokenIds(ExactPrompts exact, Lengths lengths, long seed) {
    return new RandomDataset(Calibration.none(), exact, lengths, seed);
  }

  /** The dataset and what was found on the way, for the console's start line. */
  public record Selection(RandomDataset dataset, String tokenizer, String why) {}

  /**
   * Picks the method from what the server's tokenizer allows: words when they add up exactly on
   * {@code samples} sample prompts, else token ids when the server can decode, else words with
   * their measured error (or the estimate without a tokenizer).
   */
  public static Selection forServer(
      ServerTokenizer tokenizer,
      int inputLen,
      int outputLen,
      double rangeRatio,
      int prefixLen,
      long seed,
      int samples) {
    return forServer(
        tokenizer, Lengths.of(inputLen, outputLen, rangeRatio, prefixLen), seed, samples);
  }

  /** As above, with lengths of any distribution and prefix groups. */
  public static Selection forServer(
      ServerTokenizer tokenizer, Lengths lengths, long seed, int samples) {
    if (!tokenizer.present()) {
      return new Selection(
          new RandomDataset(Calibration.estimated(shippedVocabulary()), lengths, seed),
          tokenizer.describe(),
          "the server counts no tokens");
    }
    Calibration words = Calibration.measure(shippedVocabulary(), tokenizer);
    String why;
    RandomDataset byWords = null;
    if (words.exact()) {
      byWords = new RandomDataset(words, lengths, seed);
      WordCheck check = byWords.check(tokenizer, samples);
      if (check.worstTokens() == 0) {
        return new Selection(byWords, tokenizer.describe(), check.describe());
      }
      why = "words do not add up here (" + check.describe() + ")";
    } else if (words.words().isEmpty()) {
      why = "no word of prompts/base.txt counts as a token in this vocabulary";
    } else {
      why = "no word of prompts/base.txt is one token in this vocabulary";
    }
    Optional<ExactPrompts> exact = ExactPrompts.of(tokenizer, shippedCorpus());
    if (exact.isPresent()) {
      return new Selection(byTokenIds(exact.get(), lengths, seed), tokenizer.describe(), why);
    }
    RandomDataset fallback =
        byWords != null
            ? byWords
            : new RandomDataset(
                words.words().isEmpty() ? Calibration.estimated(shippedVocabulary()) : words,
                lengths,
                seed);
    return new Selection(
        fallback, tokenizer.describe(), why + "; the server has no /detokenize to make them exact");
  }

  /** The distinct words of {@code prompts/base.txt} (on the classpath). */
  public static List<String> shippedVocabulary() {
    return Arrays.stream(shippedCorpus().toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
        .filter(w -> !w.isEmpty())
        .distinct()
        .toList();
  }

  /** The text of {@code prompts/base.txt} (on the classpath). */
  static String shippedCorpus() {
    try (InputStream in = RandomDataset.class.getResourceAsStream("/prompts/base.txt")) {
      if (in == null) {
        throw new IllegalStateException("prompts/base.txt is not on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read prompts/base.txt", e);
    }
  }

  public Method method() {
    return exact != null ? Method.TOKEN_IDS : calibration.exact() ? Method.WORDS : Method.ESTIMATE;
  }

  /** The method in words, for the start line: token ids also say how they became text. */
  public String describeMethod() {
    if (exact == null || exact.text() == ExactPrompts.Text.DECODED) {
      return method().description();
    }
    return "token ids " + exact.text().description() + ", re-counted, trimmed or padded";
  }

  /** Whether a token-ids dataset still needs {@link #prepare} before it can give requests. */
  public boolean needsPreparing() {
    return exact != null && made.isEmpty();
  }

  /**
   * Makes the first {@code count} prompts before the load (the token-ids method: each costs a few
   * calls to the server's tokenizer, which must not run during the load); a run that sends more
   * uses them in turn. Several calls at once: they wait on the server, not on this CPU.
   *
   * @return the largest difference, in tokens, between a prompt and its target (0: all exact)
   */
  public int prepare(int count) {
    if (exact == null) {
      return 0;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread t = new Thread(r, "llmbench-prompts");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<ExactPrompts.Prompt>> futures = new ArrayList<>();
      int[] targets = new int[count];
      for (int i = 0; i < count; i++) {
        long index = shardIndex + (long) i * shardCount; // this injector's requests only
        targets[i] = prefixLen + drawInput(requestRandom(index));
        int target = targets[i];
        String prefix = prefixOf(index);
        Random text = new Random(seed ^ TEXT_SALT ^ (index * 0x9E3779B97F4A7C15L));
        futures.add(pool.submit(() -> exact.make(prefix, prefixLen, target, text)));
      }
      List<ExactPrompts.Prompt> out = new ArrayList<>(count);
      Exactness worst = Exactness.ALL;
      int off = 0;
      for (int i = 0; i < count; i++) {
        ExactPrompts.Prompt p = futures.get(i).get();
        int error = Math.abs(p.tokens() - targets[i]);
        off += error > 0 ? 1 : 0;
        if (error > worst.worstError()) {
          worst = new Exactness(0, targets[i], p.tokens());
        }
        out.add(p);
      }
      made = List.copyOf(out);
      exactness = new Exactness(off, worst.worstTarget(), worst.worstTokens());
      return exactness.worstError();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new DatasetException(String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DatasetException("interrupted while the prompts were made");
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * How many prompts {@link #prepare} made (0 for the other methods, which make them on the fly).
   */
  public int prepared() {
    return made.size();
  }

  /** The largest difference between a prepared prompt and its target, in tokens. */
  public int worstPreparedError() {
    return exactness.worstError();
  }

  /**
   * How exact the prepared prompts came out, for the start line: "all exact", or one line naming
   * the tokenizer, the target it missed and by how much (the run goes on, with lengths it knows).
   */
  public String preparedExactness() {
    Exactness e = exactness;
    if (e.off() == 0) {
      return "all exact";
    }
    return String.format(
        Locale.ROOT,
        "NOT exact: %s cannot make every prompt exact: one of %d tokens came out %d"
            + " (%d of %d prompts off, by up to %d token%s)",
        exact.tokenizer(),
        e.worstTarget(),
        e.worstTokens(),
        e.off(),
        made.size(),
        e.worstError(),
        e.worstError() == 1 ? "" : "s");
  }

  @Override
  public RequestSpec request(long index, String profile) {
    Random rnd = requestRandom(index);
    int in = drawInput(rnd);
    int out = drawOutput(rnd, in);
    if (exact != null) {
      List<ExactPrompts.Prompt> prompts = made;
      if (prompts.isEmpty()) {
        throw new IllegalStateException(
            "token-ids prompts are made before the load: call prepare() first");
      }
      ExactPrompts.Prompt p = prompts.get((int) (index / shardCount % prompts.size()));
      return RequestSpec.ofPrompt(p.text(), out, profile, p.tokens());
    }
    String prompt =
        prefixLen > 0 ? prefixOf(index) + " " + words(in, rnd, false) : words(in, rnd, true);
    return RequestSpec.ofPrompt(prompt, out, profile, prefixLen + in);
  }

  /**
   * Each request's own generator. Its seed is mixed first: java.util.Random's first draws from
   * consecutive seeds are correlated (a normal length's first Gaussian would not be normal).
   */
  private Random requestRandom(long index) {
    return new Random(Seeds.mix(seed * 0x9E3779B97F4A7C15L + index));
  }

  /**
   * The same dataset with other prompts (the warmup's); token-ids prompts need {@link #prepare}
   * again.
   */
  @Override
  public RandomDataset withSeed(long newSeed) {
    RandomDataset d = new RandomDataset(calibration, exact, lengths, newSeed);
    d.shardIndex = shardIndex;
    d.shardCount = shardCount;
    d.budget = budget;
    return d;
  }

  /**
   * Tells a token-ids dataset that this injector sends requests {@code i}, {@code i + n}, {@code i
   * + 2n}, ... of the run (the other injectors the others): {@link #prepare} then makes those, and
   * no two injectors send the same prompt. Words and estimates need nothing (they make each request
   * from its number).
   */
  public void forInjector(int i, int n) {
    this.shardIndex = i;
    this.shardCount = n;
  }

  @Override
  public int maxTokens() {
    return lengths.output().unbounded()
        ? sample(SAMPLED_REQUESTS).output().max()
        : lengths.output().max(0);
  }

  /**
   * The longest request: the prefix, the top of the input range and of the output range; where a
   * distribution has no top, the longest of the first {@value #SAMPLED_REQUESTS} requests.
   */
  @Override
  public List<RequestSpec> longestRequests() {
    if (!lengths.input().unbounded() && !lengths.output().unbounded()) {
      return List.of(
          RequestSpec.ofPrompt("", maxTokens(), null, prefixLen + lengths.input().max(0)));
    }
    Sample s = sample(SAMPLED_REQUESTS);
    return List.of(RequestSpec.ofPrompt("", s.longestOutput(), null, prefixLen + s.longestInput()));
  }

  /**
   * Clips the lengths of distributions without a top so that no request has more than {@code
   * tokens} tokens (prefix, prompt and output); the lengths of the others are checked against the
   * context instead.
   */
  public void fitTo(int tokens) {
    this.budget = Math.max(prefixLen + 2, tokens);
  }

  /** The prompt's length after the prefix, at most -Dinput.len's top, one token left to output. */
  private int drawInput(Random rnd) {
    return lengths.input().draw(rnd, Math.min(WorkloadSettings.MAX_LEN, budget - prefixLen - 1));
  }

  private int drawOutput(Random rnd, int input) {
    return lengths
        .output()
        .draw(rnd, Math.min(WorkloadSettings.MAX_LEN, budget - prefixLen - input));
  }

  /** Summary statistics of drawn lengths. */
  public record Stats(int count, double mean, double stdev, int min, int max) {
    static Stats of(int[] v) {
      double mean = Arrays.stream(v).average().orElse(0);
      double ss = Arrays.stream(v).mapToDouble(x -> (x - mean) * (x - mean)).sum();
      return new Stats(
          v.length,
          mean,
          v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0,
          Arrays.stream(v).min().orElse(0),
          Arrays.stream(v).max().orElse(0));
    }

    public String describe() {
      return String.format(Locale.ROOT, "mean %.1f, stdev %.1f, %d..%d", mean, stdev, min, max);
    }
  }

  /**
   * The lengths of this injector's first {@code n} requests, as they are sent (after the prefix,
   * clipped to {@link #fitTo}'s tokens), drawn without making a prompt.
   *
   * @param clipped how many were clipped to the context
   */
  public record Sample(Stats input, Stats output, int clipped) {
    int longestInput() {
      return input.max();
    }

    int longestOutput() {
      return output.max();
    }
  }

  /** Draws the lengths of the first {@code n} requests (see {@link Sample}). */
  public Sample sample(int n) {
    int[] in = new int[n];
    int[] out = new int[n];
    int clipped = 0;
    int cap = budget;
    for (int i = 0; i < n; i++) {
      Random rnd = requestRandom(shardIndex + (long) i * shardCount);
      in[i] = drawInput(rnd);
      out[i] = drawOutput(rnd, in[i]);
      boolean atCap =
          lengths.input().unbounded() && in[i] == cap - prefixLen - 1
              || lengths.output().unbounded() && prefixLen + in[i] + out[i] == cap;
      clipped += cap < UNLIMITED && atCap ? 1 : 0;
    }
    return new Sample(Stats.of(in), Stats.of(out), clipped);
  }

  /** The lengths as the settings ask them. */
  public Lengths lengths() {
    return lengths;
  }

  /**
   * The share of prompt tokens a perfect prefix cache serves once each group's prefix has been
   * seen: the prefix over the mean prompt (its template's tokens too); 0 without a prefix.
   *
   * @param templateTokens tokens the chat template adds to each prompt
   */
  public double steadyPrefixHitRate(int templateTokens) {
    if (prefixLen == 0) {
      return 0;
    }
    double meanInput = sample(Math.min(SAMPLED_REQUESTS, 2000)).input().mean();
    return prefixLen / (prefixLen + meanInput + templateTokens);
  }

  /**
   * Random words adding up to exactly {@code tokens} tokens by the calibration.
   *
   * @param atStart whether the text starts the prompt (its first word is counted as such)
   */
  String words(int tokens, Random rnd, boolean atStart) {
    List<String> words = calibration.words();
    StringBuilder sb = new StringBuilder(tokens * 7);
    int remaining = tokens;
    boolean first = atStart;
    while (remaining > 0) {
      int[] counts = first ? calibration.firstTokens() : calibration.tokens();
      int[] ones = first ? oneTokenFirst : oneToken;
      int i = rnd.nextInt(words.size());
      if (counts[i] > remaining && ones.length > 0) {
        i = ones[rnd.nextInt(ones.length)];
      }
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(words.get(i));
      remaining -= counts[i];
      first = false;
    }
    return sb.toString();
  }

  /**
   * Sample prompts re-counted by the server.
   *
   * @param samples prompts checked
   * @param worstTokens the largest difference from the target, in tokens (-1: the check failed)
   * @param worstShare that difference over the target
   */
  public record WordCheck(int samples, int worstTokens, double worstShare) {
    public String describe() {
      if (worstTokens < 0) {
        return "the check of sample prompts with /tokenize failed";
      }
      return String.format(
          Locale.ROOT,
          "%d sample prompts re-counted by the server: %s",
          samples,
          worstTokens == 0
              ? "all exact"
              : String.format(
                  Locale.ROOT, "off by up to %d tokens (%.2f%%)", worstTokens, 100 * worstShare));
    }
  }

  /** Checks a few prompts against the server's own count. */
  public WordCheck check(TokenCounter counter, int samples) {
    return check(this, counter, samples);
  }

  /**
   * Checks the first {@code samples} prompts of a dataset whose lengths are known against the
   * server's count.
   */
  public static WordCheck check(Dataset dataset, TokenCounter counter, int samples) {
    OptionalInt base = counter.count("");
    int worstTokens = 0;
    double worst = 0;
    for (int i = 0; i < samples; i++) {
      RequestSpec r = dataset.request(i, null);
      OptionalInt n = counter.count(r.prompt());
      if (n.isEmpty() || base.isEmpty()) {
        return new WordCheck(samples, -1, Double.NaN);
      }
      int err = Math.abs(n.getAsInt() - base.getAsInt() - r.promptTokens());
      if (err > worstTokens) {
        worstTokens = err;
        worst = (double) err / Math.max(1, r.promptTokens());
      }
    }
    return new WordCheck(samples, worstTokens, worst);
  }
}
