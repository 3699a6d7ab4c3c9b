package io.github.llmbench.simulator;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.simulator.Knob.Line;
import io.github.llmbench.simulator.Knob.Reader;
import io.github.llmbench.simulator.Knob.Refused;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.DoublePredicate;
import java.util.function.Supplier;

/**
 * The simulator's knobs, one entry each: its name under the kit's {@code -Dsim.*}, its flag on the
 * standalone simulator ({@link VllmSimulatorMain}), one reader of its text, its default and its
 * help, how it sets a {@link SimulatorConfig} and how a run's settings lines show it. Both front
 * ends read this table: {@code settings/SimulatorSettings} makes the {@code -Dsim.*} settings of it
 * (their {@code -Dhelp} lines, their reader, the run's settings lines and which of them key a
 * history) and {@link VllmSimulatorMain} its flags (parsing, usage, the unknown-flag line); {@link
 * SimulatorConfig} keeps each knob's value under its entry. A new knob is one entry here, in {@link
 * #ALL}; the simulator code that acts on it reads {@code config.get(SimKnobs.NEW_KNOB)}.
 */
public final class SimKnobs {
  private SimKnobs() {}

  /** The kit's namespace for the knobs: {@code -Dsim.tp}. */
  public static final String PREFIX = "sim.";

  /** The most tensor-parallel GPUs, simulated or of the roofline. */
  public static final int MAX_TP = 64;

  /** Each draft's chance to be kept when only {@code --num-speculative-tokens} is given. */
  static final double DEFAULT_ACCEPTANCE = 0.7;

  public static final Knob<Integer> PORT =
      Knob.flagOnly("port", wholeNumber(0, 65535), 8000)
          .flags("--port")
          .help("a whole number from 0 to 65535 (0: a free port)", "the TCP port on 127.0.0.1")
          .build();

  public static final Knob<String> MODEL =
      Knob.property("model", model(), "qwen2.5-7b-instruct")
          .flags("--model")
          .help("a catalog id, or the path of a Hugging Face config.json", "the simulated model")
          .usage(() -> String.join("|", Catalog.models().keySet()))
          .line(Line.always((v, seed) -> v))
          .build();

  /** vLLM's {@code --served-model-name}; the kit's runs serve the model's Hugging Face id. */
  public static final Knob<Optional<String>> SERVED_MODEL_NAME =
      Knob.flagOnly("served-model-name", text -> Optional.of(text), Optional.<String>empty())
          .flags("--served-model-name")
          .defaultWords("the model's Hugging Face id")
          .help("a name", "the name clients send as model")
          .usage(() -> "NAME")
          .build();

  public static final Knob<String> GPU =
      Knob.property("gpu", oneOf(() -> Catalog.gpus().keySet()), "rtx4080-32gb")
          .flags("--gpu")
          .help("a catalog GPU id", "the simulated GPU")
          .usage(() -> String.join("|", Catalog.gpus().keySet()))
          .line(Line.always((v, seed) -> v))
          .build();

  public static final Knob<Integer> TP =
      Knob.property("tp", wholeNumber(1, MAX_TP), 1)
          .flags("--tp", "--tensor-parallel-size", "-tp")
          .help("a whole number from 1 to " + MAX_TP, "the simulated tensor-parallel GPUs")
          .line(Line.engine("tp"))
          .build();

  public static final Knob<Integer> MAX_NUM_SEQS =
      Knob.property("max_num_seqs", wholeNumber(1, 1 << 20), 256)
          .flags("--max-num-seqs")
          .help("a whole number from 1", "vLLM's --max-num-seqs")
          .line(Line.engine("max_num_seqs"))
          .build();

  /** At least {@link #MAX_NUM_SEQS}: checked once both are read ({@link SimulatorConfig}). */
  public static final Knob<Integer> MAX_NUM_BATCHED_TOKENS =
      Knob.property("max_num_batched_tokens", wholeNumber(1, 1 << 24), 2048)
          .flags("--max-num-batched-tokens")
          .help("a whole number >= sim.max_num_seqs", "vLLM's --max-num-batched-tokens")
          .line(Line.engine("max_num_batched_tokens"))
          .build();

