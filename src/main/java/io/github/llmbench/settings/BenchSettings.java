package io.github.llmbench.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.LengthDistribution;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Every {@code -D} setting of the kit, read and validated in one place.
 *
 * <p>Validation happens when the settings are read, before any server is contacted, so a bad value
 * stops the run with one line ({@link SettingsException}) and no load is sent. The API key is read
 * from the environment ({@code OPENAI_API_KEY}), never from a property (properties end up in build
 * logs), and is kept out of {@link #toString()} and of the settings' lines ({@code
 * report.SettingsDescription}).
 */
public final class BenchSettings {

  /** Which OpenAI-compatible endpoint to stream from. */
  public enum Api {
    CHAT("/v1/chat/completions"),
    COMPLETIONS("/v1/completions"),
    /** OpenAI's Responses API: chat messages in, an event stream of typed events out. */
    RESPONSES("/v1/responses"),
    /**
     * OpenAI's embeddings API, vLLM's pooling task: the prompt in, one JSON body of vectors out,
     * not streamed; nothing is generated, so only E2EL and input tokens mean anything.
     */
    EMBEDDINGS("/v1/embeddings");

    private final String path;

    Api(String path) {
      this.path = path;
    }

    public String path() {
      return path;
    }

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether it sends chat messages, which the server wraps in the model's chat template. */
    public boolean chatMessages() {
      return this == CHAT || this == RESPONSES;
    }

    /** Whether its messages may carry images ({@code image_url} content parts). */
    public boolean takesImages() {
      return this == CHAT || this == RESPONSES;
    }

    /** Whether it generates nothing (vLLM's pooling task): no stream, no output tokens. */
    public boolean pooling() {
      return this == EMBEDDINGS;
    }

    /**
     * {@code -Dapi}'s value: {@code chat}, {@code completions}, {@code responses} or {@code
     * embeddings}, any case.
     */
    static Api parse(String name, String raw) {
      for (Api a : values()) {
        if (a.id().equals(raw.toLowerCase(Locale.ROOT))) {
          return a;
        }
      }
      throw SettingsException.invalid(name, raw, "chat, completions, responses or embeddings");
    }
  }

  public static final String API_KEY_ENV = "OPENAI_API_KEY";

  /** The seed study's server: Qwen2.5-7B-Instruct on one RTX 4080 32 GB. */
  public static final String DEFAULT_SIM_MODEL = "qwen2.5-7b-instruct";

  /** The embedded simulator's model for a run with images: the vision sibling of the default. */
  public static final String DEFAULT_SIM_VISION_MODEL = "qwen2.5-vl-7b-instruct";

  public static final String DEFAULT_SIM_GPU = "rtx4080-32gb";

  /** The embedded simulator's stream and endpoint shapes: vLLM's. */
  public static final String DEFAULT_SIM_DIALECT = "vllm";

  static final int MAX_CONC = 100_000;
  static final int MAX_SECONDS = 7 * 24 * 3600;

  /** The most tokens of a prompt, an answer or a shared prefix. */
  static final int MAX_LEN = 10_000_000;

  /** The most distinct prefixes of {@code -Dprefix.groups}. */
  static final int MAX_PREFIX_GROUPS = 100_000;

  /** The most tensor-parallel GPUs, simulated or of the roofline. */
  static final int MAX_TP = 64;

  /**
   * What Gatling's stats get of each stream ({@code -Dstats.records}): always the stream itself,
   * one record from its send to its end (E2EL), so Gatling's counts are streams and its response
   * times E2EL; {@code latency} adds TTFT and TPOT records, {@code all} also one ITL record per gap
   * between chunks (a cost per chunk).
   */
  public enum GatlingRecords {
    REQUEST(EnumSet.of(Metric.E2EL)),
    LATENCY(EnumSet.of(Metric.E2EL, Metric.TTFT, Metric.TPOT)),
    ALL(EnumSet.allOf(Metric.class));

    private final Set<Metric> metrics;

    GatlingRecords(Set<Metric> metrics) {
      this.metrics = Collections.unmodifiableSet(metrics);
    }

    /** The latencies Gatling's stats hold, E2EL as the stream's own record. */
    public Set<Metric> metrics() {
      return metrics;
    }

    /** As written in {@code -Dstats.records}: {@code request}, {@code latency}, {@code all}. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    static GatlingRecords parse(String name, String raw) {
      for (GatlingRecords g : values()) {
        if (g.id().equals(raw)) {
          return g;
        }
      }
      throw SettingsException.invalid(name, raw, "one of all, latency, request");
    }
  }

  /** The kind of dataset prompts come from ({@code -Ddataset}). */
  public enum DatasetKind {
    RANDOM,
    PROFILES,
    FILE,
    /** a recorded trace (Mooncake's JSONL) replayed at its times */
    TRACE
  }

  /**
   * The load shape: one closed-model level per entry of {@code levels} (or one open-model phase
   * when {@code rate} is set), each stopped after {@code durationSeconds} or, when {@code prompts}
   * is not empty, after exactly {@code prompts.get(i)} requests; an optional warmup before them.
   */
  public record Load(
      List<Integer> levels,
      boolean ladder,
      List<Integer> prompts,
      int durationSeconds,
      int warmupPrompts,
      int warmupConc,
      OptionalDouble rate,
      double burstiness,
      OptionalInt maxConc,
      int trials,
      int trialsCooldownSeconds,
      Optional<Ramp> ramp,
      List<ImageStep> imageLadder) {
    public Load {
      levels = List.copyOf(levels);
      prompts = List.copyOf(prompts);
      imageLadder = List.copyOf(imageLadder);
    }

    /** The load without a ladder over images (tests, and the runs that have none). */
    public Load(
        List<Integer> levels,
        boolean ladder,
        List<Integer> prompts,
        int durationSeconds,
        int warmupPrompts,
        int warmupConc,
        OptionalDouble rate,
        double burstiness,
        OptionalInt maxConc,
        int trials,
        int trialsCooldownSeconds,
        Optional<Ramp> ramp) {
      this(
          levels,
          ladder,
          prompts,
          durationSeconds,
          warmupPrompts,
          warmupConc,
          rate,
          burstiness,
          maxConc,
          trials,
          trialsCooldownSeconds,
          ramp,
          List.of());
    }

    /** Whether requests arrive whatever the server does: at a rate, or at a ramp's rate. */
    public boolean open() {
      return rate.isPresent() || ramp.filter(r -> r.kind() == Ramp.Kind.RATE).isPresent();
    }

    /** Requests of phase {@code i}, or empty when the phase stops after the duration. */
    public OptionalInt promptsOf(int i) {
      return prompts.isEmpty() ? OptionalInt.empty() : OptionalInt.of(prompts.get(i));
    }
  }

  /**
   * Where requests go: in turn to each server of {@code baseUrls} (none: the embedded simulator),
   * each naming one of {@code models} (none: the server's first) picked by the seed with these
   * shares.
   *
   * @param weights each model's share, summing to 1 (one per model; empty without models)
   */
  public record Routing(List<URI> baseUrls, List<String> models, List<Double> weights) {
    public Routing {
      baseUrls = List.copyOf(baseUrls);
      models = List.copyOf(models);
      weights = List.copyOf(weights);
    }

    /** Whether requests go to more than one server. */
    public boolean severalServers() {
      return baseUrls.size() > 1;
    }

    /** Whether requests name more than one model. */
    public boolean severalModels() {
      return models.size() > 1;
    }
  }

