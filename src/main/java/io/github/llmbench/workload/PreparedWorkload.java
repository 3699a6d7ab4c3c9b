package io.github.llmbench.workload;

import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.Seeds;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.Images;
import io.github.llmbench.settings.LoadSettings;
import io.github.llmbench.settings.SessionSettings;
import io.github.llmbench.settings.WorkloadSettings;
import io.github.llmbench.workload.sessions.MessageTemplate;
import io.github.llmbench.workload.sessions.SessionFile;
import io.github.llmbench.workload.sessions.SessionShape;
import io.github.llmbench.workload.sessions.SessionSupply;
import io.github.llmbench.workload.sessions.WekaTraces;
import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run's requests as the settings and the server make them: the dataset of the measured requests
 * and the warmup's, the profiles sent one after another, and the start lines about the tokenizer,
 * the chat template, the prompts and the context. The prompts made ahead and the check of the
 * longest request against the server's context wait for {@link #prepare}, so a simulation with its
 * own feeder neither waits for them nor is stopped by them.
 */
public final class PreparedWorkload {

  /** Sample prompts re-counted by the server's tokenizer before the load (the words method). */
  static final int CHECKED_SAMPLES = 5;

  /** Warmup prompts come from another seed than measured ones, so no measured prompt is cached. */
  static final long WARMUP_SEED_SALT = 0x3A3A_5EED_0000_0001L;

  /** What the workload asks the server before the load. */
  public interface Server {
    /** The server's tokenizer ({@link ServerTokenizer#NONE} when it has no endpoint for it). */
    ServerTokenizer tokenizer();

    /**
     * The tokens the chat template adds around a message of {@code content}; empty when unknown.
     */
    OptionalInt chatTemplateTokens(ServerTokenizer tokenizer, String content);

    /** The server's context per request; empty when it tells none. */
    Optional<ContextLength> contextLength();
  }

  /**
   * The server's context per request.
   *
   * @param source where it was read, e.g. "max_model_len of GET /v1/models"
   * @param sharedBySlots how many request slots share these tokens (llama.cpp's unified KV cache,
   *     where every slot reports the whole context), or 0 when each request has its own
   */
  public record ContextLength(int tokens, String source, int sharedBySlots) {
    public ContextLength(int tokens, String source) {
      this(tokens, source, 0);
    }
  }

  /**
   * What the load plan sends, for the prompts made before the load.
   *
   * @param measured requests of the measured phases to make prompts for
   * @param warmup requests of the warmup to make prompts for
   * @param reused whether the measured phases may send more requests than that, using the prompts
   *     in turn
   * @param peakConcurrency the most requests the load keeps in flight at once, 0 when unbounded (an
   *     open model without {@code -Dmax.conc})
   */
  public record PlannedRequests(int measured, int warmup, boolean reused, int peakConcurrency) {
    public PlannedRequests(int measured, int warmup, boolean reused) {
      this(measured, warmup, reused, 0);
    }
  }

  /**
   * The dataset file, the trace and the local tokenizer the settings name, read before the server
   * is asked anything: a bad file or path costs nothing.
   */
  public static final class Sources {
    private final FileDataset file;
    private final List<TraceDataset.Entry> trace;
    private final SessionSupply sessions;
    private final LocalTokenizer localTokenizer;

    private Sources(
        FileDataset file,
        List<TraceDataset.Entry> trace,
        SessionSupply sessions,
        LocalTokenizer localTokenizer) {
      this.file = file;
      this.trace = trace;
      this.sessions = sessions;
      this.localTokenizer = localTokenizer;
    }

    /**
     * @throws DatasetException when a file cannot be used
     */
    public static Sources read(BenchSettings settings) {
      WorkloadSettings w = settings.workload();
      FileDataset file =
          w.dataset() == DatasetKind.FILE
              ? FileDataset.read(w.file().get(), w.outputLen(), w.seed())
              : null;
      List<TraceDataset.Entry> trace =
          w.dataset() == DatasetKind.TRACE ? traceLines(w, settings.load()) : null;
      return new Sources(
          file,
          trace,
          sessions(w),
          settings.server().tokenizerPath().map(LocalTokenizer::load).orElse(null));
    }