  public static final Knob<Double> GPU_MEMORY_UTILIZATION =
      Knob.property(
              "gpu_memory_utilization",
              number(v -> v > 0 && v <= 1, "a number above 0 and at most 1"),
              0.9)
          .flags("--gpu-memory-utilization")
          .help("a number above 0 and at most 1", "vLLM's --gpu-memory-utilization (KV-cache size)")
          .line(Line.engine("gpu_memory_utilization"))
          .build();

  /**
   * {@link SimFaults}' grammar, kept as typed: the settings lines and a history's key show it so.
   */
  public static final Knob<String> FAULTS =
      Knob.property("faults", faults(), "none")
          .flags("--faults")
          .help(
              "MODE:SHARE,... e.g. 429:0.05,500:0.05,error:0.05,cut:0.02,stall:0.01:30",
              "faults on demand")
          .usage(() -> "429:0.05,cut:0.02,...")
          .line(Line.change((v, seed) -> v))
          .build();

  /** The step-time noise's coefficient of variation ({@link SimNoise}). */
  public static final Knob<Double> NOISE =
      Knob.property("noise", number(v -> v >= 0 && v <= SimNoise.MAX_CV, SimNoise.CV_ACCEPTED), 0.0)
          .flags("--noise")
          .help(
              "a number from 0 to 1 (0.1: 10%)",
              "each engine step's time x a random factor of mean 1: step-to-step CV this, plus a"
                  + " drift of CV half this over ~5 s; drawn from the run's seed")
          .line(
              Line.stepTimes(
                  (v, seed) ->
                      plain(v)
                          + " (each step x a lognormal jitter of this CV x a drift of CV "
                          + plain(v / 2)
                          + " over ~5 s; from seed "
                          + seed
                          + ")"))
          .build();

  /** Every simulated step this many times as long: a known regression to detect. */
  public static final Knob<Double> SLOWDOWN =
      Knob.property(
              "slowdown",
              number(v -> v > 0 && v <= SimNoise.MAX_SLOWDOWN, SimNoise.SLOWDOWN_ACCEPTED),
              1.0)
          .flags("--slowdown")
          .help(
              "a number above 0, at most 100 (1.1: 10% slower)",
              "every engine step takes this many times as long")
          .line(
              Line.stepTimes(
                  (v, seed) -> plain(v) + " (every engine step this many times as long)"))
          .build();

  /**
   * A lasting per-process offset: each start draws one speed factor from the seed, every step times
   * it for the process's life (two processes of one build differ so: {@code docs/gates.md}).
   */
  public static final Knob<Double> PROCESS_SD =
      Knob.property(
              "process.sd",
              number(v -> v >= 0 && v < SimNoise.MAX_PROCESS_SD, SimNoise.PROCESS_SD_ACCEPTED),
              0.0)
          .flags("--process-sd")
          .help(
              SimNoise.PROCESS_SD_ACCEPTED,
              "one lasting speed factor exp(N(0, this)) drawn from the seed (the run's; a process"
                  + " run alone draws a fresh seed unless --seed is given, and two given one"
                  + " seed share their factor): every engine step x it for the simulator's life"
                  + " (two processes of one server differ so)")
          .line(Line.stepTimes(SimKnobs::processWords))
          .build();

  /** The noise's seed: the kit's runs give theirs ({@code -Dseed}). */
  public static final Knob<Long> SEED =
      Knob.flagOnly("seed", anyLong(), 0L)
          .flags("--seed")
          .defaultWords("fresh per start")
          .help("a whole number", "seeds the noise's draws and the process speed factor's")
          .usage(() -> "N")
          .build();

