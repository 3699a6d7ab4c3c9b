package io.github.llmbench.settings;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every {@code -D} setting of the kit: its name, default, accepted values and meaning. {@link
 * BenchSettings} reads only names listed here (its reader refuses others), {@link #unknown} refuses
 * properties in the kit's namespaces that are not listed (and near misses of listed ones), and
 * {@code -Dhelp} prints this table: help and validation cannot drift apart.
 */
public final class SettingsTable {
  private SettingsTable() {}

  /**
   * One setting: how {@code -Dhelp} words it, how its text is read, and what applies when it is not
   * set.
   *
   * @param name the property without {@code -D}; a family ends with a dot ({@code header.})
   * @param defaultValue what applies when it is not set, as {@code -Dhelp} words it
   * @param accepted what values it takes, as {@code -Dhelp} words them
   * @param parser reads a given value (trimmed, not empty), or refuses it in one line
   * @param typedDefault the value that applies when it is not set; empty where there is none or
   *     where it follows from other settings (the words in {@code defaultValue} say which)
   */
  public record Setting<T>(
      String group,
      String name,
      String defaultValue,
      String accepted,
      String meaning,
      Parser<T> parser,
      Optional<T> typedDefault) {
    boolean family() {
      return name.endsWith(".");
    }

    /**
     * A setting whose default is one value, which {@code -Dhelp} shows as typed ({@code 16}, not
     * {@code 16.0}).
     */
    static <T> Setting<T> of(
        String group,
        String name,
        T defaultValue,
        String accepted,
        String meaning,
        Parser<T> parser) {
      return new Setting<>(
          group, name, shown(defaultValue), accepted, meaning, parser, Optional.of(defaultValue));
    }

    /**
     * A setting without a default value: none, or one the code derives from other settings, as the
     * words say.
     */
    static <T> Setting<T> without(
        String group,
        String name,
        String defaultWords,
        String accepted,
        String meaning,
        Parser<T> parser) {
      return new Setting<>(group, name, defaultWords, accepted, meaning, parser, Optional.empty());
    }

    private static String shown(Object value) {
      if (value instanceof Double d) {
        return Level.plainNumber(d);
      }
      if (value instanceof BenchSettings.GatlingRecords g) {
        return g.id();
      }
      if (value instanceof Images.Format f) {
        return f.id();
      }
      return value instanceof BenchSettings.Api a ? a.id() : String.valueOf(value);
    }
  }

  /**
   * The limit of the gate every run has unless one on {@code failed.pct} is given (the gates
   * package adds it): at most 1% of a level's requests may fail.
   */
  public static final double DEFAULT_FAILED_PCT = 1;

  /**
   * {@code -Dgate.goodput}'s form in the help, over the metrics the objectives take; TTFO's key is
   * the gates' (settings may not use them), so RunGatesTest holds this to GoodputSpec's form.
   */
  static final String GOODPUT_PLACEHOLDER =
      Metric.PER_REQUEST.stream().map(m -> m.key() + ":MS").collect(Collectors.joining(" "))
          + " ttfo:MS";

  /** {@code -Dsearch.max} without a value: the highest concurrency probed, and the highest rate. */
  static final int SEARCH_MAX_CONC = 1024;

  static final double SEARCH_MAX_RATE = 100;

  private static final String SERVER = "Server and request";
  private static final String LOAD = "Load shape";
  private static final String WORKLOAD = "Workload";
  private static final String SIMULATOR = "Embedded simulator (no -Dbase.url)";
  private static final String REPORT = "Report, gates and capacity search";
  private static final String SCALE = "Telemetry, scale-out and records";

  private static final Parser<String> TEXT = Parser.text();

  public static final Setting<List<URI>> BASE_URL =
      Setting.without(
          SERVER,
          "base.url",
          "none: the embedded simulator",
          "an http(s) URL, e.g. http://127.0.0.1:8000, or several separated by commas",
          "the server to load; several (replicas behind no load balancer) get the requests in"
              + " turn, and the page has figures per URL",
          BenchSettings::parseBaseUrls);
  public static final Setting<BenchSettings.Api> API =
      Setting.of(
          SERVER,
          "api",
          BenchSettings.Api.CHAT,
          "chat, completions, responses or embeddings",
          "the endpoint: /v1/chat/completions, /v1/completions, /v1/responses (streamed events) or"
              + " /v1/embeddings (one JSON body, not streamed: E2EL and input tokens)",
          BenchSettings.Api::parse);
  public static final Setting<String> MODEL =
      Setting.without(
          SERVER,
          "model",
          "the first id of GET /v1/models",
          "a model id the server serves, or several separated by commas",
          "the model name sent in each request; several (models or LoRA adapters) are mixed by"
              + " model.weights, and the page has figures per model",
          TEXT);
  public static final Setting<List<Double>> MODEL_WEIGHTS =
      Setting.without(
          SERVER,
          "model.weights",
          "equal",
          "one number above 0 per -Dmodel, separated by commas, e.g. 0.7,0.3",
          "the share of requests each model of -Dmodel gets (picked by the seed; normalised)",
          Parser.positiveNumbers());
  public static final Setting<Integer> TIMEOUT =
      Setting.of(
          SERVER,
          "timeout",
          300,
          "a whole number of seconds from 1",
          "how long a request may take from its send to the end of its response",
          Parser.positiveInt(BenchSettings.MAX_SECONDS));
  public static final Setting<Double> CANCEL_PCT =
      Setting.of(
          SERVER,
          "cancel.pct",
          0.0,
          "a number from 0 to 100",
          "share of measured requests (picked by the seed) the client cancels cancel.after s after"
              + " the send, closing the connection as a browser tab does: counted as cancelled,"
              + " neither OK nor failed",
          Parser.number(v -> v >= 0 && v <= 100, "a number from 0 to 100"));
  public static final Setting<Double> CANCEL_AFTER =
      Setting.of(
          SERVER,
          "cancel.after",
          0.0,
          "a number of seconds from 0",
          "seconds after its send a cancelled request is cancelled (0: at once, AIPerf's default)",
          Parser.nonNegativeSeconds());
  public static final Setting<String> EXTRA_BODY =
      Setting.without(
          SERVER,
          "extra.body",
          "none",
          "a JSON object, e.g. {\"temperature\":0.6}",
          "merged into every request body (its keys win), as vllm bench serve --extra-body",
          TEXT);
  public static final Setting<String> HEADER =
      Setting.without(
          SERVER,
          "header.",
          "none",
          "-Dheader.<Name>=<value>, an HTTP header name",
          "a header on every request; values are never printed",
          TEXT);
  public static final Setting<String> TOKENIZER =
      Setting.without(
          SERVER,
          "tokenizer",
          "none: the server's /tokenize",
          "a tokenizer.json, or a folder holding one",
          "count tokens here (servers without /tokenize or usage)",
          TEXT);

  /** {@code vllm bench serve --profile}: the server's torch profiler around the measured load. */
  public static final Setting<Boolean> PROFILE =
      Setting.of(
          SERVER,
          "profile",
          false,
          "true or false",
          "POST /start_profile before the first measured level, /stop_profile after the last (vLLM"
              + " run with a profiler dir)",
          // -Dprofile sits one letter from -Dprofiles (the profiles dataset): say which is which
          (name, raw) ->
              switch (raw.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default ->
                    throw SettingsException.invalid(
                        name,
                        raw,
                        "true or false (the server's profiler; the profiles dataset's groups are"
                            + " -Dprofiles="
                            + raw
                            + ")");
              });

  public static final Setting<Integer> READY_TIMEOUT =
      Setting.of(
          SERVER,
          "ready.timeout",
          0,
          "a whole number of seconds from 0 (0: no wait)",
          "before anything else, wait up to this long for GET /health or GET /v1/models to answer"
              + " 200 (a server still loading), as vllm bench serve --ready-check-timeout-sec",
          Parser.nonNegativeInt(BenchSettings.MAX_SECONDS));
  public static final Setting<Boolean> CACHE_RESET =
      Setting.of(
          SERVER,
          "cache.reset",
          false,
          "true or false",
          "reset the server's prefix cache before each measured level: POST /reset_prefix_cache"
              + " (vLLM, VLLM_SERVER_DEV_MODE=1), /flush_cache (SGLang)",
          Parser.trueOrFalse());

  public static final Setting<Integer> CONC =
      Setting.of(
          LOAD,
          "conc",
          16,
          "a whole number from 1 to " + BenchSettings.MAX_CONC,
          "one closed-model level: this many requests in flight",
          Parser.positiveInt(BenchSettings.MAX_CONC));
  public static final Setting<List<Integer>> LADDER =
      Setting.without(
          LOAD,
          "ladder",
          "none",
          "whole numbers separated by commas, e.g. 8,16,32",
          "several closed-model levels, each drained before the next",
          Parser.intList(BenchSettings.MAX_CONC));
  public static final Setting<Integer> DURATION =
      Setting.of(
          LOAD,
          "duration",
          60,
          "a whole number of seconds from 1",
          "how long each level (or rate probe) keeps starting requests",
          Parser.positiveInt(BenchSettings.MAX_SECONDS));
  public static final Setting<List<Integer>> PROMPTS =
      Setting.without(
          LOAD,
          "prompts",
          "none",
          "a whole number, or one per ladder level",
          "instead of duration: exactly this many requests per level",
          Parser.intList(Integer.MAX_VALUE));
  public static final Setting<Integer> WARMUP_PROMPTS =
      Setting.of(
          LOAD,
          "warmup.prompts",
          0,
          "a whole number from 0",
          "requests sent before the measured levels, left out of every summary",
          Parser.nonNegativeInt(Integer.MAX_VALUE));
  public static final Setting<Integer> TRIALS =
      Setting.of(
          LOAD,
          "trials",
          1,
          "a whole number from 1 to " + BenchSettings.MAX_TRIALS,
          "times each measured level runs, back to back: its figures get confidence intervals"
              + " across the trials",
          Parser.positiveInt(BenchSettings.MAX_TRIALS));
  public static final Setting<Integer> TRIALS_COOLDOWN =
      Setting.of(
          LOAD,
          "trials.cooldown",
          0,
          "a whole number of seconds from 0",
          "idle time between two trials of a level (a server's queues and clocks settle)",
          Parser.nonNegativeInt(BenchSettings.MAX_SECONDS));
  public static final Setting<Integer> WARMUP_CONC =
      Setting.without(
          LOAD,
          "warmup.conc",
          "the first level / 4",
          "a whole number from 1",
          "concurrency of the warmup",
          Parser.positiveInt(BenchSettings.MAX_CONC));
  public static final Setting<Double> RATE =
      Setting.without(
          LOAD,
          "rate",
          "none",
          "a number of requests per second above 0",
          "open model: arrivals at this rate (level r<rate>)",
          Parser.positiveDouble());
  public static final Setting<Double> BURSTINESS =
      Setting.of(
          LOAD,
          "burstiness",
          1.0,
          "a number above 0 (1 = Poisson)",
          "open model: gamma shape of the arrival gaps, as vLLM's",
          Parser.positiveDouble());
  public static final Setting<String> RAMP =
      Setting.without(
          LOAD,
          "ramp",
          "none",
          "linear or exponential",
          "the load grows over the level's duration: from ramp.start to ramp.end requests/s (open"
              + " model, vLLM's --ramp-up-strategy) or over ramp.conc (closed model)",
          Parser.word(
              List.of("linear", "exponential"),
              "linear (the same step each second) or exponential (the same factor each second)"));
  public static final Setting<Double> RAMP_START =
      Setting.without(
          LOAD,
          "ramp.start",
          "none",
          "a number of requests per second from 0",
          "open-model ramp: the rate at the level's start (level r<start>-<end>)",
          Parser.number(v -> v >= 0, "a number of requests per second from 0"));
  public static final Setting<Double> RAMP_END =
      Setting.without(
          LOAD,
          "ramp.end",
          "none",
          "a number of requests per second above 0",
          "open-model ramp: the rate at the level's end",
          Parser.positiveDouble());
  public static final Setting<String> RAMP_CONC =
      Setting.without(
          LOAD,
          "ramp.conc",
          "none",
          "C0:C1, whole numbers from 1, e.g. 1:64",
          "closed-model ramp: requests in flight from C0 at the level's start to C1 at its end"
              + " (level c<C0>-<C1>), linear unless -Dramp=exponential",
          TEXT);
  public static final Setting<Integer> MAX_CONC =
      Setting.without(
          LOAD,
          "max.conc",
          "none",
          "a whole number from 1",
          "open model: at most this many requests in flight",
          Parser.positiveInt(BenchSettings.MAX_CONC));

  public static final Setting<String> DATASET =
      Setting.of(
          WORKLOAD,
          "dataset",
          "random",
          "random, profiles, file:PATH or trace:PATH",
          "where prompts come from",
          TEXT);
  public static final Setting<Integer> INPUT_LEN =
      Setting.of(
          WORKLOAD,
          "input.len",
          1024,
          "a whole number from 1",
          "random: prompt tokens, exact",
          Parser.positiveInt(BenchSettings.MAX_LEN));
  public static final Setting<Integer> OUTPUT_LEN =
      Setting.of(
          WORKLOAD,
          "output.len",
          128,
          "a whole number from 1",
          "max_tokens of each request (with ignore_eos)",
          Parser.positiveInt(BenchSettings.MAX_LEN));
  public static final Setting<Double> RANGE_RATIO =
      Setting.of(
          WORKLOAD,
          "range.ratio",
          0.0,
          "a number from 0 up to 1",
          "random: lengths drawn from [len x (1 - r), len x (1 + r)]",
          Parser.fraction());
  public static final Setting<Double> INPUT_STDEV =
      Setting.of(
          WORKLOAD,
          "input.stdev",
          0.0,
          "a number from 0",
          "random: standard deviation of the prompt lengths around input.len (normal unless"
              + " length.dist says otherwise), clipped to at least 1 and to the context",
          Parser.number(v -> v >= 0 && v <= BenchSettings.MAX_LEN, "a number from 0"));
  public static final Setting<Double> OUTPUT_STDEV =
      Setting.of(
          WORKLOAD,
          "output.stdev",
          0.0,
          "a number from 0",
          "random: standard deviation of the output lengths (max_tokens) around output.len",
          Parser.number(v -> v >= 0 && v <= BenchSettings.MAX_LEN, "a number from 0"));
  public static final Setting<String> LENGTH_DIST =
      Setting.without(
          WORKLOAD,
          "length.dist",
          "normal with input.stdev or output.stdev, else vLLM's uniform range.ratio",
          "normal, lognormal or uniform",
          "random: the family the lengths are drawn from, with the stdevs (uniform: mean +-"
              + " sqrt(3) x stdev)",
          Parser.word(List.of("normal", "lognormal", "uniform"), "normal, lognormal or uniform"));
  public static final Setting<Integer> PREFIX_LEN =
      Setting.of(
          WORKLOAD,
          "prefix.len",
          0,
          "a whole number from 0",
          "random: tokens of the prefix shared by the requests (of its group, with prefix.groups)",
          Parser.nonNegativeInt(BenchSettings.MAX_LEN));
  public static final Setting<Integer> PREFIX_GROUPS =
      Setting.of(
          WORKLOAD,
          "prefix.groups",
          1,
          "a whole number from 1 to " + BenchSettings.MAX_PREFIX_GROUPS,
          "random: distinct prefixes of prefix.len tokens, the requests taking them in turn (a"
              + " perfect prefix cache's hit rate is on the start line)",
          Parser.positiveInt(BenchSettings.MAX_PREFIX_GROUPS));
  public static final Setting<Long> SEED =
      Setting.without(
          WORKLOAD,
          "seed",
          "fresh per run",
          "a whole number",
          "seeds prompts, file order, profile mix and arrival gaps; repeats a run",
          Parser.anyLong());
  public static final Setting<ProfileSelection> PROFILES =
      Setting.of(
          WORKLOAD,
          "profiles",
          ProfileSelection.parse("tiny"),
          "tiny, huge, or GROUP:P1,P2 (e.g. tiny:SS,LL)",
          "profiles: the seed study's SS/SL/LS/LL groups",
          (name, raw) -> {
            if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
              throw SettingsException.invalid(
                  name,
                  raw,
                  "tiny, huge, or GROUP:P1,P2 (the server's profiler is -Dprofile=" + raw + ")");
            }
            return ProfileSelection.parse(raw);
          });
  public static final Setting<String> PROFILE_ORDER =
      Setting.of(
          WORKLOAD,
          "profile.order",
          "sequential",
          "sequential or mixed",
          "profiles: one after another, or drawn per request",
          Parser.word(List.of("sequential", "mixed"), "sequential or mixed"));
  public static final Setting<Integer> TURNS =
      Setting.of(
          WORKLOAD,
          "turns",
          1,
          "a whole number from 1",
          "multi-turn: each virtual user holds a conversation of this many turns",
          Parser.positiveInt(BenchSettings.MAX_TURNS));
  public static final Setting<Double> THINK_TIME =
      Setting.of(
          WORKLOAD,
          "think.time",
          0.0,
          "a number of seconds from 0",
          "multi-turn: pause between an answer and the next turn",
          Parser.nonNegativeSeconds());
  public static final Setting<Double> TRACE_SPEED =
      Setting.of(
          WORKLOAD,
          "trace.speed",
          1.0,
          "a number above 0",
          "trace replay: the trace's pace times this",
          Parser.positiveDouble());

  public static final Setting<List<Integer>> IMAGES =
      Setting.without(
          WORKLOAD,
          "images",
          "none",
          "whole numbers from 0 to " + ImageStep.MAX_COUNT + ", separated by commas",
          "synthetic images in each chat request's user message, as image_url data URIs (vLLM's"
              + " random-mm); several counts make a ladder over them at the one load",
          Parser.intList(0, ImageStep.MAX_COUNT));
  public static final Setting<List<ImageStep.Size>> IMAGE_SIZE =
      Setting.without(
          WORKLOAD,
          "image.size",
          Images.DEFAULT_SIZE.toString(),
          "WIDTHxHEIGHT in pixels, e.g. 512x512, or several separated by commas",
          "images: the synthetic images' size; several sizes make a ladder over them at the one"
              + " load",
          Images::parseSizes);
  public static final Setting<Images.Format> IMAGE_FORMAT =
      Setting.of(
          WORKLOAD,
          "image.format",
          Images.Format.JPEG,
          "png or jpeg",
          "images: how they are encoded",
          Images.Format::parse);

  public static final Setting<String> SIM_MODEL =
      Setting.of(
          SIMULATOR,
          "sim.model",
          BenchSettings.DEFAULT_SIM_MODEL,
          "a catalog id, or the path of a Hugging Face config.json",
          "the simulated model",
          TEXT);
  public static final Setting<String> SIM_GPU =
      Setting.of(
          SIMULATOR,
          "sim.gpu",
          BenchSettings.DEFAULT_SIM_GPU,
          "a catalog GPU id",
          "the simulated GPU",
          Parser.oneOf(() -> Catalog.gpus().keySet()));
  public static final Setting<Integer> SIM_TP =
      Setting.of(
          SIMULATOR,
          "sim.tp",
          1,
          "a whole number from 1 to 64",
          "the simulated tensor-parallel GPUs",
          Parser.positiveInt(BenchSettings.MAX_TP));
  public static final Setting<Integer> SIM_MAX_NUM_SEQS =
      Setting.of(
          SIMULATOR,
          "sim.max_num_seqs",
          256,
          "a whole number from 1",
          "vLLM's --max-num-seqs",
          Parser.positiveInt(1 << 20));
  public static final Setting<Integer> SIM_MAX_NUM_BATCHED_TOKENS =
      Setting.of(
          SIMULATOR,
          "sim.max_num_batched_tokens",
          2048,
          "a whole number >= sim.max_num_seqs",
          "vLLM's --max-num-batched-tokens",
          Parser.positiveInt(1 << 24));
  public static final Setting<Double> SIM_GPU_MEMORY_UTILIZATION =
      Setting.of(
          SIMULATOR,
          "sim.gpu_memory_utilization",
          0.9,
          "a number above 0 and at most 1",
          "vLLM's --gpu-memory-utilization (KV-cache size)",
          Parser.number(v -> v > 0 && v <= 1, "a number above 0 and at most 1"));

  /** The simulator parses the faults when it starts; the setting keeps them as typed. */
  public static final Setting<String> SIM_FAULTS =
      Setting.of(
          SIMULATOR,
          "sim.faults",
          "none",
          "MODE:SHARE,... e.g. 429:0.05,500:0.05,error:0.05,cut:0.02,stall:0.01:30",
          "faults on demand",
          TEXT);

  /**
   * The simulator's step-time noise (its {@code SimNoise}): a coefficient of variation, the same
   * limits as the simulator's {@code --noise}.
   */
  public static final Setting<Double> SIM_NOISE =
      Setting.of(
          SIMULATOR,
          "sim.noise",
          0.0,
          "a number from 0 to 1 (0.1: 10%)",
          "each engine step's time x a random factor of mean 1: step-to-step CV this, plus a drift"
              + " of CV half this over ~5 s; drawn from the run's seed",
          Parser.number(
              v -> v >= 0 && v <= 1,
              "a number from 0 to 1 (a coefficient of variation: 0.1 is 10%)"));

  /** Every simulated step this many times as long: a known regression to detect. */
  public static final Setting<Double> SIM_SLOWDOWN =
      Setting.of(
          SIMULATOR,
          "sim.slowdown",
          1.0,
          "a number above 0, at most 100 (1.1: 10% slower)",
          "every engine step takes this many times as long",
          Parser.number(
              v -> v > 0 && v <= 100,
              "a number above 0 and at most 100 (1.1: every step 10% slower)"));

  /** Tokens per stream chunk: a server that batches its output or decodes speculatively. */
  public static final Setting<Integer> SIM_TOKENS_PER_CHUNK =
      Setting.of(
          SIMULATOR,
          "sim.tokens.per.chunk",
          1,
          "a whole number from 1 to 64",
          "each stream chunk carries this many tokens (vLLM's dialect)",
          Parser.positiveInt(64));

  /** A chat answer's first tokens that are thinking: a reasoning model. */
  public static final Setting<Integer> SIM_REASONING =
      Setting.of(
          SIMULATOR,
          "sim.reasoning",
          0,
          "a whole number from 0",
          "a chat answer's first N tokens are thinking, streamed as delta.reasoning (vLLM's)",
          Parser.nonNegativeInt(1 << 20));

  public static final Setting<String> SIM_LORA =
      Setting.without(
          SIMULATOR,
          "sim.lora",
          "none",
          "adapter names separated by commas, e.g. sql,chat",
          "LoRA adapters the simulator serves besides its model (vLLM's --lora-modules), to mix"
              + " with -Dmodel",
          TEXT);
  public static final Setting<String> SIM_DIALECT =
      Setting.of(
          SIMULATOR,
          "sim.dialect",
          BenchSettings.DEFAULT_SIM_DIALECT,
          "vllm, llamacpp, sglang, tgi or trtllm",
          "the simulated server's stream and endpoint shapes",
          Parser.oneOf(() -> List.of("vllm", "llamacpp", "sglang", "tgi", "trtllm")));

  public static final Setting<String> MODEL_SPEC =
      Setting.without(
          REPORT,
          "model.spec",
          "the simulator's model, or the catalog entry named like the served one",
          "a catalog id or a Hugging Face config.json",
          "the roofline's model",
          TEXT);
  public static final Setting<String> GPU =
      Setting.without(
          REPORT,
          "gpu",
          "the simulator's GPU; none for a real server",
          "a catalog GPU id",
          "the roofline's GPU",
          Parser.oneOf(() -> Catalog.gpus().keySet()));
  public static final Setting<Integer> TP =
      Setting.without(
          REPORT,
          "tp",
          "sim.tp, or 1 for a real server",
          "a whole number from 1 to 64",
          "the roofline's tensor-parallel GPUs",
          Parser.positiveInt(BenchSettings.MAX_TP));
  public static final Setting<List<Double>> PERCENTILES =
      Setting.without(
          REPORT,
          "percentiles",
          "99,90 (and each block's own rows)",
          Parser.PERCENTILES_ACCEPTED,
          "the latency percentiles of every result block, summary.json and llm.html"
              + " (vllm bench serve --metric-percentiles); gates take any percentile",
          Parser.percentiles());
  public static final Setting<String> GATE =
      Setting.without(
          REPORT,
          "gate.",
          SloFigure.FAILED_PCT.key() + " <= " + Level.plainNumber(DEFAULT_FAILED_PCT),
          "-Dgate.[LEVEL.]METRIC=LIMIT (e.g. gate."
              + new LatencyFigure(Metric.TPOT, Statistic.P99).key()
              + "=50, gate.c64."
              + SloFigure.FAILED_PCT.key()
              + "=1, +10%), gate.goodput="
              + GOODPUT_PLACEHOLDER,
          "a performance gate: the run fails (exit 2) when it breaks",
          TEXT);
  public static final Setting<String> GATES =
      Setting.without(
          REPORT, "gates", "none", "a gates file, JSON or properties", "gates from a file", TEXT);
  public static final Setting<String> BASELINE =
      Setting.without(
          REPORT,
          "baseline",
          "none",
          "a run folder, or its llm/summary.json",
          "the run that relative gates (+10%) refer to",
          TEXT);

  /** Only {@code false} turns it off: any other value keeps the default. */
  public static final Setting<Boolean> EXIT_ON_GATES =
      Setting.of(
          REPORT,
          "llmbench.exit.on.gates",
          true,
          "true or false",
          "false: a broken gate is reported, the command still succeeds",
          (name, raw) -> !"false".equalsIgnoreCase(raw));

  public static final Setting<String> SEARCH =
      Setting.without(
          REPORT,
          "search",
          "none",
          "conc or rate",
          "search the highest concurrency or request rate meeting -Dslo",
          Parser.word(
              List.of("conc", "rate"),
              "conc (closed-model concurrency) or rate (open-model requests per second)"));
  public static final Setting<String> SLO =
      Setting.without(
          REPORT,
          "slo",
          "none",
          "METRIC:LIMIT,... e.g. " + BenchSettings.SLO_EXAMPLE,
          "the capacity search's objectives",
          TEXT);

  /**
   * Read as a rate; a concurrency search reads its text as a whole number ({@link
   * BenchSettings.Search}).
   */
  public static final Setting<Double> SEARCH_MIN =
      Setting.of(
          REPORT,
          "search.min",
          1.0,
          "a number above 0 (whole for conc)",
          "the search's first probe",
          Parser.positiveDouble());

  public static final Setting<Double> SEARCH_MAX =
      Setting.without(
          REPORT,
          "search.max",
          SEARCH_MAX_CONC + " (conc), " + Level.plainNumber(SEARCH_MAX_RATE) + " (rate)",
          "a number above 0 (whole for conc)",
          "the search's highest probe",
          Parser.positiveDouble());
  public static final Setting<Double> SEARCH_PRECISION =
      Setting.of(
          REPORT,
          "search.precision",
          0.1,
          "a number above 0 and below 1",
          "the search ends when its bracket is this close",
          Parser.fraction());
  public static final Setting<Integer> SEARCH_BUDGET =
      Setting.of(
          REPORT,
          "search.budget",
          30,
          "a whole number of minutes from 1",
          "the search's time budget",
          Parser.positiveInt(7 * 24 * 60));

  public static final Setting<Double> METRICS_INTERVAL =
      Setting.of(
          SCALE,
          "metrics.interval",
          1.0,
          "a number of seconds from 0 (0: off)",
          "scrape the server's /metrics (and metrics.urls) this often",
          Parser.nonNegativeSeconds());
  public static final Setting<String> METRICS_URLS =
      Setting.without(
          SCALE,
          "metrics.urls",
          "none",
          "http:// URLs separated by commas",
          "more Prometheus endpoints, e.g. a DCGM exporter",
          TEXT);
  public static final Setting<String> INJECTOR =
      Setting.without(
          SCALE,
          "injector",
          "0/1",
          "i/N with 0 <= i < N",
          "this process is injector i of N sharing the load",
          TEXT);
  public static final Setting<String> START_AT =
      Setting.without(
          SCALE,
          "start.at",
          "none",
          "epoch ms or an ISO-8601 instant",
          "when the first phase starts (every injector)",
          TEXT);
  public static final Setting<Integer> DRAIN =
      Setting.of(
          SCALE,
          "drain",
          30,
          "a whole number of seconds from 0",
          "a shared ladder's time after each level's duration",
          Parser.nonNegativeInt(BenchSettings.MAX_SECONDS));
  public static final Setting<BenchSettings.GatlingRecords> STATS_RECORDS =
      Setting.of(
          SCALE,
          "stats.records",
          BenchSettings.GatlingRecords.REQUEST,
          "request, latency or all",
          "Gatling's records per stream: the request (E2EL); latency: + TTFT, TPOT; all: + ITL per chunk gap",
          BenchSettings.GatlingRecords::parse);
  public static final Setting<String> HELP =
      Setting.without(SCALE, "help", "none", "any value", "print this list and exit", TEXT);

  /** The settings, in the order {@code -Dhelp} prints them. */
  public static final List<Setting<?>> ALL =
      List.of(
          BASE_URL,
          API,
          MODEL,
          MODEL_WEIGHTS,
          TIMEOUT,
          CANCEL_PCT,
          CANCEL_AFTER,
          EXTRA_BODY,
          HEADER,
          TOKENIZER,
          PROFILE,
          READY_TIMEOUT,
          CACHE_RESET,
          CONC,
          LADDER,
          DURATION,
          PROMPTS,
          WARMUP_PROMPTS,
          WARMUP_CONC,
          TRIALS,
          TRIALS_COOLDOWN,
          RATE,
          BURSTINESS,
          MAX_CONC,
          RAMP,
          RAMP_START,
          RAMP_END,
          RAMP_CONC,
          DATASET,
          INPUT_LEN,
          OUTPUT_LEN,
          RANGE_RATIO,
          INPUT_STDEV,
          OUTPUT_STDEV,
          LENGTH_DIST,
          PREFIX_LEN,
          PREFIX_GROUPS,
          SEED,
          PROFILES,
          PROFILE_ORDER,
          TURNS,
          THINK_TIME,
          TRACE_SPEED,
          IMAGES,
          IMAGE_SIZE,
          IMAGE_FORMAT,
          SIM_MODEL,
          SIM_GPU,
          SIM_TP,
          SIM_MAX_NUM_SEQS,
          SIM_MAX_NUM_BATCHED_TOKENS,
          SIM_GPU_MEMORY_UTILIZATION,
          SIM_FAULTS,
          SIM_NOISE,
          SIM_SLOWDOWN,
          SIM_TOKENS_PER_CHUNK,
          SIM_REASONING,
          SIM_DIALECT,
          SIM_LORA,
          MODEL_SPEC,
          GPU,
          TP,
          PERCENTILES,
          GATE,
          GATES,
          BASELINE,
          EXIT_ON_GATES,
          SEARCH,
          SLO,
          SEARCH_MIN,
          SEARCH_MAX,
          SEARCH_PRECISION,
          SEARCH_BUDGET,
          METRICS_INTERVAL,
          METRICS_URLS,
          INJECTOR,
          START_AT,
          DRAIN,
          STATS_RECORDS,
          HELP);

  private static final Map<String, Setting<?>> BY_NAME = new LinkedHashMap<>();

  static {
    ALL.forEach(s -> BY_NAME.put(s.name(), s));
  }

  /**
   * Names other load tools use for a kit setting (vllm bench serve's and GuideLLM's flags),
   * normalized as {@link #normalized} makes them. Not Gatling idioms such as {@code users} or
   * {@code host}: simulations of one's own read those ({@code LlmBench.start("users")}).
   */
  private static final Map<String, String> ALIASES =
      Map.ofEntries(
          Map.entry("concurrency", "conc"),
          Map.entry("max.concurrency", "conc"),
          Map.entry("num.prompts", "prompts"),
          Map.entry("num.requests", "prompts"),
          Map.entry("request.rate", "rate"),
          Map.entry("random.input.len", "input.len"),
          Map.entry("random.output.len", "output.len"),
          Map.entry("max.tokens", "output.len"),
          Map.entry("random.range.ratio", "range.ratio"),
          Map.entry("random.prefix.len", "prefix.len"),
          Map.entry("dataset.name", "dataset"),
          Map.entry("dataset.path", "dataset"),
          Map.entry("served.model.name", "model"),
          Map.entry("num.warmups", "warmup.prompts"),
          Map.entry("max.seconds", "duration"),
          Map.entry("goodput", "gate.goodput"),
          Map.entry("request.timeout", "timeout"),
          Map.entry("itl.records", "stats.records"),
          Map.entry("random.mm.base.items.per.request", "images"),
          Map.entry("image.width", "image.size"),
          Map.entry("image.height", "image.size"));

  /** The first words of properties other programs own: never the kit's, never a near miss. */
  private static final Set<String> FOREIGN =
      Set.of(
          "java",
          "javax",
          "jdk",
          "sun",
          "com",
          "org",
          "net",
          "io",
          "os",
          "user",
          "file",
          "line",
          "path",
          "native",
          "stdout",
          "stderr",
          "awt",
          "maven",
          "gatling",
          "surefire",
          "failsafe",
          "exec",
          "classworlds",
          "library",
          "logback",
          "jansi",
          "picocli",
          "http",
          "https",
          "ftp",
          "socksproxyhost",
          "socksproxyport",
          "jna",
          "jline",
          "idea",
          "guice",
          "test",
          "skiptests",
          "skipits",
          "basedir",
          "localrepository",
          "env",
          "networkaddress",
          "polyglot",
          "style",
          "kotlin",
          "scala",
          "akka",
          "pekko",
          "netty",
          "slf4j",
          "log4j",
          "junit",
          "jacoco",
          "argline",
          "it");

  /** The setting of this name, or of the family it belongs to. */
  public static Optional<Setting<?>> get(String name) {
    Setting<?> s = BY_NAME.get(name);
    if (s != null) {
      return Optional.of(s);
    }
    return ALL.stream()
        .filter(f -> f.family() && name.startsWith(f.name()) && name.length() > f.name().length())
        .findFirst();
  }

  /**
   * The first property that is not a kit setting though it looks like one, as one line: a name in
   * one of the kit's namespaces that no setting has, or a near miss of a setting's name (edit
   * distance 1 for short names, 2 otherwise; the same words with {@code _ - .} swapped or
   * reordered; another tool's name for it). Empty when every property is fine.
   *
   * @param simulationOwn properties a simulation of one's own reads itself: never refused
   */
  public static Optional<String> unknown(
      Map<String, String> properties, Set<String> simulationOwn) {
    for (String key : new TreeSet<>(properties.keySet())) {
      if (get(key).isPresent() || simulationOwn.contains(key)) {
        continue;
      }
      String first = key.split("[.]", 2)[0];
      String value = properties.get(key);
      Optional<String> near = nearMiss(key, value);
      if (NAMESPACES.contains(first) && key.contains(".")) {
        return Optional.of(
            "Unknown setting -D"
                + shown(key, value)
                + ": "
                + near.map(n -> "did you mean -D" + n + "? ").orElse("")
                + (namesIn(first).isEmpty()
                    ? "-D" + first + " is one setting, with no -D" + first + ".* under it"
                    : "the -D" + first + ".* settings are " + String.join(", ", namesIn(first)))
                + " (-Dhelp lists all)");
      }
      if (FOREIGN.contains(first.toLowerCase(Locale.ROOT))) {
        continue;
      }
      if (near.isPresent()) {
        return Optional.of(
            "Unknown setting -D"
                + shown(key, value)
                + ": did you mean -D"
                + near.get()
                + "? (-Dhelp lists every setting)");
      }
    }
    return Optional.empty();
  }

  /** The name with its value, unless the name says the value may be a secret. */
  private static String shown(String key, String value) {
    String k = key.toLowerCase(Locale.ROOT);
    boolean secret =
        List.of("header", "key", "token", "secret", "password", "auth", "cred").stream()
            .anyMatch(k::contains);
    return secret ? key : key + "=" + value;
  }

  /**
   * The first words of the kit's dotted names ({@code sim}, {@code gate}, ...) and its one-word
   * names ({@code -Dslo.ttft.p99} is not a setting either).
   */
  private static final Set<String> NAMESPACES = namespaces();

  private static Set<String> namespaces() {
    Set<String> out = new TreeSet<>();
    for (Setting<?> s : ALL) {
      out.add(s.name().split("[.]", 2)[0]);
    }
    return out;
  }

  private static List<String> namesIn(String first) {
    List<String> out = new ArrayList<>();
    for (Setting<?> s : ALL) {
      if (s.name().startsWith(first + ".")) {
        out.add(s.family() ? s.name() + "*" : s.name());
      }
    }
    return out;
  }

  /** The setting this name probably meant, if it is close to exactly one kind of name. */
  static Optional<String> nearMiss(String key) {
    return nearMiss(key, null);
  }

  /**
   * As {@link #nearMiss(String)}; of two names as near ({@code -Dprofils}: {@code profile} and
   * {@code profiles}), the one that takes the value ({@code tiny}, {@code true}) if only one does.
   */
  static Optional<String> nearMiss(String key, String value) {
    String n = normalized(key);
    if (ALIASES.containsKey(n)) {
      return Optional.of(ALIASES.get(n));
    }
    String[] words = key.split("[.]", 2);
    for (Setting<?> f : ALL) { // -Dheaders.X-Route: -Dheader.X-Route (not -Drate.x: -Dgate.x)
      String stem = f.name().substring(0, f.name().length() - 1);
      if (f.family()
          && words.length == 2
          && normalized(words[0]).startsWith(stem)
          && distance(normalized(words[0]), stem) <= 1) {
        return Optional.of(f.name() + words[1]);
      }
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Setting<?> s : ALL) {
      if (s.family() || s.name().equals("help")) {
        continue;
      }
      String m = normalized(s.name());
      if (m.equals(n) || sortedWords(m).equals(sortedWords(n))) {
        return Optional.of(s.name());
      }
      int d = distance(m, n);
      int allowed = Math.min(m.length(), n.length()) <= 4 ? 1 : 2;
      boolean better =
          d < bestDistance
              || (d == bestDistance && !takes(BY_NAME.get(best), value) && takes(s, value));
      if (d <= allowed && better) {
        best = s.name();
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Whether the setting's parser takes the value (false without one). */
  private static boolean takes(Setting<?> setting, String value) {
    if (value == null || value.isBlank()) {
      return false;
    }
    try {
      setting.parser().parse(setting.name(), value.trim());
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Lower case, with {@code _} and {@code -} read as the dot that separates words. */
  static String normalized(String name) {
    return name.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
  }

  private static String sortedWords(String normalized) {
    String[] words = normalized.split("[.]");
    Arrays.sort(words);
    return String.join(".", words);
  }

  /** Levenshtein's edit distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }

  /** {@code -Dhelp}: every setting with its default, accepted values and meaning, by group. */
  public static String help() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "gatling-llm-bench settings: mvn gatling:test -D<name>=<value> ...  (docs/settings.md has the details)\n");
    sb.append("The API key comes from the environment, OPENAI_API_KEY, never from a property.\n");
    String group = null;
    for (Setting<?> s : ALL) {
      if (!s.group().equals(group)) {
        group = s.group();
        sb.append('\n').append(group).append(":\n");
      }
      String name = s.family() ? s.name() + "<...>" : s.name();
      sb.append(String.format(Locale.ROOT, "  -D%-28s %s%n", name, s.meaning()));
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-30s default: %s; accepts: %s%n",
              "",
              s.defaultValue(),
              s.accepted()));
    }
    return sb.toString();
  }
}