    /** The agent sessions a session dataset names, or null for other datasets. */
    private static SessionSupply sessions(WorkloadSettings w) {
      if (w.sessions().isEmpty()) {
        return null;
      }
      SessionSettings s = w.sessions().get();
      return switch (w.dataset()) {
        case SESSIONS ->
            SessionSupply.of(SessionFile.read(w.file().get()), "sessions of " + w.file().get());
        case WEKA ->
            SessionSupply.of(
                WekaTraces.read(w.file().get(), s.idleCapSeconds() * 1000),
                "Weka agent traces of " + w.file().get());
        default -> SessionSupply.shaped(SessionShape.of(s.shape()));
      };
    }

    /** The trace's lines; {@code -Dprompts=N} keeps the first N. */
    private static List<TraceDataset.Entry> traceLines(WorkloadSettings w, LoadSettings load) {
      List<TraceDataset.Entry> lines = TraceDataset.read(w.file().get());
      List<TraceDataset.Entry> kept =
          load.prompts().isEmpty()
              ? lines
              : lines.subList(0, Math.min(lines.size(), load.prompts().get(0)));
      TraceDataset.checkReplayTime(kept, w.traceSpeed(), w.file().get());
      return kept;
    }
  }

  private final WorkloadSettings w;
  private final OptionalInt maxTokensOverride;
  private final Server server;
  private final PrintStream out;

  /** {@code -Dtokenizer}'s tokenizer, or null (the server's, if any, is used). */
  private final LocalTokenizer localTokenizer;

  private final ServerTokenizer tokenizer;
  private final Dataset dataset;
  private final SessionSupply sessions;
  private final Dataset warmupDataset;
  private final long injectorIndex;
  private final long injectorCount;
  private final List<String> sequentialProfiles;
  private final Map<String, String> startNotes;

  /**
   * Why the prompts' lengths are as exact as they are, for the start line made by {@link #prepare}.
   */
  private final String whyLengths;

  private final int templateTokens;
  private boolean prepared;
  private volatile Map<String, String> preparedNotes = Map.of();

  /** A local tokenizer's counts of the dataset's prompts of unknown length. */
  private final Map<RequestSpec, Integer> promptCounts = new ConcurrentHashMap<>();

  private PreparedWorkload(
      BenchSettings settings, Sources sources, Server server, PrintStream out) {
    this.w = settings.workload();
    // an embeddings request generates nothing: its prompt alone must fit
    this.maxTokensOverride =
        settings.server().api().figures().generates()
            ? settings.server().requestOptions().maxTokens()
            : OptionalInt.of(0);
    this.server = server;
    this.out = out;
    this.localTokenizer = sources.localTokenizer;
    ServerTokenizer serverTokenizer = server.tokenizer();
    this.tokenizer = localTokenizer != null ? localTokenizer : serverTokenizer;
    Map<String, String> notes = new LinkedHashMap<>();
    notes.put(
        "tokenizer",
        localTokenizer == null
            ? tokenizer.describe()
            : localTokenizer.describe()
                + "; "
                + TokenizerCheck.against(localTokenizer, serverTokenizer));
    ChosenDataset chosen = ChosenDataset.of(w, tokenizer, sources);
    this.dataset = chosen.dataset();
    this.sessions = sources.sessions;
    if (sessions != null) {
      notes.put("sessions", sessions.describe());
    }
    this.sequentialProfiles = chosen.sequentialProfiles();
    this.whyLengths = chosen.whyLengths();
    this.warmupDataset = dataset.withSeed(w.seed() ^ WARMUP_SEED_SALT);
    this.injectorIndex = settings.injector().index();
    this.injectorCount = settings.injector().count();
    if (settings.injector().sharded()) {
      for (Dataset d : List.of(dataset, warmupDataset)) {
        if (d instanceof RandomDataset random) {
          random.forInjector(settings.injector().index(), settings.injector().count());
        }
      }
    }
    boolean chat = settings.server().api().takesChatMessages();
    OptionalInt template =
        chat && tokenizer.present()
            ? server.chatTemplateTokens(tokenizer, "How fast is the server?")
            : OptionalInt.empty();
    if (chat) {
      notes.put(
          "chat",
          template.isPresent()
              ? "the chat template adds "
                  + template.getAsInt()
                  + " tokens to each prompt (counted in the server's input tokens)"
              : "the chat template's tokens are unknown (the server's input tokens count them)");
    }
    this.templateTokens = template.orElse(0);
    this.startNotes = Collections.unmodifiableMap(notes);
  }