  /** Tokens per stream chunk: a server that batches its output or decodes speculatively. */
  public static final Knob<Integer> TOKENS_PER_CHUNK =
      Knob.property("tokens.per.chunk", wholeNumber(1, SimulatorConfig.MAX_TOKENS_PER_CHUNK), 1)
          .flags("--tokens-per-chunk")
          .help(
              "a whole number from 1 to " + SimulatorConfig.MAX_TOKENS_PER_CHUNK,
              "each stream chunk carries this many tokens (vLLM's dialect)")
          .line(Line.change((v, seed) -> v + " (tokens in each stream chunk)"))
          .build();

  /** A chat answer's first tokens that are thinking: a reasoning model. */
  public static final Knob<Integer> REASONING =
      Knob.property("reasoning", wholeNumber(0, 1 << 20), 0)
          .flags("--reasoning")
          .help(
              "a whole number from 0",
              "a chat answer's first N tokens are thinking, streamed as delta.reasoning (vLLM's)")
          .line(Line.answers((v, seed) -> v + " (thinking tokens before each chat answer)"))
          .build();

  /** As vLLM started with {@code VLLM_TORCH_PROFILER_DIR}: /start_profile and /stop_profile. */
  public static final Knob<Boolean> PROFILER =
      Knob.flagOnly("profiler", trueOrFalse(), false)
          .flags("--profiler")
          .help(
              "true or false",
              "vLLM's dialect serves POST /start_profile and /stop_profile (SGLang's always does)")
          .build();

  /** Speculative decoding: drafts per step and each one's chance to be kept. */
  public static final Knob<SimSpeculation> SPECULATIVE =
      Knob.property("speculative", speculative(), SimSpeculation.NONE)
          .defaultWords("none")
          .help(
              "none, or K:P with K drafts per step (1 to 16) and P each one's chance to be kept (0"
                  + " to 1), e.g. 3:0.7",
              "the simulator decodes speculatively: each step verifies K drafts, keeps them up to"
                  + " the first rejected one and streams what it kept in one chunk")
          .line(
              Line.change(
                  (v, seed) ->
                      v.tokens()
                          + ":"
                          + plain(v.acceptance())
                          + " (drafts per decode step : each one's chance to be kept)"))
          .build();

  /** vLLM's older flag for its speculative config's {@code num_speculative_tokens}. */
  public static final Knob<Integer> NUM_SPECULATIVE_TOKENS =
      Knob.flagOnly("num-speculative-tokens", wholeNumber(0, SimSpeculation.MAX_TOKENS), 0)
          .flags("--num-speculative-tokens")
          .help(
              "a whole number from 0 to " + SimSpeculation.MAX_TOKENS,
              "drafts per decode step (speculative decoding, the kit's -Dsim.speculative=K:P)")
          .sets(
              (c, k) ->
                  c.withSpeculation(
                      new SimSpeculation(
                          k,
                          c.speculation().on()
                              ? c.speculation().acceptance()
                              : DEFAULT_ACCEPTANCE)))
          .build();

  public static final Knob<Double> SPEC_ACCEPTANCE =
      Knob.flagOnly(
              "spec-acceptance",
              number(v -> v >= 0 && v <= 1, "a number from 0 to 1"),
              DEFAULT_ACCEPTANCE)
          .flags("--spec-acceptance")
          .help("a number from 0 to 1", "each draft's chance to be kept")
          .sets((c, p) -> c.withSpeculation(new SimSpeculation(c.speculation().tokens(), p)))
          .build();

  /** Disaggregated serving: the KV link between the prefill and the decode instance, GB/s. */
  public static final Knob<Double> KV_TRANSFER =
      Knob.property("kv.transfer", kvRate(), 0.0)
          .flags("--kv-transfer-gbps")
          .defaultWords("none")
          .help(
              "none, or the link's rate in GB/s (above 0, at most 10000), e.g. 25",
              "the simulator serves disaggregated: each prompt's KV goes from a prefill to a"
                  + " decode instance over a link of this rate before the first token")
          .usage(() -> "GBPS")
          .line(
              Line.change(
                  (v, seed) ->
                      plain(v) + " GB/s (disaggregated: the KV link between prefill and decode)"))
          .build();