  private static Routing readRouting(Reader r) {
    List<URI> urls = r.optional(SettingsTable.BASE_URL).orElse(List.of());
    List<String> models = new ArrayList<>();
    Optional<String> rawModel = r.optional(SettingsTable.MODEL);
    if (rawModel.isPresent()) {
      for (String part : rawModel.get().split(",", -1)) {
        String m = part.trim();
        if (m.isEmpty() || models.contains(m)) {
          throw SettingsException.invalid(
              "model", rawModel.get(), "model ids separated by commas, each once");
        }
        models.add(m);
      }
    }
    Optional<List<Double>> weights = r.optional(SettingsTable.MODEL_WEIGHTS);
    if (weights.isPresent() && weights.get().size() != models.size()) {
      throw new SettingsException(
          "-Dmodel.weights="
              + r.raw(SettingsTable.MODEL_WEIGHTS).get()
              + " gives "
              + weights.get().size()
              + " shares for "
              + models.size()
              + " models of -Dmodel: one share per model (e.g. -Dmodel=a,b -Dmodel.weights=0.7,0.3)");
    }
    List<Double> shares = new ArrayList<>();
    if (!models.isEmpty()) {
      List<Double> w = weights.orElse(Collections.nCopies(models.size(), 1.0));
      double sum = w.stream().mapToDouble(Double::doubleValue).sum();
      w.forEach(x -> shares.add(x / sum));
    }
    return new Routing(urls, models, shares);
  }

  /** Names separated by commas ({@code -Dsim.lora=a,b}), each once and not empty. */
  private static List<String> names(String raw) {
    List<String> out = new ArrayList<>();
    for (String part : raw.split(",", -1)) {
      String n = part.trim();
      if (n.isEmpty() || out.contains(n)) {
        throw SettingsException.invalid(
            "sim.lora", raw, "adapter names separated by commas, each once");
      }
      out.add(n);
    }
    return List.copyOf(out);
  }

  /** The most trials of a level ({@code -Dtrials}). */
  static final int MAX_TRIALS = 100;

  /** The prompts and lengths. */
  public record Workload(
      DatasetKind dataset,
      Optional<Path> file,
      int inputLen,
      int outputLen,
      double rangeRatio,
      LengthDistribution inputLengths,
      LengthDistribution outputLengths,
      int prefixLen,
      int prefixGroups,
      long seed,
      boolean seedPinned,
      ProfileSelection profiles,
      boolean profilesMixed,
      int turns,
      double thinkSeconds,
      double traceSpeed,
      Images images) {

    /** How the dataset is named in the output: random, profiles:tiny, file:PATH, trace:PATH. */
    public String describe() {
      return switch (dataset) {
        case RANDOM -> "random";
        case PROFILES -> "profiles:" + profiles;
        case FILE -> "file:" + file.get();
        case TRACE -> "trace:" + file.get();
      };
    }

    /** Whether each virtual user holds a conversation of several turns ({@code -Dturns}). */
    public boolean multiTurn() {
      return turns > 1;
    }
  }

  static final int MAX_TURNS = 1000;

  /**
   * The performance gates as typed: the {@code -Dgate.*} entries (without {@code gate.}), the
   * {@code -Dgates} file and the {@code -Dbaseline} run, as given. The gates package reads the file
   * and the baseline and parses the gates, before any load.
   */
  public record GateEntries(
      Map<String, String> entries, Optional<String> file, Optional<String> baseline) {
    public GateEntries {
      entries = Collections.unmodifiableMap(new TreeMap<>(entries));
    }
  }

  /**
   * The embedded simulator's engine: {@code sim.tp}, {@code sim.max_num_seqs}, {@code
   * sim.max_num_batched_tokens}, {@code sim.gpu_memory_utilization} (vLLM's flags), {@code
   * sim.faults} as typed ({@code none} when not set), which the simulator parses when it starts,
   * and its step-time {@code sim.noise} (a coefficient of variation; 0: none) and {@code
   * sim.slowdown} (1: none), drawn from the run's seed.
   */
  public record SimEngine(
      int tp,
      int maxNumSeqs,
      int maxNumBatchedTokens,
      double gpuMemoryUtilization,
      String faults,
      double noise,
      double slowdown,
      int tokensPerChunk,
      int reasoningTokens,
      List<String> loraModules) {
    public SimEngine {
      loraModules = List.copyOf(loraModules);
    }

    /** Whether {@code sim.faults} asks for any fault ({@code none} and empty do not). */
    public boolean anyFaults() {
      return !faults.isBlank() && !faults.trim().equalsIgnoreCase("none");
    }

    /** Whether {@code sim.noise} or {@code sim.slowdown} changes the step times. */
    public boolean anyNoise() {
      return noise != 0 || slowdown != 1;
    }
  }

  /**
   * What every streaming request carries besides the kit's own fields, as {@code vllm bench
   * serve}'s {@code --extra-body} and {@code --header}: {@code -Dextra.body=JSON} (a JSON object
   * merged into each body; its keys win over the kit's) and {@code -Dheader.<Name>=<value>} (also
   * sent on the kit's calls before the load: a gateway that wants a header wants it there too).
   * Header values may be secrets: they are never printed or written.
   */
  public record RequestOptions(Optional<String> extraBodyJson, Map<String, String> headers) {
    /** The keys of every streaming body the kit writes itself. */
    public static final List<String> KIT_KEYS =
        List.of(
            "model",
            "messages",
            "prompt",
            "max_tokens",
            "max_completion_tokens",
            "stream",
            "stream_options",
            "ignore_eos");