  /**
   * The dataset the settings name, fitted to the tokenizer.
   *
   * @param dataset its requests
   * @param sequentialProfiles the profiles run one after another (empty unless unmixed profiles)
   * @param whyLengths why the prompts' lengths are as exact as they are ("" when not measured)
   */
  private record ChosenDataset(
      Dataset dataset, List<String> sequentialProfiles, String whyLengths) {

    static ChosenDataset of(WorkloadSettings w, ServerTokenizer tokenizer, Sources sources) {
      switch (w.dataset()) {
        case RANDOM -> {
          RandomDataset.Selection selection =
              RandomDataset.forServer(
                  tokenizer, RandomDataset.Lengths.of(w), w.seed(), CHECKED_SAMPLES);
          return new ChosenDataset(selection.dataset(), List.of(), selection.why());
        }
        case SESSIONS, WEKA, AGENTS -> {
          // the words of the sessions' synthetic text ({{tokens:N}}) and of the warmup's prompts
          RandomDataset.Selection selection =
              RandomDataset.forServer(
                  tokenizer, w.inputLen(), w.outputLen(), 0, 0, w.seed(), CHECKED_SAMPLES);
          return new ChosenDataset(selection.dataset(), List.of(), selection.why());
        }
        case TRACE -> {
          RandomDataset.Selection selection =
              RandomDataset.forServer(
                  tokenizer, w.inputLen(), w.outputLen(), 0, 0, w.seed(), CHECKED_SAMPLES);
          TraceDataset replay = TraceDataset.of(sources.trace, selection.dataset(), w.seed());
          // how exact the trace's prompts come out is measured on a few of them, made after the
          // context check (preparePrompts): a trace's lengths may not fit it
          String why =
              selection.dataset().method() == RandomDataset.Method.TOKEN_IDS
                  ? "words do not add up with this tokenizer (" + selection.why() + "): "
                  : "";
          return new ChosenDataset(replay, List.of(), why);
        }
        case PROFILES -> {
          ProfilesDataset profiles =
              new ProfilesDataset(
                  w.profiles().group(),
                  w.profiles().names(),
                  ProfilesDataset.shippedSentence(),
                  w.seed());
          return new ChosenDataset(profiles, w.profilesMixed() ? List.of() : profiles.names(), "");
        }
        default -> {
          return new ChosenDataset(sources.file, List.of(), "");
        }
      }
    }
  }

  /**
   * Picks the dataset the settings name, fitted to the server's tokenizer (or {@code
   * -Dtokenizer}'s), and asks the server for its chat template's tokens.
   *
   * @param out where {@link #prepare} says that it makes prompts, as it may take a while
   */
  public static PreparedWorkload forServer(
      BenchSettings settings, Sources sources, Server server, PrintStream out) {
    return new PreparedWorkload(settings, sources, server, out);
  }

  /**
   * The synthetic images of stretch {@code stretch} of the run's requests (a phase, numbered in the
   * run), {@code step}'s count a request at its size (else the run's), this injector's share of
   * them; null when the count is 0. Every stretch's images differ from every other's.
   *
   * @param requests this injector's requests of the stretch, when known: none are made past them
   */
  public ImageSupply images(long stretch, ImageStep step, OptionalLong requests) {
    if (step.count() == 0) {
      return null;
    }
    Images images = w.images().at(step.size());
    return new ImageSupply(
        new SyntheticImages(images, Seeds.mix(w.seed() ^ Seeds.mix(stretch))),
        images,
        step.count(),
        injectorIndex,
        injectorCount,
        requests.orElse(Long.MAX_VALUE));
  }

  /** The measured requests. */
  public Dataset dataset() {
    return dataset;
  }

  /** The agent sessions of a session dataset; empty for other datasets. */
  public Optional<SessionSupply> sessions() {
    return Optional.ofNullable(sessions);
  }