  public static final Knob<Dialect> DIALECT =
      Knob.property("dialect", dialect(), Dialect.VLLM)
          .flags("--dialect")
          .help(
              "vllm, llamacpp, sglang, tgi or trtllm",
              "the simulated server's stream and endpoint shapes")
          .usage(() -> String.join("|", Dialect.ids().split(", ")))
          .line(Line.server((v, seed) -> v.id()))
          .build();

  /** vLLM's {@code --lora-modules}: the adapters' names, which requests may send as model. */
  public static final Knob<List<String>> LORA =
      Knob.property("lora", names(), List.<String>of())
          .defaultWords("none")
          .help(
              "adapter names separated by commas, e.g. sql,chat",
              "LoRA adapters the simulator serves besides its model (vLLM's --lora-modules), to"
                  + " mix with -Dmodel")
          .build();

  /**
   * Every knob, in the order {@code -Dhelp} lists the {@code -Dsim.*} ones and the standalone
   * simulator's usage its flags.
   */
  public static final List<Knob<?>> ALL =
      List.of(
          PORT,
          MODEL,
          SERVED_MODEL_NAME,
          GPU,
          TP,
          MAX_NUM_SEQS,
          MAX_NUM_BATCHED_TOKENS,
          GPU_MEMORY_UTILIZATION,
          FAULTS,
          NOISE,
          SLOWDOWN,
          PROCESS_SD,
          SEED,
          TOKENS_PER_CHUNK,
          REASONING,
          PROFILER,
          SPECULATIVE,
          NUM_SPECULATIVE_TOKENS,
          SPEC_ACCEPTANCE,
          KV_TRANSFER,
          DIALECT,
          LORA);

  /** The knob of a standalone simulator's flag ({@code --tp}, {@code -tp}, ...). */
  static Optional<Knob<?>> byFlag(String flag) {
    return ALL.stream().filter(k -> k.flags().contains(flag)).findFirst();
  }

  /**
   * The settings line of the process offset: the log sd, the factor a start draws at it from {@code
   * seed}, and where that comes from: {@code 0.04 (process speed factor 1.0321: every engine step x
   * this for the process's life, drawn as exp(N(0, 0.04)) from seed 7)}.
   */
  static String processWords(double sd, long seed) {
    return String.format(
        Locale.ROOT,
        "%s (process speed factor %.4f: every engine step x this for the process's life, drawn as"
            + " exp(N(0, %s)) from seed %d)",
        plain(sd),
        SimNoise.processFactor(sd, seed),
        plain(sd),
        seed);
  }