    public RequestOptions {
      headers = Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    public static RequestOptions none() {
      return new RequestOptions(Optional.empty(), Map.of());
    }

    /** A fresh copy of the extra body (callers may merge into it), empty without one. */
    public ObjectNode extraBody() {
      return extraBodyJson.map(RequestOptions::parseObject).orElseGet(JSON::createObjectNode);
    }

    /** The kit's own keys that the extra body replaces, e.g. {@code [max_tokens]}. */
    public List<String> overriddenKitKeys() {
      ObjectNode body = extraBody();
      return KIT_KEYS.stream().filter(body::has).toList();
    }

    /**
     * The extra body's {@code max_tokens} (or {@code max_completion_tokens}) when it sets a whole
     * number, which every request then asks for.
     */
    public OptionalInt maxTokens() {
      ObjectNode body = extraBody();
      JsonNode v =
          body.has("max_tokens") ? body.get("max_tokens") : body.get("max_completion_tokens");
      return v != null && v.canConvertToInt() && v.isIntegralNumber()
          ? OptionalInt.of(v.asInt())
          : OptionalInt.empty();
    }

    private static ObjectNode parseObject(String json) {
      try {
        return (ObjectNode) JSON.readTree(json);
      } catch (IOException e) {
        throw new UncheckedIOException(e); // checked when the settings were read
      }
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The kit's own calls to the server around the load, as {@code vllm bench serve}'s switches:
   * {@code -Dready.timeout} (seconds to wait for the server to be ready before anything else; 0:
   * none), {@code -Dprofile} (its profiler around the measured levels), {@code -Dcache.reset} (its
   * prefix cache emptied before each measured level).
   */
  /**
   * Requests the client cancels on purpose, as users close a tab ({@code -Dcancel.pct}, {@code
   * -Dcancel.after}, AIPerf's request cancellation): which ones follows from the run's seed.
   *
   * @param pct the share of measured requests cancelled, in percent (0: none)
   * @param afterSeconds how long after its send a request is cancelled
   */
  public record Cancellation(double pct, double afterSeconds) {
    public static final Cancellation NONE = new Cancellation(0, 0);

    public boolean any() {
      return pct > 0;
    }
  }

  public record ServerCalls(int readyTimeoutSeconds, boolean profile, boolean cacheReset) {
    public static final ServerCalls NONE = new ServerCalls(0, false, false);

    /** Whether a call is made before a measured level starts. */
    public boolean beforeLevels() {
      return profile || cacheReset;
    }
  }

  /** Model and GPU for the roofline; absent = taken from the simulator or the catalog. */
  public record Roofline(Optional<String> modelSpec, Optional<String> gpu, int tp) {}

  private final Routing routing;
  private final Api api;
  private final int timeoutSeconds;
  private final Optional<String> apiKey;
  private final String simModel;
  private final String simGpu;
  private final String simDialect;
  private final SimEngine simEngine;
  private final Load load;
  private final Workload workload;
  private final Metrics metrics;
  private final Injector injector;
  private final Optional<String> tokenizerPath;
  private final Optional<Search> search;
  private final Roofline roofline;
  private final GateEntries gateEntries;
  private final boolean exitOnGateFailure;
  private final GatlingRecords gatlingRecords;
  private final RequestOptions requestOptions;
  private final Optional<List<Double>> percentiles;
  private final ServerCalls serverCalls;
  private final Cancellation cancellation;

  private BenchSettings(
      Routing routing,
      Api api,
      int timeoutSeconds,
      Optional<String> apiKey,
      String simModel,
      String simGpu,
      String simDialect,
      SimEngine simEngine,
      Load load,
      Workload workload,
      Roofline roofline,
      GateEntries gateEntries,
      boolean exitOnGateFailure,
      GatlingRecords gatlingRecords,
      RequestOptions requestOptions,
      Metrics metrics,
      Injector injector,
      Optional<String> tokenizerPath,
      Optional<Search> search,
      Optional<List<Double>> percentiles,
      ServerCalls serverCalls,
      Cancellation cancellation) {
    this.serverCalls = serverCalls;
    this.cancellation = cancellation;
    this.search = search;
    this.percentiles = percentiles;
    this.metrics = metrics;
    this.injector = injector;
    this.tokenizerPath = tokenizerPath;
    this.routing = routing;
    this.api = api;
    this.timeoutSeconds = timeoutSeconds;
    this.apiKey = apiKey;
    this.simModel = simModel;
    this.simGpu = simGpu;
    this.simDialect = simDialect;
    this.simEngine = simEngine;
    this.load = load;
    this.workload = workload;
    this.roofline = roofline;
    this.gateEntries = gateEntries;
    this.exitOnGateFailure = exitOnGateFailure;
    this.gatlingRecords = gatlingRecords;
    this.requestOptions = requestOptions;
  }

  /** Reads the JVM's system properties and the {@code OPENAI_API_KEY} environment variable. */
  public static BenchSettings fromSystem() {
    return fromSystem(Set.of());
  }

  /**
   * As {@link #fromSystem()}, with properties that a simulation of one's own reads itself (they are
   * not refused as unknown settings).
   */
  public static BenchSettings fromSystem(Set<String> simulationOwn) {
    Map<String, String> props = new HashMap<>();
    System.getProperties().forEach((k, v) -> props.put(String.valueOf(k), String.valueOf(v)));
    return from(props, System::getenv, simulationOwn);
  }

  /**
   * Reads settings from any property source (tests pass a map).
   *
   * @throws SettingsException on the first bad value
   */
  public static BenchSettings from(
      Map<String, String> properties, Function<String, String> environment) {
    return from(properties, environment, Set.of());
  }

  /**
   * As {@link #from(Map, Function)}; {@code simulationOwn} names properties a simulation reads
   * itself, which are not refused as unknown settings.
   */
  public static BenchSettings from(
      Map<String, String> properties,
      Function<String, String> environment,
      Set<String> simulationOwn) {
    Optional<String> unknown = SettingsTable.unknown(properties, simulationOwn);
    if (unknown.isPresent()) {
      throw new SettingsException(unknown.get());
    }
    Reader r = new Reader(properties::get);
    Routing routing = readRouting(r);
    Optional<URI> baseUrl = routing.baseUrls().stream().findFirst();
    Api api = r.get(SettingsTable.API);
    int conc = r.get(SettingsTable.CONC);
    int duration = r.get(SettingsTable.DURATION);
    int inputLen = r.get(SettingsTable.INPUT_LEN);
    int outputLen = r.get(SettingsTable.OUTPUT_LEN);
    int timeout = r.get(SettingsTable.TIMEOUT);
    Optional<String> key =
        Optional.ofNullable(environment.apply(API_KEY_ENV))
            .map(String::trim)
            .filter(s -> !s.isEmpty());
    boolean images =
        r.optional(SettingsTable.IMAGES).filter(c -> c.stream().anyMatch(n -> n > 0)).isPresent();
    // a run with images needs a model that sees them
    String simModel =
        r.optional(SettingsTable.SIM_MODEL)
            .orElse(images ? DEFAULT_SIM_VISION_MODEL : DEFAULT_SIM_MODEL);
    if (!Catalog.models().containsKey(simModel)) {
      if (!HfConfig.isConfigPath(simModel)) {
        throw SettingsException.invalid(
            "sim.model",
            simModel,
            "one of "
                + String.join(", ", new TreeSet<>(Catalog.models().keySet()))
                + ", or the path of a Hugging Face config.json");
      }
      try {
        HfConfig.read(Path.of(simModel));
      } catch (RuntimeException e) {
        throw SettingsException.invalid(
            "sim.model", simModel, "a readable Hugging Face config.json (" + e.getMessage() + ")");
      }
    }
    if (images && baseUrl.isEmpty()) {
      ModelSpec spec =
          Catalog.models().containsKey(simModel)
              ? Catalog.model(simModel)
              : HfConfig.read(Path.of(simModel));
      if (spec.visionPatchPixels() == 0) {
        throw SettingsException.invalid(
            "sim.model",
            simModel,
            "a model that takes images with -Dimages (e.g. " + DEFAULT_SIM_VISION_MODEL + ")");
      }
    }
    String simGpu = r.get(SettingsTable.SIM_GPU);
    String simDialect = r.get(SettingsTable.SIM_DIALECT);
    int simTp = r.get(SettingsTable.SIM_TP);
    int maxNumSeqs = r.get(SettingsTable.SIM_MAX_NUM_SEQS);
    int maxNumBatchedTokens = r.get(SettingsTable.SIM_MAX_NUM_BATCHED_TOKENS);
    if (maxNumBatchedTokens < maxNumSeqs) {
      throw SettingsException.invalid(
          "sim.max_num_batched_tokens",
          Integer.toString(maxNumBatchedTokens),
          "a whole number >= sim.max_num_seqs (" + maxNumSeqs + ")");
    }
    double gpuMemUtil = r.get(SettingsTable.SIM_GPU_MEMORY_UTILIZATION);
    SimEngine simEngine =
        new SimEngine(
            simTp,
            maxNumSeqs,
            maxNumBatchedTokens,
            gpuMemUtil,
            r.get(SettingsTable.SIM_FAULTS),
            r.get(SettingsTable.SIM_NOISE),
            r.get(SettingsTable.SIM_SLOWDOWN),
            r.get(SettingsTable.SIM_TOKENS_PER_CHUNK),
            r.get(SettingsTable.SIM_REASONING),
            r.optional(SettingsTable.SIM_LORA).map(BenchSettings::names).orElse(List.of()));
    Load load = readLoad(r, conc, duration);
    Workload workload = readWorkload(r, inputLen, outputLen);
    if (workload.dataset() == DatasetKind.TRACE
        && (load.open() || load.ladder() || load.ramp().isPresent())) {
      throw new SettingsException(
          "-Drate, -Dramp and -Dladder do not apply to -Ddataset=trace:PATH: the trace says when each request is sent");
    }
    checkImages(r, api, load, workload);
    if (load.trials() > 1) {
      checkTrials(r, workload);
    }
    if (api.pooling()) {
      checkPooling(r, workload);
    }
    // the roofline's tensor parallelism follows the simulator's; a real server's is not known
    Roofline roofline =
        new Roofline(
            r.optional(SettingsTable.MODEL_SPEC),
            r.optional(SettingsTable.GPU),
            r.optional(SettingsTable.TP).orElse(baseUrl.isEmpty() ? simTp : 1));
    GateEntries gateEntries = readGateEntries(r, properties);
    return new BenchSettings(
        routing,
        api,
        timeout,
        key,
        simModel,
        simGpu,
        simDialect,
        simEngine,
        load,
        workload,
        roofline,
        gateEntries,
        r.get(SettingsTable.EXIT_ON_GATES),
        r.get(SettingsTable.STATS_RECORDS),
        readRequestOptions(r, properties),
        readMetrics(r),
        readInjector(r, load, workload),
        r.optional(SettingsTable.TOKENIZER),
        readSearch(r, load, workload),
        r.optional(SettingsTable.PERCENTILES),
        new ServerCalls(
            r.get(SettingsTable.READY_TIMEOUT),
            r.get(SettingsTable.PROFILE),
            r.get(SettingsTable.CACHE_RESET)),
        readCancellation(r));
  }

  /**
   * A search for the capacity at SLO: closed-model concurrency levels ({@code -Dsearch=conc}) or
   * open-model request rates ({@code -Dsearch=rate}) probed from {@code min} up to {@code max},
   * each for {@code -Dduration} s, until the highest that meets the objectives is bracketed within
   * {@code precision}, or the budget is spent.
   *
   * @param rate whether the probed loads are request rates (open model) rather than concurrencies
   * @param objectives each objective's figure and its upper limit, in the order given, e.g. {@code
   *     ttft.p99 -> 2000}
   */
  public record Search(
      boolean rate,
      Map<SloFigure, Double> objectives,
      double min,
      double max,
      double precision,
      int budgetMinutes) {
    /** The {@code -Dsearch} value. */
    public String kind() {
      return rate ? "rate" : "conc";
    }
  }

  public Optional<Search> search() {
    return search;
  }

  /**
   * {@code -Dslo}'s example in messages and the settings' help: {@code ttft.p99:2000,tpot.p99:100}.
   */
  static final String SLO_EXAMPLE =
      new LatencyFigure(Metric.TTFT, Statistic.P99).key()
          + ":2000,"
          + new LatencyFigure(Metric.TPOT, Statistic.P99).key()
          + ":100";

  /**
   * The most requests one rate probe may plan ({@code search.max x duration}): each is a Gatling
   * user made at the probe's start.
   */
  static final int MAX_PROBE_REQUESTS = 200_000;

  static Optional<Search> readSearch(Reader r, Load load, Workload workload) {
    Optional<String> kind = r.optional(SettingsTable.SEARCH);
    if (kind.isEmpty()) {
      for (SettingsTable.Setting<?> p :
          List.of(
              SettingsTable.SLO,
              SettingsTable.SEARCH_MIN,
              SettingsTable.SEARCH_MAX,
              SettingsTable.SEARCH_PRECISION,
              SettingsTable.SEARCH_BUDGET)) {
        if (r.isSet(p)) {
          throw new SettingsException(
              "-D"
                  + p.name()
                  + " applies to a capacity search: add -Dsearch=conc or -Dsearch=rate");
        }
      }
      return Optional.empty();
    }
    boolean rate = kind.get().equals("rate");
    String flag = "-Dsearch=" + kind.get();
    if (load.open()
        || load.ladder()
        || load.ramp().isPresent()
        || !load.prompts().isEmpty()
        || workload.dataset() == DatasetKind.TRACE
        || workload.multiTurn()
        || r.isSet(SettingsTable.CONC)) {
      throw new SettingsException(
          flag
              + " chooses the levels itself: drop -Dconc, -Dladder, -Drate, -Dramp, -Dprompts, -Dturns and trace datasets");
    }
    if (r.isSet(SettingsTable.INJECTOR)) {
      throw new SettingsException(
          flag
              + " runs in one injector: with -Dinjector each injector would search on its own; drop -Dinjector");
    }
    String accepted =
        "objectives as METRIC:LIMIT separated by commas, e.g. "
            + SLO_EXAMPLE
            + " (METRIC one of "
            + SloFigure.accepted()
            + ")";
    String raw =
        r.optional(SettingsTable.SLO)
            .orElseThrow(
                () -> new SettingsException(flag + " needs objectives: -Dslo=" + SLO_EXAMPLE));
    Map<SloFigure, Double> objectives = new LinkedHashMap<>();
    for (String part : raw.split(",")) {
      String[] kv = part.trim().split(":");
      Optional<SloFigure> figure = kv.length == 2 ? SloFigure.parse(kv[0]) : Optional.empty();
      try {
        double limit = figure.isPresent() ? Double.parseDouble(kv[1]) : Double.NaN;
        if (figure.isEmpty() || !(limit >= 0) || Double.isInfinite(limit)) {
          throw new NumberFormatException();
        }
        objectives.put(figure.get(), limit);
      } catch (NumberFormatException e) {
        throw SettingsException.invalid("slo", raw, accepted);
      }
    }
    double min;
    double max;
    if (rate) {
      min = r.get(SettingsTable.SEARCH_MIN);
      max = r.optional(SettingsTable.SEARCH_MAX).orElse(SettingsTable.SEARCH_MAX_RATE);
      double planned = max * load.durationSeconds();
      if (planned > MAX_PROBE_REQUESTS) {
        throw new SettingsException(
            String.format(
                Locale.ROOT,
                "-Dsearch.max=%s x -Dduration=%d plans %.0f requests for one rate probe: at most %d (lower either)",
                r.raw(SettingsTable.SEARCH_MAX)
                    .orElse(Level.plainNumber(SettingsTable.SEARCH_MAX_RATE)),
                load.durationSeconds(),
                planned,
                MAX_PROBE_REQUESTS));
      }
    } else {
      // the same settings, read as whole numbers: a concurrency
      Parser<Integer> level = Parser.positiveInt(MAX_CONC);
      min =
          r.raw(SettingsTable.SEARCH_MIN)
              .map(v -> level.parse(SettingsTable.SEARCH_MIN.name(), v))
              .orElse(SettingsTable.SEARCH_MIN.typedDefault().orElseThrow().intValue());
      max =
          r.raw(SettingsTable.SEARCH_MAX)
              .map(v -> level.parse(SettingsTable.SEARCH_MAX.name(), v))
              .orElse(SettingsTable.SEARCH_MAX_CONC);
    }
    if (max < min) {
      throw new SettingsException(
          "-Dsearch.max="
              + r.raw(SettingsTable.SEARCH_MAX).orElse(String.valueOf(max))
              + " is below -Dsearch.min="
              + r.raw(SettingsTable.SEARCH_MIN).orElse(String.valueOf(min)));
    }
    double precision = r.get(SettingsTable.SEARCH_PRECISION);
    if (precision == 0) {
      throw SettingsException.invalid(
          "search.precision", "0", "a number above 0 and below 1, e.g. 0.1 for 10%");
    }
    int budget = r.get(SettingsTable.SEARCH_BUDGET);
    return Optional.of(new Search(rate, objectives, min, max, precision, budget));
  }

  /**
   * {@code -Dtokenizer}: a Hugging Face tokenizer.json (or a model folder holding one) to count
   * tokens with here.
   */
  public Optional<String> tokenizerPath() {
    return tokenizerPath;
  }

  /**
   * This process's part of a load shared by several injectors ({@code -Dinjector=i/N}), and when
   * they start ({@code -Dstart.at}).
   *
   * @param index i, from 0 (Kubernetes' {@code JOB_COMPLETION_INDEX})
   * @param count N
   * @param startAtMs when every injector starts its first phase (epoch ms), if set
   * @param drainSeconds the fixed timeline's allowance after each level's duration (and for a
   *     warmup)
   */
  public record Injector(int index, int count, OptionalLong startAtMs, int drainSeconds) {
    public static final Injector ALONE =
        new Injector(0, 1, OptionalLong.empty(), SettingsTable.DRAIN.typedDefault().orElseThrow());

    public boolean sharded() {
      return count > 1;
    }

    /**
     * This injector's share of {@code n} (concurrency, prompts): the shares differ by at most one.
     */
    public int share(int n) {
      return n / count + (index < n % count ? 1 : 0);
    }

    @Override
    public String toString() {
      return index + "/" + count;
    }
  }

  static Injector readInjector(Reader r, Load load, Workload workload) {
    Optional<String> raw = r.optional(SettingsTable.INJECTOR);
    int index = 0;
    int count = 1;
    if (raw.isPresent()) {
      String accepted =
          "i/N with 0 <= i < N, e.g. 0/2 (Kubernetes' JOB_COMPLETION_INDEX / the number of injectors)";
      String[] parts = raw.get().split("/", -1);
      try {
        if (parts.length != 2) {
          throw new NumberFormatException();
        }
        index = Integer.parseInt(parts[0].trim());
        count = Integer.parseInt(parts[1].trim());
      } catch (NumberFormatException e) {
        throw SettingsException.invalid("injector", raw.get(), accepted);
      }
      if (count < 1 || index < 0 || index >= count || count > 1000) {
        throw SettingsException.invalid("injector", raw.get(), accepted);
      }
    }
    OptionalLong startAt = OptionalLong.empty();
    Optional<String> at = r.optional(SettingsTable.START_AT);
    if (at.isPresent()) {
      try {
        startAt =
            OptionalLong.of(
                at.get().matches("\\d+")
                    ? Long.parseLong(at.get())
                    : Instant.parse(at.get()).toEpochMilli());
      } catch (RuntimeException e) {
        throw SettingsException.invalid(
            "start.at",
            at.get(),
            "epoch milliseconds or an ISO-8601 instant, e.g. 2026-12-01T10:00:00Z");
      }
    }
    int drain = r.get(SettingsTable.DRAIN);
    Injector injector = new Injector(index, count, startAt, drain);
    if (!injector.sharded()) {
      return injector;
    }
    if (workload.dataset() == DatasetKind.TRACE) {
      throw new SettingsException(
          "-Dinjector does not apply to -Ddataset=trace:PATH: one injector replays a trace");
    }
    if (load.levels().size() > 1 && !load.prompts().isEmpty()) {
      throw new SettingsException(
          "A ladder shared by injectors stops its levels after -Dduration: the injectors keep one"
              + " timeline (-Dstart.at, then -Dduration + -Ddrain per level); drop -Dprompts");
    }
    if (load.ramp().filter(x -> x.kind() == Ramp.Kind.CONCURRENCY).isPresent()) {
      Ramp ramp = load.ramp().get();
      if (Math.min(ramp.from(), ramp.to()) < count || Math.abs(ramp.to() - ramp.from()) < count) {
        throw new SettingsException(
            "-Dramp.conc="
                + Level.plainNumber(ramp.from())
                + ":"
                + Level.plainNumber(ramp.to())
                + " shared by -Dinjector's "
                + count
                + " injectors: each needs at least one request in flight at both ends and a ramp"
                + " of its own (both ends and their difference at least "
                + count
                + ")");
      }
    } else if (!load.open()) {
      for (int c : load.levels()) {
        if (c < count) {
          throw new SettingsException(
              "Level "
                  + Level.closed(c).tag()
                  + " is smaller than -Dinjector's "
                  + count
                  + " injectors: each needs at least one request in flight (use at most "
                  + c
                  + " injectors, or a larger level)");
        }
      }
    }
    for (int p : load.prompts()) {
      if (p < count) {
        throw new SettingsException(
            "-Dprompts="
                + p
                + " is smaller than -Dinjector's "
                + count
                + " injectors: each needs at least one request");
      }
    }
    if (load.warmupPrompts() > 0 && (load.warmupPrompts() < count || load.warmupConc() < count)) {
      throw new SettingsException(
          "-Dwarmup.prompts and -Dwarmup.conc must be at least -Dinjector's "
              + count
              + " injectors: each sends its share of the warmup");
    }
    return injector;
  }

  public Injector injector() {
    return injector;
  }

  /**
   * Scraping of Prometheus endpoints during the run.
   *
   * @param intervalSeconds seconds between scrapes; 0 turns scraping off
   * @param urls endpoints to scrape besides the server's own {@code /metrics} (e.g. a DCGM
   *     exporter)
   */
  public record Metrics(double intervalSeconds, List<URI> urls) {
    public Metrics {
      urls = List.copyOf(urls);
    }

    public boolean on() {
      return intervalSeconds > 0;
    }
  }

  static Metrics readMetrics(Reader r) {
    double interval = r.get(SettingsTable.METRICS_INTERVAL);
    List<URI> urls = new ArrayList<>();
    for (String raw :
        r.optional(SettingsTable.METRICS_URLS).map(v -> v.split(",")).orElse(new String[0])) {
      String u = raw.trim();
      if (u.isEmpty()) {
        continue;
      }
      try {
        URI uri = new URI(u);
        if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()))
            || uri.getHost() == null) {
          throw new URISyntaxException(u, "not http");
        }
        urls.add(uri);
      } catch (URISyntaxException e) {
        throw SettingsException.invalid(
            "metrics.urls",
            r.optional(SettingsTable.METRICS_URLS).get(),
            "http:// URLs separated by commas, e.g. http://127.0.0.1:9400/metrics");
      }
    }
    if (interval == 0 && !urls.isEmpty()) {
      throw new SettingsException(
          "-Dmetrics.urls needs scraping on: -Dmetrics.interval=0 turns it off");
    }
    return new Metrics(interval, urls);
  }