  /**
   * The sessions' synthetic text ({@code {{tokens:N}}}) of the measured dataset's words, or of the
   * warmup's ({@code warmup}), so no measured text is cached by the warmup.
   */
  public MessageTemplate.FillerText filler(boolean warmup) {
    Dataset d = warmup ? warmupDataset : dataset;
    if (d instanceof RandomDataset random) {
      return new SessionText(random, warmup ? w.seed() ^ WARMUP_SEED_SALT : w.seed());
    }
    throw new IllegalStateException("sessions' synthetic text needs the words of random prompts");
  }

  /** The warmup's requests: the same kind, from another seed. */
  public Dataset warmupDataset() {
    return warmupDataset;
  }

  /**
   * The profiles sent one after another ({@code -Dprofile.order=sequential}); empty when mixed or
   * without profiles.
   */
  public List<String> sequentialProfiles() {
    return sequentialProfiles;
  }

  /**
   * A trace's send times in s from the replay's start at {@code -Dtrace.speed}; empty for other
   * datasets.
   */
  public Optional<List<Double>> traceSendTimes() {
    return dataset instanceof TraceDataset replay
        ? Optional.of(replay.sendTimesSeconds(w.traceSpeed()))
        : Optional.empty();
  }

  /** {@code -Dtokenizer}'s tokenizer, if given. */
  public Optional<LocalTokenizer> localTokenizer() {
    return Optional.ofNullable(localTokenizer);
  }

  /**
   * The start lines known before any preparation: the tokenizer and, for chat, the chat template.
   */
  public Map<String, String> startNotes() {
    return startNotes;
  }

  /** The start lines {@link #prepare} made (the prompts, the context); empty before. */
  public Map<String, String> preparedNotes() {
    return preparedNotes;
  }

  /**
   * Checks the longest request against the server's context and then makes the prompts that are
   * made before the load, the first time it is called.
   *
   * @return the start lines it made ({@code lengths}, {@code context}); empty on later calls
   * @throws DatasetException naming both numbers when the longest request does not fit the context
   */
  public synchronized Map<String, String> prepare(PlannedRequests planned) {
    if (prepared) {
      return Map.of();
    }
    prepared = true;
    Map<String, String> notes = new LinkedHashMap<>();
    Optional<ContextLength> context = server.contextLength();
    if (sessions != null) {
      notes.put("lengths", sessionLengths());
      notes.put(
          "context",
          context.map(c -> c.tokens() + " tokens per request (" + c.source() + "); ").orElse("")
              + "agent sessions' prompts grow with the answers they carry: not checked before"
              + " the load (a call over the context fails with the server's error)");
      preparedNotes = Collections.unmodifiableMap(notes);
      return preparedNotes;
    }
    if (dataset instanceof RandomDataset random && context.isPresent()) {
      // distributions without a top are clipped to the context before any prompt is made
      random.fitTo(context.get().tokens() - templateTokens);
      ((RandomDataset) warmupDataset).fitTo(context.get().tokens() - templateTokens);
    }
    // the lengths against the context first: no prompt is made for a request that cannot fit
    String contextLine = checkContext(context, planned.peakConcurrency());
    notes.put("lengths", preparePrompts(planned));
    if (dataset instanceof RandomDataset random && random.lengths().spread()) {
      notes.put("distribution", distributionLine(random, planned));
    }
    if (dataset instanceof RandomDataset random && w.prefixLen() > 0) {
      notes.put("prefix", prefixLine(random));
    }
    notes.put("context", contextLine);
    preparedNotes = Collections.unmodifiableMap(notes);
    return preparedNotes;
  }

  /**
   * A request as a feeder record; with a local tokenizer, a prompt of unknown length (a file's)
   * counted, once per prompt: a file's requests come round again, and the count runs as the request
   * is fed.
   */
  public Map<String, Object> feederRecord(RequestSpec spec) {
    return feederRecord(spec, List.of());
  }