  /** A number as a person writes it: {@code 1}, not {@code 1.0}. */
  static String plain(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  // ---- the readers: text to value, or a refusal saying what is accepted

  /**
   * ASCII digits only: {@link Long#parseLong} takes any script's digits (settings' {@code
   * Parser.asciiLong} says why; the simulator shares nothing with settings but the catalog).
   */
  private static long asciiLong(String text) {
    if (!text.matches("[+-]?[0-9]+")) {
      throw new NumberFormatException(text);
    }
    return Long.parseLong(text);
  }

  private static Reader<Integer> wholeNumber(int min, int max) {
    return text -> {
      try {
        long v = asciiLong(text);
        if (v >= min && v <= max) {
          return (int) v;
        }
      } catch (NumberFormatException e) {
        // refused below
      }
      throw new Refused("a whole number from " + min + " to " + max);
    };
  }

  private static Reader<Long> anyLong() {
    return text -> {
      try {
        return asciiLong(text);
      } catch (NumberFormatException e) {
        throw new Refused("a whole number");
      }
    };
  }

  /** A finite number the test accepts. */
  private static Reader<Double> number(DoublePredicate accepts, String accepted) {
    return text -> {
      try {
        double v = Double.parseDouble(text);
        if (Double.isFinite(v) && accepts.test(v)) {
          return v;
        }
      } catch (NumberFormatException e) {
        // refused below
      }
      throw new Refused(accepted);
    };
  }

  /** One of the values (read when parsing: the catalog's ids), named in order in the refusal. */
  private static Reader<String> oneOf(Supplier<Collection<String>> values) {
    return text -> {
      if (!values.get().contains(text)) {
        throw new Refused("one of " + String.join(", ", new TreeSet<>(values.get())));
      }
      return text;
    };
  }

  private static Reader<Boolean> trueOrFalse() {
    return text ->
        switch (text.toLowerCase(Locale.ROOT)) {
          case "true" -> true;
          case "false" -> false;
          default -> throw new Refused("true or false");
        };
  }

  /** A catalog id, or a readable Hugging Face config.json. */
  private static Reader<String> model() {
    return text -> {
      if (Catalog.models().containsKey(text)) {
        return text;
      }
      if (!HfConfig.isConfigPath(text)) {
        throw new Refused(
            "one of "
                + String.join(", ", new TreeSet<>(Catalog.models().keySet()))
                + ", or the path of a Hugging Face config.json");
      }
      try {
        HfConfig.read(Path.of(text));
      } catch (RuntimeException e) {
        throw new Refused("a readable Hugging Face config.json (" + e.getMessage() + ")");
      }
      return text;
    };
  }

  private static Reader<Dialect> dialect() {
    return text -> {
      try {
        return Dialect.fromId(text);
      } catch (IllegalArgumentException e) {
        throw new Refused("one of " + Dialect.ids());
      }
    };
  }

  /** {@link SimFaults}' grammar; {@code none} in any case is {@code none}. */
  private static Reader<String> faults() {
    return text -> {
      try {
        return SimFaults.parse(text).any() ? text : "none";
      } catch (IllegalArgumentException e) {
        throw new Refused(SimFaults.ACCEPTED);
      }
    };
  }

  /** {@code none}, or {@code K:P}: K drafts per step from 1 to 16, P from 0 to 1. */
  private static Reader<SimSpeculation> speculative() {
    return text -> {
      if (text.equalsIgnoreCase("none")) {
        return SimSpeculation.NONE;
      }
      String[] parts = text.split(":", -1);
      try {
        if (parts.length == 2) {
          int k = Math.toIntExact(asciiLong(parts[0].trim()));
          double p = Double.parseDouble(parts[1].trim());
          if (k >= 1 && k <= SimSpeculation.MAX_TOKENS && p >= 0 && p <= 1) {
            return new SimSpeculation(k, p);
          }
        }
      } catch (NumberFormatException | ArithmeticException e) {
        // refused below
      }
      throw new Refused(
          "none, or K:P with K drafts per step from 1 to 16 and P from 0 to 1, e.g. 3:0.7");
    };
  }

  /** {@code none} (0: one instance prefills and decodes), or a rate in GB/s. */
  private static Reader<Double> kvRate() {
    return text -> {
      if (text.equalsIgnoreCase("none")) {
        return 0.0;
      }
      try {
        double gbPerS = Double.parseDouble(text.trim());
        if (gbPerS > 0 && gbPerS <= 10_000) {
          return gbPerS;
        }
      } catch (NumberFormatException e) {
        // refused below
      }
      throw new Refused("none, or a rate in GB/s above 0 and at most 10000, e.g. 25");
    };
  }

  /** Names separated by commas, each once and not empty; {@code none}: no names. */
  private static Reader<List<String>> names() {
    return text -> {
      if (text.equalsIgnoreCase("none")) {
        return List.of();
      }
      List<String> out = new ArrayList<>();
      for (String part : text.split(",", -1)) {
        String n = part.trim();
        if (n.isEmpty() || out.contains(n)) {
          throw new Refused("adapter names separated by commas, each once");
        }
        out.add(n);
      }
      return List.copyOf(out);
    };
  }
}