  public Metrics metrics() {
    return metrics;
  }

  /** {@code -Dextra.body} (a JSON object) and {@code -Dheader.<Name>} (an HTTP header name). */
  static RequestOptions readRequestOptions(Reader r, Map<String, String> properties) {
    Optional<String> extra = r.optional(SettingsTable.EXTRA_BODY);
    if (extra.isPresent()) {
      String accepted = "a JSON object, e.g. {\"temperature\":0.6,\"top_p\":0.95}";
      JsonNode json;
      try {
        json = JSON.readTree(extra.get());
      } catch (IOException e) {
        String why =
            e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
        throw SettingsException.invalid(
            "extra.body", extra.get(), accepted + " (" + why.lines().findFirst().orElse(why) + ")");
      }
      if (json == null || !json.isObject()) {
        throw SettingsException.invalid("extra.body", extra.get(), accepted);
      }
    }
    Map<String, String> headers = new TreeMap<>();
    properties.forEach(
        (k, v) -> {
          if (k.startsWith("header.")) {
            String name = k.substring("header.".length());
            // RFC 9110 token characters; the value is not echoed (it may be a secret)
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
              throw new SettingsException(
                  "Invalid -D"
                      + k
                      + ": expected -Dheader.<Name>=<value> with an HTTP header name (letters, digits, -)");
            }
            if (v == null || v.isEmpty() || v.chars().anyMatch(c -> c == '\r' || c == '\n')) {
              throw new SettingsException(
                  "Invalid -D" + k + " (value not shown): expected a value of one line, not empty");
            }
            headers.put(name, v);
          }
        });
    return new RequestOptions(extra, headers);
  }