  /**
   * As {@link #feederRecord(RequestSpec)}, with {@code images} added to its last user message (a
   * local tokenizer counts the text alone).
   */
  public Map<String, Object> feederRecord(RequestSpec spec, List<String> images) {
    Map<String, Object> r = FeederRecords.of(spec.withImages(images));
    if (localTokenizer != null && spec.promptTokens() < 0) {
      r = new LinkedHashMap<>(r);
      r.put(
          FeederRecords.INPUT_TOKENS,
          promptCounts.computeIfAbsent(spec, s -> localTokenizer.countText(s.promptText())));
    }
    return r;
  }

  /**
   * Makes the token-ids prompts, before the load (as many as the run sends when it sends a fixed
   * number, else a pool used in turn; the other methods make theirs on the fly), and returns the
   * start line about the prompts: the method that makes their lengths exact and how exact they came
   * out.
   */
  private String preparePrompts(PlannedRequests planned) {
    if (w.dataset() == DatasetKind.PROFILES) {
      return "profiles "
          + w.profiles()
          + (w.profilesMixed() ? ", mixed" : ", in order")
          + ": "
          + ((ProfilesDataset) dataset).names();
    }
    if (w.dataset() == DatasetKind.FILE) {
      return ((FileDataset) dataset).size() + " requests in " + w.file().get();
    }
    if (dataset instanceof TraceDataset replay) {
      return String.format(
          Locale.ROOT,
          "%d requests over %.1f s of trace (sent over %.1f s), %d distinct blocks of %d tokens; %s",
          replay.size(),
          replay.spanMs() / 1000,
          replay.spanMs() / 1000 / w.traceSpeed(),
          replay.distinctBlocks(),
          TraceDataset.BLOCK_TOKENS,
          whyLengths + RandomDataset.check(replay, tokenizer, CHECKED_SAMPLES).describe());
    }
    RandomDataset random = (RandomDataset) dataset;
    String method =
        "method: "
            + (localTokenizer == null
                ? random.describeMethod()
                : random
                    .describeMethod()
                    .replace("the server's ", "the local tokenizer's ")
                    .replace("by the server", "by the local tokenizer"));
    return switch (random.method()) {
      case ESTIMATE ->
          method + " (" + whyLengths + "): input tokens are reported from the server's usage";
      case WORDS -> method + "; " + whyLengths;
      case TOKEN_IDS -> {
        long startNanos = System.nanoTime();
        int measured = planned.measured();
        out.println(
            "gatling-llm-bench: making "
                + measured
                + " prompts of exact length with the "
                + (localTokenizer == null ? "server's" : "local")
                + " tokenizer...");
        int worst = random.prepare(measured);
        RandomDataset worstMade = random;
        int warmup = planned.warmup();
        if (warmup > 0 && ((RandomDataset) warmupDataset).prepare(warmup) > worst) {
          worstMade = (RandomDataset) warmupDataset;
        }
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        yield method
            + " ("
            + whyLengths
            + "); "
            + measured
            + (warmup > 0 ? " + " + warmup + " warmup" : "")
            + String.format(Locale.ROOT, " prompts made before the load in %.1f s", seconds)
            + (planned.reused()
                ? ", then used in turn (a server's prefix cache serves repeats: -Dprompts=N makes one per request)"
                : "")
            + ": "
            + worstMade.preparedExactness();
      }
    };
  }

  /**
   * The asked distributions against the lengths drawn for the first requests (the run's, when it
   * sends a fixed number), e.g. {@code input normal, mean 512, stdev 128: drawn mean 511.2, stdev
   * 127.0, 131..905 over 1000 requests}.
   */
  static String distributionLine(RandomDataset random, PlannedRequests planned) {
    int n =
        planned.measured() > 0 && !planned.reused()
            ? Math.min(planned.measured(), RandomDataset.SAMPLED_REQUESTS)
            : RandomDataset.SAMPLED_REQUESTS;
    RandomDataset.Sample s = random.sample(n);
    RandomDataset.Lengths asked = random.lengths();
    return "input "
        + asked.input().describe()
        + (asked.input().isFixed() ? "" : ": drawn " + s.input().describe())
        + "; output "
        + asked.output().describe()
        + (asked.output().isFixed() ? "" : ": drawn " + s.output().describe())
        + " (the first "
        + n
        + " requests"
        + (s.clipped() > 0 ? ", " + s.clipped() + " clipped to the context" : "")
        + ")";
  }

