package io.github.llmbench.settings;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The embedded simulator's group of settings ({@code -Dhelp}'s "Embedded simulator (no
 * -Dbase.url)"), used only without {@code -Dbase.url}.
 *
 * @param model the simulator's model: a catalog id, or the path of a Hugging Face config.json
 * @param gpu the simulator's GPU (catalog id)
 * @param dialect the simulator's stream and endpoint shapes: {@code vllm}, {@code llamacpp}
 *     (llama.cpp's llama-server), {@code sglang}, {@code tgi} or {@code trtllm}
 * @param engine its engine limits, tensor parallelism and faults
 */
public record SimulatorSettings(String model, String gpu, String dialect, SimEngine engine) {

  private static final String HEADING = SettingsTable.SIMULATOR;
  private static final Parser<String> TEXT = Parser.text();

  /** The seed study's server: Qwen2.5-7B-Instruct on one RTX 4080 32 GB. */
  public static final String DEFAULT_MODEL = "qwen2.5-7b-instruct";

  /** The embedded simulator's model for a run with images: the vision sibling of the default. */
  public static final String DEFAULT_VISION_MODEL = "qwen2.5-vl-7b-instruct";

  public static final String DEFAULT_GPU = "rtx4080-32gb";

  /** The embedded simulator's stream and endpoint shapes: vLLM's. */
  public static final String DEFAULT_DIALECT = "vllm";

  /** The most tensor-parallel GPUs, simulated or of the roofline. */
  static final int MAX_TP = 64;

  public static final Setting<String> SIM_MODEL =
      Setting.of(
          HEADING,
          "sim.model",
          DEFAULT_MODEL,
          "a catalog id, or the path of a Hugging Face config.json",
          "the simulated model",
          TEXT);
  public static final Setting<String> SIM_GPU =
      Setting.of(
          HEADING,
          "sim.gpu",
          DEFAULT_GPU,
          "a catalog GPU id",
          "the simulated GPU",
          Parser.oneOf(() -> Catalog.gpus().keySet()));
  public static final Setting<Integer> SIM_TP =
      Setting.of(
          HEADING,
          "sim.tp",
          1,
          "a whole number from 1 to 64",
          "the simulated tensor-parallel GPUs",
          Parser.positiveInt(MAX_TP));
  public static final Setting<Integer> SIM_MAX_NUM_SEQS =
      Setting.of(
          HEADING,
          "sim.max_num_seqs",
          256,
          "a whole number from 1",
          "vLLM's --max-num-seqs",
          Parser.positiveInt(1 << 20));
  public static final Setting<Integer> SIM_MAX_NUM_BATCHED_TOKENS =
      Setting.of(
          HEADING,
          "sim.max_num_batched_tokens",
          2048,
          "a whole number >= sim.max_num_seqs",
          "vLLM's --max-num-batched-tokens",
          Parser.positiveInt(1 << 24));
  public static final Setting<Double> SIM_GPU_MEMORY_UTILIZATION =
      Setting.of(
          HEADING,
          "sim.gpu_memory_utilization",
          0.9,
          "a number above 0 and at most 1",
          "vLLM's --gpu-memory-utilization (KV-cache size)",
          Parser.number(v -> v > 0 && v <= 1, "a number above 0 and at most 1"));

  /** The simulator parses the faults when it starts; the setting keeps them as typed. */
  public static final Setting<String> SIM_FAULTS =
      Setting.of(
          HEADING,
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
          HEADING,
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
          HEADING,
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
          HEADING,
          "sim.tokens.per.chunk",
          1,
          "a whole number from 1 to 64",
          "each stream chunk carries this many tokens (vLLM's dialect)",
          Parser.positiveInt(64));

  /** Speculative decoding: drafts per step and each one's chance to be kept. */
  public static final Setting<String> SIM_SPECULATIVE =
      Setting.of(
          HEADING,
          "sim.speculative",
          "none",
          "none, or K:P with K drafts per step (1 to 16) and P each one's chance to be kept (0 to"
              + " 1), e.g. 3:0.7",
          "the simulator decodes speculatively: each step verifies K drafts, keeps them up to the"
              + " first rejected one and streams what it kept in one chunk",
          TEXT);

  /** Disaggregated serving: the KV link between the prefill and the decode instance. */
  public static final Setting<String> SIM_KV_TRANSFER =
      Setting.of(
          HEADING,
          "sim.kv.transfer",
          "none",
          "none, or the link's rate in GB/s (above 0, at most 10000), e.g. 25",
          "the simulator serves disaggregated: each prompt's KV goes from a prefill to a decode"
              + " instance over a link of this rate before the first token",
          TEXT);

  /** A chat answer's first tokens that are thinking: a reasoning model. */
  public static final Setting<Integer> SIM_REASONING =
      Setting.of(
          HEADING,
          "sim.reasoning",
          0,
          "a whole number from 0",
          "a chat answer's first N tokens are thinking, streamed as delta.reasoning (vLLM's)",
          Parser.nonNegativeInt(1 << 20));

  public static final Setting<String> SIM_DIALECT =
      Setting.of(
          HEADING,
          "sim.dialect",
          DEFAULT_DIALECT,
          "vllm, llamacpp, sglang, tgi or trtllm",
          "the simulated server's stream and endpoint shapes",
          Parser.oneOf(() -> List.of("vllm", "llamacpp", "sglang", "tgi", "trtllm")));
  public static final Setting<String> SIM_LORA =
      Setting.without(
          HEADING,
          "sim.lora",
          "none",
          "adapter names separated by commas, e.g. sql,chat",
          "LoRA adapters the simulator serves besides its model (vLLM's --lora-modules), to mix"
              + " with -Dmodel",
          TEXT);

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(
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
          SIM_SPECULATIVE,
          SIM_KV_TRANSFER,
          SIM_DIALECT,
          SIM_LORA);

  /**
   * Reads the group's settings and refuses a bad value, or a bad pair within the group.
   *
   * @param images whether requests carry images: the default model is then one that sees them
   */
  static SimulatorSettings read(SettingReader r, boolean images) {
    String model = r.optional(SIM_MODEL).orElse(images ? DEFAULT_VISION_MODEL : DEFAULT_MODEL);
    checkModel(model);
    String gpu = r.get(SIM_GPU);
    String dialect = r.get(SIM_DIALECT);
    int maxNumSeqs = r.get(SIM_MAX_NUM_SEQS);
    int maxNumBatchedTokens = r.get(SIM_MAX_NUM_BATCHED_TOKENS);
    if (maxNumBatchedTokens < maxNumSeqs) {
      throw SettingsException.invalid(
          "sim.max_num_batched_tokens",
          Integer.toString(maxNumBatchedTokens),
          "a whole number >= sim.max_num_seqs (" + maxNumSeqs + ")");
    }
    SimEngine engine =
        new SimEngine(
            r.get(SIM_TP),
            maxNumSeqs,
            maxNumBatchedTokens,
            r.get(SIM_GPU_MEMORY_UTILIZATION),
            r.get(SIM_FAULTS),
            r.get(SIM_NOISE),
            r.get(SIM_SLOWDOWN),
            r.get(SIM_TOKENS_PER_CHUNK),
            r.get(SIM_REASONING),
            r.optional(SIM_LORA).map(SimulatorSettings::names).orElse(List.of()),
            speculative(r.get(SIM_SPECULATIVE)),
            kvTransfer(r.get(SIM_KV_TRANSFER)));
    return new SimulatorSettings(model, gpu, dialect, engine);
  }

  /** A catalog id, or a readable Hugging Face config.json. */
  private static void checkModel(String model) {
    if (Catalog.models().containsKey(model)) {
      return;
    }
    if (!HfConfig.isConfigPath(model)) {
      throw SettingsException.invalid(
          "sim.model",
          model,
          "one of "
              + String.join(", ", new TreeSet<>(Catalog.models().keySet()))
              + ", or the path of a Hugging Face config.json");
    }
    try {
      HfConfig.read(Path.of(model));
    } catch (RuntimeException e) {
      throw SettingsException.invalid(
          "sim.model", model, "a readable Hugging Face config.json (" + e.getMessage() + ")");
    }
  }

  /** The model's spec: from the catalog, or from its config.json. */
  ModelSpec modelSpec() {
    return Catalog.models().containsKey(model)
        ? Catalog.model(model)
        : HfConfig.read(Path.of(model));
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
      List<String> loraModules,
      Speculative speculative,
      double kvTransferGbPerS) {
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
   * Speculative decoding in the simulator ({@code -Dsim.speculative=K:P}).
   *
   * @param tokens drafts per decode step, 0 for none
   * @param acceptance each draft's chance to be kept
   */
  public record Speculative(int tokens, double acceptance) {
    public static final Speculative NONE = new Speculative(0, 0);
  }

  /** {@code -Dsim.kv.transfer}: GB/s, 0 for none. */
  private static double kvTransfer(String raw) {
    if (raw.equalsIgnoreCase("none")) {
      return 0;
    }
    try {
      double gbPerS = Double.parseDouble(raw.trim());
      if (gbPerS > 0 && gbPerS <= 10_000) {
        return gbPerS;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw SettingsException.invalid(
        SIM_KV_TRANSFER.name(), raw, "none, or a rate in GB/s above 0 and at most 10000, e.g. 25");
  }

  private static Speculative speculative(String raw) {
    if (raw.equalsIgnoreCase("none")) {
      return Speculative.NONE;
    }
    String[] parts = raw.split(":", -1);
    try {
      if (parts.length == 2) {
        int k = Integer.parseInt(parts[0].trim());
        double p = Double.parseDouble(parts[1].trim());
        if (k >= 1 && k <= 16 && p >= 0 && p <= 1) {
          return new Speculative(k, p);
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw SettingsException.invalid(
        SIM_SPECULATIVE.name(),
        raw,
        "none, or K:P with K drafts per step from 1 to 16 and P from 0 to 1, e.g. 3:0.7");
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
}