  private static GateEntries readGateEntries(Reader r, Map<String, String> properties) {
    Map<String, String> entries = new TreeMap<>();
    properties.forEach(
        (k, v) -> {
          if (k.startsWith("gate.")) {
            entries.put(k.substring(5), v);
          }
        });
    return new GateEntries(
        entries, r.optional(SettingsTable.GATES), r.optional(SettingsTable.BASELINE));
  }

  private static Load readLoad(Reader r, int conc, int duration) {
    Optional<List<Integer>> ladder = r.optional(SettingsTable.LADDER);
    OptionalDouble rate =
        r.optional(SettingsTable.RATE).stream().mapToDouble(Double::doubleValue).findFirst();
    if (ladder.isPresent() && rate.isPresent()) {
      throw new SettingsException(
          "-Dladder and -Drate cannot be combined: a ladder is closed-model (fixed concurrency), a rate is open-model");
    }
    if (r.isSet(SettingsTable.CONC) && (ladder.isPresent() || rate.isPresent())) {
      throw new SettingsException(
          "-Dconc cannot be combined with -D"
              + (ladder.isPresent() ? "ladder" : "rate")
              + ": -Dconc=N is the one-level case of -Dladder=N; with -Drate use -Dmax.conc");
    }
    Optional<Ramp> ramp = readRamp(r, ladder.isPresent() || rate.isPresent());
    List<Integer> levels =
        ladder.orElse(
            List.of(
                ramp.filter(x -> x.kind() == Ramp.Kind.CONCURRENCY)
                    .map(x -> (int) x.peak())
                    .orElse(conc)));
    List<Integer> prompts = r.optional(SettingsTable.PROMPTS).orElse(List.of());
    List<ImageStep> imageLadder = readImages(r).steps();
    int imageSteps = Math.max(1, imageLadder.size());
    int phases = rate.isPresent() || ramp.isPresent() ? imageSteps : levels.size() * imageSteps;
    if (ramp.filter(x -> x.kind() == Ramp.Kind.CONCURRENCY).isPresent() && !prompts.isEmpty()) {
      throw new SettingsException(
          "-Dramp.conc ramps over -Dduration: drop -Dprompts (a count of requests has no time to"
              + " ramp over)");
    }
    if (prompts.size() > 1 && prompts.size() != phases) {
      throw SettingsException.invalid(
          "prompts",
          r.raw(SettingsTable.PROMPTS).get(),
          "one number, or one per ladder level (" + phases + " numbers)");
    }
    if (prompts.size() == 1 && phases > 1) {
      prompts = Collections.nCopies(phases, prompts.get(0));
    }
    int warmupPrompts = r.get(SettingsTable.WARMUP_PROMPTS);
    int warmupConc = r.optional(SettingsTable.WARMUP_CONC).orElse(Math.max(1, levels.get(0) / 4));
    double burstiness = r.get(SettingsTable.BURSTINESS);
    OptionalInt maxConc =
        r.optional(SettingsTable.MAX_CONC).stream().mapToInt(Integer::intValue).findFirst();
    boolean rateSearch = r.raw(SettingsTable.SEARCH).filter("rate"::equals).isPresent();
    boolean rateRamp = ramp.filter(x -> x.kind() == Ramp.Kind.RATE).isPresent();
    if (rate.isEmpty()
        && !rateSearch
        && !rateRamp
        && (r.isSet(SettingsTable.BURSTINESS) || maxConc.isPresent())) {
      throw new SettingsException(
          "-Dburstiness and -Dmax.conc apply to an open-model run: add -Drate=<requests per second> (or -Dsearch=rate)");
    }
    int trials = r.get(SettingsTable.TRIALS);
    if (r.isSet(SettingsTable.TRIALS_COOLDOWN) && trials == 1) {
      throw new SettingsException(
          "-Dtrials.cooldown applies between trials: add -Dtrials=N (2 or more)");
    }
    return new Load(
        levels,
        ladder.isPresent(),
        prompts,
        duration,
        warmupPrompts,
        warmupConc,
        rate,
        burstiness,
        maxConc,
        trials,
        r.get(SettingsTable.TRIALS_COOLDOWN),
        ramp,
        imageLadder);
  }