  /** The prefix groups and the hit rate a perfect prefix cache would get. */
  private String prefixLine(RandomDataset random) {
    int groups = w.prefixGroups();
    return String.format(
        Locale.ROOT,
        "%d prefix%s of %d tokens, taken in turn: a perfect prefix cache serves %.1f%% of the"
            + " prompt tokens once each has been sent (the first %d request%s miss%s)",
        groups,
        groups == 1 ? "" : "es",
        w.prefixLen(),
        100 * random.steadyPrefixHitRate(templateTokens),
        groups,
        groups == 1 ? "" : "s",
        groups == 1 ? "es" : "");
  }

  /** How exact the sessions' synthetic text ({@code {{tokens:N}}}) is. */
  private String sessionLengths() {
    boolean estimated =
        !(dataset instanceof RandomDataset random) || random.method() != RandomDataset.Method.WORDS;
    return "agent sessions' synthetic text ({{tokens:N}}): words of the run's vocabulary, "
        + (estimated
            ? "their tokens estimated (the server's tokenizer cannot be asked as a call is sent)"
            : "their tokens measured with the server's tokenizer before the load");
  }

  /**
   * Checks that the longest request fits the server's context before any load.
   *
   * @return the start line about the context
   * @throws DatasetException naming both numbers when it does not fit
   */
  private String checkContext(Optional<ContextLength> context, int peakConcurrency) {
    if (context.isEmpty()) {
      return "unknown (the server tells no context length): requests are not checked against it";
    }
    ContextLength c = context.get();
    Optional<ContextFit.Longest> longest =
        ContextFit.longest(dataset.longestRequests(), tokenizer, templateTokens, maxTokensOverride);
    if (longest.isEmpty()) {
      return c.tokens()
          + " tokens per request ("
          + c.source()
          + "); the longest request was not counted (no tokenizer)";
    }
    if (w.multiTurn() && w.dataset() != DatasetKind.FILE) {
      // the last turn carries every earlier turn and its answer (at most max_tokens each)
      ContextFit.Longest one = longest.get();
      ContextFit.Longest last = one.lastTurnOf(w.turns());
      ContextFit.problem(last, c.tokens(), c.source())
          .ifPresent(
              message -> {
                throw new DatasetException(
                    message
                        .replace(
                            "The longest request",
                            "The last turn of a conversation (-Dturns=" + w.turns() + ")")
                        .replace("lower -Dinput.len", "lower -Dturns, -Dinput.len"));
              });
      return c.tokens()
          + " tokens per request ("
          + c.source()
          + "); the last turn of a conversation needs up to "
          + last.total();
    }
    ContextFit.problem(longest.get(), c.tokens(), c.source())
        .ifPresent(
            message -> {
              throw new DatasetException(message);
            });
    return c.tokens()
        + " tokens per request ("
        + c.source()
        + "); the longest request needs "
        + longest.get().total()
        + (w.multiTurn() ? " (a turn; later turns also carry the conversation so far)" : "")
        + (w.images().any() ? " and its images' tokens, which only the server counts" : "")
        + sharedContextWarning(c, longest.get().total(), peakConcurrency);
  }

  /**
   * Where the server's slots share one context (llama.cpp's unified KV cache), what the load's
   * concurrent requests need of it, when that is more than there is: the server then aborts the
   * requests it cannot hold. Empty otherwise.
   */
  static String sharedContextWarning(ContextLength c, long longest, int peakConcurrency) {
    if (c.sharedBySlots() < 2 || peakConcurrency < 2) {
      return "";
    }
    int inFlight = Math.min(peakConcurrency, c.sharedBySlots());
    long need = inFlight * longest;
    if (need <= c.tokens()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; ! its %d slots share these %d tokens (llama.cpp's unified KV cache, the default"
            + " without -np): %d requests in flight of up to %d tokens need %d, and the server"
            + " aborts requests when the cache runs out; start it with -np %d -c %d (each slot its"
            + " own context) or lower the load",
        c.sharedBySlots(),
        c.tokens(),
        inFlight,
        longest,
        need,
        inFlight,
        need);
  }
}