  /**
   * {@code -Dramp} with {@code -Dramp.start}/{@code -Dramp.end} (an open-model rate ramp) or with
   * {@code -Dramp.conc} (a closed-model one, linear when {@code -Dramp} is not given).
   *
   * @param fixedLoad whether {@code -Dladder} or {@code -Drate} was given
   */
  private static Optional<Ramp> readRamp(Reader r, boolean fixedLoad) {
    Optional<String> shapeName = r.optional(SettingsTable.RAMP);
    Optional<Double> start = r.optional(SettingsTable.RAMP_START);
    Optional<Double> end = r.optional(SettingsTable.RAMP_END);
    Optional<String> conc = r.optional(SettingsTable.RAMP_CONC);
    if (shapeName.isEmpty() && conc.isEmpty()) {
      if (start.isPresent() || end.isPresent()) {
        throw new SettingsException(
            "-D"
                + (start.isPresent() ? "ramp.start" : "ramp.end")
                + " belongs to a rate ramp: add -Dramp=linear or -Dramp=exponential");
      }
      return Optional.empty();
    }
    if (fixedLoad || r.isSet(SettingsTable.CONC)) {
      throw new SettingsException(
          "-Dramp cannot be combined with -Dconc, -Dladder or -Drate: the ramp is the level's load"
              + " (-Dramp.start/-Dramp.end for a rate, -Dramp.conc=C0:C1 for a concurrency)");
    }
    Ramp.Shape shape =
        shapeName
            .map(n -> n.equals("exponential") ? Ramp.Shape.EXPONENTIAL : Ramp.Shape.LINEAR)
            .orElse(Ramp.Shape.LINEAR);
    if (conc.isPresent()) {
      if (start.isPresent() || end.isPresent()) {
        throw new SettingsException(
            "-Dramp.conc ramps a concurrency, -Dramp.start/-Dramp.end a rate: give one of them");
      }
      String accepted = "C0:C1, whole numbers from 1 to " + MAX_CONC + " that differ, e.g. 1:64";
      String[] parts = conc.get().split(":", -1);
      try {
        int c0 = Integer.parseInt(parts[0].trim());
        int c1 = Integer.parseInt(parts[1].trim());
        if (parts.length != 2 || c0 < 1 || c1 < 1 || c0 > MAX_CONC || c1 > MAX_CONC || c0 == c1) {
          throw new NumberFormatException();
        }
        return Optional.of(new Ramp(shape, Ramp.Kind.CONCURRENCY, c0, c1));
      } catch (RuntimeException e) {
        throw SettingsException.invalid("ramp.conc", conc.get(), accepted);
      }
    }
    if (start.isEmpty() || end.isEmpty()) {
      throw new SettingsException(
          "-Dramp="
              + shapeName.get()
              + " needs -Dramp.start=R0 and -Dramp.end=R1 (requests/s), or -Dramp.conc=C0:C1");
    }
    if (shape == Ramp.Shape.EXPONENTIAL && start.get() == 0) {
      throw SettingsException.invalid(
          "ramp.start", "0", "a rate above 0: an exponential ramp grows by a factor");
    }
    if (start.get().equals(end.get())) {
      throw new SettingsException(
          "-Dramp.start and -Dramp.end are both "
              + Level.plainNumber(start.get())
              + ": a constant rate is -Drate="
              + Level.plainNumber(start.get()));
    }
    return Optional.of(new Ramp(shape, Ramp.Kind.RATE, start.get(), end.get()));
  }

  /**
   * What an embeddings run cannot do: it generates nothing, so there is no output length to ask
   * for, no answer to send back in a conversation, and no TTFT, TPOT or ITL to record or bound.
   */
  private static void checkPooling(Reader r, Workload workload) {
    String api = "-Dapi=" + Api.EMBEDDINGS.id();
    for (SettingsTable.Setting<?> s :
        List.of(SettingsTable.OUTPUT_LEN, SettingsTable.OUTPUT_STDEV)) {
      if (r.isSet(s)) {
        throw SettingsException.invalid(
            s.name(), r.raw(s).orElse(""), "nothing with " + api + ": it generates no tokens");
      }
    }
    if (workload.multiTurn()) {
      throw SettingsException.invalid(
          SettingsTable.TURNS.name(),
          r.raw(SettingsTable.TURNS).orElse(""),
          "1 with " + api + ": there is no answer to carry into the next turn");
    }
    GatlingRecords records = r.get(SettingsTable.STATS_RECORDS);
    if (records != GatlingRecords.REQUEST) {
      throw SettingsException.invalid(
          SettingsTable.STATS_RECORDS.name(),
          records.id(),
          "request with " + api + ": an embedding has no TTFT, TPOT or ITL of its own");
    }
    Optional<String> slo = r.raw(SettingsTable.SLO);
    if (slo.isPresent() && POOLING_FREE_METRIC.matcher(slo.get()).find()) {
      throw SettingsException.invalid(
          SettingsTable.SLO.name(),
          slo.get(),
          "objectives on e2el or failed.pct with " + api + ": it has no TTFT, TPOT or ITL");
    }
  }

  /** An objective on a figure a pooling request does not have. */
  private static final Pattern POOLING_FREE_METRIC =
      Pattern.compile("(^|[\\s,])(ttft|tpot|itl)\\b");

  /** What trials cannot repeat yet: a trace, a search's probes, a load shared by injectors. */
  private static void checkTrials(Reader r, Workload workload) {
    String why =
        workload.dataset() == DatasetKind.TRACE
            ? "a trace replay runs once (its times set the load)"
            : r.isSet(SettingsTable.SEARCH)
                ? "a capacity search chooses its probes as it runs"
                : r.isSet(SettingsTable.INJECTOR)
                    ? "injectors that share a load keep one timeline (run the trials as runs)"
                    : null;
    if (why != null) {
      throw SettingsException.invalid(
          SettingsTable.TRIALS.name(), r.raw(SettingsTable.TRIALS).orElse(""), "1 here: " + why);
    }
  }

  private static Workload readWorkload(Reader r, int inputLen, int outputLen) {
    String raw = r.get(SettingsTable.DATASET);
    DatasetKind dataset;
    Optional<Path> file = Optional.empty();
    if (raw.equals("random")) {
      dataset = DatasetKind.RANDOM;
    } else if (raw.equals("profiles")) {
      dataset = DatasetKind.PROFILES;
    } else if (raw.startsWith("file:") && raw.length() > 5) {
      dataset = DatasetKind.FILE;
      file = Optional.of(Path.of(raw.substring(5)));
    } else if (raw.startsWith("trace:") && raw.length() > 6) {
      dataset = DatasetKind.TRACE;
      file = Optional.of(Path.of(raw.substring(6)));
    } else {
      throw SettingsException.invalid("dataset", raw, "random, profiles, file:PATH or trace:PATH");
    }
    int turns = r.get(SettingsTable.TURNS);
    double thinkSeconds = r.get(SettingsTable.THINK_TIME);
    double traceSpeed = r.get(SettingsTable.TRACE_SPEED);
    if (dataset == DatasetKind.TRACE && turns > 1) {
      throw new SettingsException(
          "-Dturns does not apply to -Ddataset=trace:PATH (a trace's requests are single turns)");
    }
    if (dataset != DatasetKind.TRACE && r.isSet(SettingsTable.TRACE_SPEED)) {
      throw new SettingsException("-Dtrace.speed applies to -Ddataset=trace:PATH");
    }
    if (turns == 1 && r.isSet(SettingsTable.THINK_TIME)) {
      throw new SettingsException(
          "-Dthink.time applies to multi-turn runs: add -Dturns=N (N from 2)");
    }
    double rangeRatio = r.get(SettingsTable.RANGE_RATIO);
    int prefixLen = r.get(SettingsTable.PREFIX_LEN);
    int prefixGroups = r.get(SettingsTable.PREFIX_GROUPS);
    if (prefixGroups > 1 && prefixLen == 0) {
      throw new SettingsException(
          "-Dprefix.groups=" + prefixGroups + " needs -Dprefix.len=L (the tokens of each prefix)");
    }
    double inputStdev = r.get(SettingsTable.INPUT_STDEV);
    double outputStdev = r.get(SettingsTable.OUTPUT_STDEV);
    Optional<String> dist = r.optional(SettingsTable.LENGTH_DIST);
    boolean spread = inputStdev > 0 || outputStdev > 0;
    for (SettingsTable.Setting<?> s :
        List.of(
            SettingsTable.INPUT_STDEV,
            SettingsTable.OUTPUT_STDEV,
            SettingsTable.LENGTH_DIST,
            SettingsTable.PREFIX_GROUPS)) {
      if (dataset != DatasetKind.RANDOM && r.isSet(s)) {
        throw new SettingsException("-D" + s.name() + " applies to -Ddataset=random");
      }
    }
    if (spread && rangeRatio > 0) {
      throw new SettingsException(
          "-Drange.ratio and -Dinput.stdev/-Doutput.stdev both spread the lengths: give one"
              + " (range.ratio is vLLM's uniform range, a stdev a distribution's)");
    }
    LengthDistribution.Shape shape = LengthDistribution.Shape.NORMAL;
    if (dist.isPresent()) {
      shape = LengthDistribution.Shape.valueOf(dist.get().toUpperCase(Locale.ROOT));
      if (!spread && !(rangeRatio > 0 && shape == LengthDistribution.Shape.UNIFORM)) {
        throw new SettingsException(
            "-Dlength.dist="
                + dist.get()
                + " needs -Dinput.stdev=S or -Doutput.stdev=S (the spread of the lengths)");
      }
    }
    LengthDistribution inputLengths =
        spread
            ? LengthDistribution.of(shape, inputLen, inputStdev)
            : LengthDistribution.ofRangeRatio(inputLen, rangeRatio);
    LengthDistribution outputLengths =
        spread
            ? LengthDistribution.of(shape, outputLen, outputStdev)
            : LengthDistribution.ofRangeRatio(outputLen, rangeRatio);
    Optional<Long> pinnedSeed = r.optional(SettingsTable.SEED);
    // A fresh seed per run: a repeated seed repeats prompts, which a prefix cache then serves.
    long seed = pinnedSeed.orElseGet(() -> new SecureRandom().nextLong() & 0xFFFF_FFFFL);
    ProfileSelection profiles = r.get(SettingsTable.PROFILES);
    String order = r.get(SettingsTable.PROFILE_ORDER);
    if (dataset != DatasetKind.PROFILES
        && (r.isSet(SettingsTable.PROFILES) || r.isSet(SettingsTable.PROFILE_ORDER))) {
      throw new SettingsException("-Dprofiles and -Dprofile.order apply to -Ddataset=profiles");
    }
    return new Workload(
        dataset,
        file,
        inputLen,
        outputLen,
        rangeRatio,
        inputLengths,
        outputLengths,
        prefixLen,
        prefixGroups,
        seed,
        pinnedSeed.isPresent(),
        profiles,
        order.equals("mixed"),
        turns,
        thinkSeconds,
        traceSpeed,
        readImages(r));
  }

  private static Images readImages(Reader r) {
    Optional<List<Integer>> counts = r.optional(SettingsTable.IMAGES);
    if (counts.isEmpty()) {
      for (SettingsTable.Setting<?> s :
          List.of(SettingsTable.IMAGE_SIZE, SettingsTable.IMAGE_FORMAT)) {
        if (r.isSet(s)) {
          throw new SettingsException("-D" + s.name() + " applies with -Dimages=N");
        }
      }
      return Images.NONE;
    }
    List<ImageStep.Size> sizes = r.optional(SettingsTable.IMAGE_SIZE).orElse(Images.NONE.sizes());
    if (counts.get().size() > 1 && sizes.size() > 1) {
      throw SettingsException.invalid(
          "image.size",
          r.raw(SettingsTable.IMAGE_SIZE).get(),
          "one size with a ladder over -Dimages counts (a ladder steps over counts or sizes, not"
              + " both)");
    }
    if (sizes.size() > 1 && counts.get().get(0) == 0) {
      throw SettingsException.invalid(
          "images", "0", "1 or more with a ladder over -Dimage.size (its levels need images)");
    }
    return new Images(counts.get(), sizes, r.get(SettingsTable.IMAGE_FORMAT));
  }

  /**
   * The checks across settings of a run with images: an endpoint that takes them, single turns, a
   * ladder over them at one load only.
   */
  private static void checkImages(Reader r, Api api, Load load, Workload workload) {
    Images images = workload.images();
    if (images.counts().isEmpty()) {
      return;
    }
    if (!api.takesImages()) {
      throw new SettingsException(
          "-Dimages needs -Dapi=chat or -Dapi=responses (the /v1/"
              + api.id()
              + " endpoint takes no images)");
    }
    if (workload.multiTurn()) {
      throw new SettingsException(
          "-Dimages applies to single-turn requests: drop -Dturns (a conversation would send its"
              + " images again with each turn)");
    }
    if (images.ladder()
        && (load.ladder()
            || load.ramp().isPresent()
            || r.isSet(SettingsTable.SEARCH)
            || workload.dataset() == DatasetKind.TRACE)) {
      SettingsTable.Setting<?> stepped =
          images.counts().size() > 1 ? SettingsTable.IMAGES : SettingsTable.IMAGE_SIZE;
      throw SettingsException.invalid(
          stepped.name(),
          r.raw(stepped).get(),
          "one value with -Dladder, -Dramp, -Dsearch or a trace; several step over them at one"
              + " load (-Dconc or -Drate)");
    }
  }

  /** The most servers {@code -Dbase.url} may name. */
  static final int MAX_BASE_URLS = 64;

  /** {@code -Dbase.url}: one URL or several, separated by commas, each once. */
  static List<URI> parseBaseUrls(String property, String value) {
    List<URI> out = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      URI uri = parseBaseUrl(property, part);
      if (out.contains(uri)) {
        throw SettingsException.invalid(
            property, value, "URLs separated by commas, each once (" + uri + " is there twice)");
      }
      out.add(uri);
    }
    if (out.size() > MAX_BASE_URLS) {
      throw SettingsException.invalid(
          property, value, "at most " + MAX_BASE_URLS + " URLs separated by commas");
    }
    return List.copyOf(out);
  }

  static URI parseBaseUrl(String property, String value) {
    String accepted = "an http:// or https:// URL with a host, e.g. http://127.0.0.1:8000";
    URI uri;
    try {
      uri = new URI(value.trim());
    } catch (URISyntaxException e) {
      throw SettingsException.invalid(property, value, accepted);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || uri.getRawUserInfo() != null) {
      throw SettingsException.invalid(property, value, accepted);
    }
    String s = uri.toString();
    // Users paste ".../v1" from their OpenAI client config; the kit adds /v1 itself.
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.endsWith("/v1")) {
      s = s.substring(0, s.length() - 3);
    }
    return URI.create(s);
  }

  /** The first server of {@code -Dbase.url}: the one the kit asks (models, tokenizer, metrics). */
  public Optional<URI> baseUrl() {
    return routing.baseUrls().stream().findFirst();
  }

  /** Where requests go: the servers and models, and each model's share. */
  public Routing routing() {
    return routing;
  }

  public Api api() {
    return api;
  }

  /** The first model of {@code -Dmodel}: the one the kit asks about (tokenizer, context). */
  public Optional<String> model() {
    return routing.models().stream().findFirst();
  }

  /** {@code -Dconc}: the closed-model level (a ladder's first level). */
  public int conc() {
    return load.levels().get(0);
  }

  public int durationSeconds() {
    return load.durationSeconds();
  }

  public int inputLen() {
    return workload.inputLen();
  }

  public int outputLen() {
    return workload.outputLen();
  }

  public int timeoutSeconds() {
    return timeoutSeconds;
  }

  public Load load() {
    return load;
  }

  public Workload workload() {
    return workload;
  }

  public Roofline roofline() {
    return roofline;
  }

  /**
   * {@code -Dpercentiles}: the latency percentiles the blocks, {@code summary.json} and {@code
   * llm.html} show, in order; empty when not given (each block keeps its own rows).
   */
  public Optional<List<Double>> percentiles() {
    return percentiles;
  }

  /** The gates as typed; {@code gates.RunGates} parses them. */
  public GateEntries gateEntries() {
    return gateEntries;
  }

  /**
   * Whether a broken gate ends the JVM with status 2 once Gatling's report is written ({@code
   * -Dllmbench.exit.on.gates=false} for runs embedded in a longer-lived JVM, such as tests).
   */
  public boolean exitOnGateFailure() {
    return exitOnGateFailure;
  }

  /**
   * What Gatling's stats get of each stream ({@code -Dstats.records}): by default the stream's own
   * record only; every latency is in {@code requests.jsonl}, the console, {@code llm.html} and the
   * kit's gates whatever this says (see docs/outputs.md).
   */
  public GatlingRecords gatlingRecords() {
    return gatlingRecords;
  }

  /**
   * {@code -Dextra.body} and {@code -Dheader.<Name>}: what every streaming request carries besides
   * the kit's fields.
   */
  public RequestOptions requestOptions() {
    return requestOptions;
  }

  /** {@code -Dready.timeout}, {@code -Dprofile} and {@code -Dcache.reset}. */
  /** {@code -Dcancel.pct} and {@code -Dcancel.after}. */
  public Cancellation cancellation() {
    return cancellation;
  }

  private static Cancellation readCancellation(Reader r) {
    double pct = r.get(SettingsTable.CANCEL_PCT);
    if (pct == 0 && r.isSet(SettingsTable.CANCEL_AFTER)) {
      throw new SettingsException(
          "-Dcancel.after applies with -Dcancel.pct=P (the share of requests cancelled)");
    }
    return pct == 0 ? Cancellation.NONE : new Cancellation(pct, r.get(SettingsTable.CANCEL_AFTER));
  }

  public ServerCalls serverCalls() {
    return serverCalls;
  }

  /** The embedded simulator's model (catalog id); used only without {@code base.url}. */
  public String simModel() {
    return simModel;
  }

  /** The embedded simulator's GPU (catalog id); used only without {@code base.url}. */
  public String simGpu() {
    return simGpu;
  }

  /**
   * The embedded simulator's dialect: {@code vllm}, {@code llamacpp} (llama.cpp's llama-server
   * stream and endpoint shapes), {@code sglang}, {@code tgi} or {@code trtllm}; used only without
   * {@code base.url}.
   */
  public String simDialect() {
    return simDialect;
  }

  /**
   * The embedded simulator's engine limits, tensor parallelism and faults; used only without {@code
   * base.url}.
   */
  public SimEngine simEngine() {
    return simEngine;
  }

  /** The API key, for the Authorization header only. Never print or persist it. */
  public Optional<String> apiKey() {
    return apiKey;
  }

  /**
   * A short form for debugging: the server, the load and the dataset. The lines shown to people are
   * {@code report.SettingsDescription}'s; neither shows the API key or a header's value.
   */
  @Override
  public String toString() {
    return "BenchSettings[base.url="
        + (routing.baseUrls().isEmpty() ? "none" : routing.baseUrls().toString())
        + ", api="
        + api.id()
        + ", model="
        + (routing.models().isEmpty() ? "none" : String.join(",", routing.models()))
        + ", "
        + load
        + ", dataset="
        + workload.describe()
        + "]";
  }

  /**
   * Reads raw property values and turns them into typed, validated ones, by the table's parsers and
   * defaults.
   */
  private static final class Reader {
    private final Function<String, String> source;

    Reader(Function<String, String> source) {
      this.source = source;
    }

    /** The value as given, trimmed; empty when not set or blank. */
    Optional<String> raw(SettingsTable.Setting<?> setting) {
      return Optional.ofNullable(source.apply(setting.name()))
          .map(String::trim)
          .filter(s -> !s.isEmpty());
    }

    boolean isSet(SettingsTable.Setting<?> setting) {
      return raw(setting).isPresent();
    }

    /** The value given, parsed; empty when not set. */
    <T> Optional<T> optional(SettingsTable.Setting<T> setting) {
      return raw(setting).map(v -> setting.parser().parse(setting.name(), v));
    }

    /** The value given, else the table's default (only for settings that have one). */
    <T> T get(SettingsTable.Setting<T> setting) {
      return optional(setting)
          .orElseGet(
              () ->
                  setting
                      .typedDefault()
                      .orElseThrow(
                          () ->
                              new IllegalStateException(
                                  "-D"
                                      + setting.name()
                                      + " has no default value: read it with optional()")));
    }
  }
}
