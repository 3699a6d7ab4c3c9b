package io.github.llmbench.simulator;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Settings of one simulated vLLM server: each knob's value ({@link SimKnobs}: the kit's {@code
 * -Dsim.*} and the standalone simulator's flags, which follow vLLM's CLI), read by {@link
 * #get(Knob)}, and whether usages say their prompt's cached tokens. The accessors and {@code with}s
 * below name the knobs the simulator has long had; a knob of its own needs none ({@code
 * config.get(SimKnobs.X)}, {@code config.with(SimKnobs.X, value)}).
 *
 * <p>The port is 0 here (a free one), where the standalone simulator's default is 8000. The model
 * is a catalog id ({@link Catalog#model(String)}) or a Hugging Face config.json; the served model
 * name, when not given, is the model's Hugging Face id, as vLLM's. {@code promptTokensDetails}:
 * whether a usage says the prompt tokens the prefix cache served ({@code
 * --enable-prompt-tokens-details}); off by default, as vLLM's, and set by the kit for agent
 * sessions.
 */
public final class SimulatorConfig {

  /** The most tokens a chunk may carry. */
  public static final int MAX_TOKENS_PER_CHUNK = 64;

  /** Each knob with a value of its own, in the table's order. */
  private final Map<Knob<?>, Object> values;

  private final boolean promptTokensDetails;

  /** Parsed once: every request draws from them. */
  private final SimFaults faults;

  private final SimNoise noise;

  private SimulatorConfig(Map<Knob<?>, Object> values, boolean promptTokensDetails) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.promptTokensDetails = promptTokensDetails;
    int tokensPerChunk = get(SimKnobs.TOKENS_PER_CHUNK);
    if (tokensPerChunk < 1 || tokensPerChunk > MAX_TOKENS_PER_CHUNK) {
      throw new IllegalArgumentException(
          "tokens per chunk "
              + tokensPerChunk
              + " is invalid (accepted: a whole number from 1 to "
              + MAX_TOKENS_PER_CHUNK
              + ")");
    }
    int reasoningTokens = get(SimKnobs.REASONING);
    if (reasoningTokens < 0) {
      throw new IllegalArgumentException(
          "reasoning tokens " + reasoningTokens + " is invalid (accepted: a whole number from 0)");
    }
    this.faults = SimFaults.parse(get(SimKnobs.FAULTS));
    // the seed also seeds the scheduler's draws (speculation's), with the step times left as
    // they are
    SimNoise n =
        new SimNoise(
            get(SimKnobs.NOISE),
            get(SimKnobs.SLOWDOWN),
            get(SimKnobs.PROCESS_SD),
            get(SimKnobs.SEED));
    this.noise = n.equals(SimNoise.NONE) ? SimNoise.NONE : n;
  }

  /**
   * Every knob at its default, on a free port: Qwen2.5-7B-Instruct on one RTX 4080 32 GB with vLLM
   * V1's online-serving defaults for a GPU under 70 GiB: max_num_seqs 256 and
   * max_num_batched_tokens 2048 (vllm/engine/arg_utils.py, {@code get_batch_defaults}: 8192 applies
   * only to GPUs with >= 70 GiB that are not A100s, and to the offline LLM class),
   * gpu_memory_utilization 0.9.
   */
  public static SimulatorConfig defaults() {
    Map<Knob<?>, Object> values = new LinkedHashMap<>();
    for (Knob<?> k : SimKnobs.ALL) {
      if (k.own()) {
        values.put(k, k.defaultValue());
      }
    }
    values.put(SimKnobs.PORT, 0);
    return new SimulatorConfig(values, false);
  }

  /**
   * The knob's value.
   *
   * @throws IllegalArgumentException for a knob with no value of its own ({@code --spec-acceptance}
   *     sets part of the speculation's)
   */
  @SuppressWarnings("unchecked")
  public <T> T get(Knob<T> knob) {
    Object v = values.get(knob);
    if (v == null) {
      throw new IllegalArgumentException(knob + " has no value of its own");
    }
    return (T) v;
  }

  /** This config with the knob set to {@code value}, as its flag or {@code -Dsim.*} sets it. */
  public <T> SimulatorConfig with(Knob<T> knob, T value) {
    return knob.appliedTo(this, value);
  }

  /** This config with the knob's own value replaced. */
  SimulatorConfig withValue(Knob<?> knob, Object value) {
    Map<Knob<?>, Object> changed = new LinkedHashMap<>(values);
    changed.put(knob, Objects.requireNonNull(value, knob.toString()));
    return new SimulatorConfig(changed, promptTokensDetails);
  }

  /** TCP port on 127.0.0.1; 0 picks a free port. */
  public int port() {
    return get(SimKnobs.PORT);
  }

  public String model() {
    return get(SimKnobs.MODEL);
  }

  /** The name clients must send as {@code model}; null: the model's Hugging Face id. */
  public String servedModelName() {
    return get(SimKnobs.SERVED_MODEL_NAME).orElse(null);
  }

  public String gpu() {
    return get(SimKnobs.GPU);
  }

  public int tp() {
    return get(SimKnobs.TP);
  }

  public int maxNumSeqs() {
    return get(SimKnobs.MAX_NUM_SEQS);
  }

  public int maxNumBatchedTokens() {
    return get(SimKnobs.MAX_NUM_BATCHED_TOKENS);
  }

  public double gpuMemoryUtilization() {
    return get(SimKnobs.GPU_MEMORY_UTILIZATION);
  }

  public Dialect dialect() {
    return get(SimKnobs.DIALECT);
  }

  public SimFaults faults() {
    return faults;
  }

  /**
   * The step times' noise, process offset and slowdown with their seed; {@link SimNoise#NONE} when
   * all unset.
   */
  public SimNoise noise() {
    return noise;
  }

  public int tokensPerChunk() {
    return get(SimKnobs.TOKENS_PER_CHUNK);
  }

  public int reasoningTokens() {
    return get(SimKnobs.REASONING);
  }

  public boolean profiler() {
    return get(SimKnobs.PROFILER);
  }

  public List<String> loraModules() {
    return get(SimKnobs.LORA);
  }

  public boolean promptTokensDetails() {
    return promptTokensDetails;
  }

  public SimSpeculation speculation() {
    return get(SimKnobs.SPECULATIVE);
  }

  /** Disaggregated serving's KV link, GB/s; 0: one instance prefills and decodes. */
  public double kvTransferGbPerS() {
    return get(SimKnobs.KV_TRANSFER);
  }

  public SimulatorConfig withPort(int port) {
    return with(SimKnobs.PORT, port);
  }

  public SimulatorConfig withModel(String model) {
    return with(SimKnobs.MODEL, model);
  }

  /** Clients send this name as {@code model}; null: the model's Hugging Face id. */
  public SimulatorConfig withServedModelName(String servedModelName) {
    return with(SimKnobs.SERVED_MODEL_NAME, Optional.ofNullable(servedModelName));
  }

  /** Serves these LoRA adapters besides the model ({@code --lora-modules}). */
  public SimulatorConfig withLoraModules(List<String> names) {
    return with(SimKnobs.LORA, names == null ? List.of() : List.copyOf(names));
  }

  public SimulatorConfig withGpu(String gpu) {
    return with(SimKnobs.GPU, gpu);
  }

  public SimulatorConfig withTp(int tp) {
    return with(SimKnobs.TP, tp);
  }

  public SimulatorConfig withMaxNumSeqs(int maxNumSeqs) {
    return with(SimKnobs.MAX_NUM_SEQS, maxNumSeqs);
  }

  public SimulatorConfig withMaxNumBatchedTokens(int maxNumBatchedTokens) {
    return with(SimKnobs.MAX_NUM_BATCHED_TOKENS, maxNumBatchedTokens);
  }

  public SimulatorConfig withGpuMemoryUtilization(double gpuMemoryUtilization) {
    return with(SimKnobs.GPU_MEMORY_UTILIZATION, gpuMemoryUtilization);
  }

  /** Whose stream and endpoint shapes to speak; null: vLLM's. */
  public SimulatorConfig withDialect(Dialect dialect) {
    return with(SimKnobs.DIALECT, dialect == null ? Dialect.VLLM : dialect);
  }

  /** Faults to inject; null: none. */
  public SimulatorConfig withFaults(SimFaults faults) {
    return with(SimKnobs.FAULTS, faults == null ? "none" : faults.toString());
  }

  /** Noise, process offset and slowdown of the step times, with their seed; null: none. */
  public SimulatorConfig withNoise(SimNoise noise) {
    SimNoise n = noise == null ? SimNoise.NONE : noise;
    return with(SimKnobs.NOISE, n.cv())
        .with(SimKnobs.SLOWDOWN, n.slowdown())
        .with(SimKnobs.PROCESS_SD, n.processSd())
        .withSeed(n.seed());
  }

  /** The seed of the noise's draws and of the process speed factor's. */
  public SimulatorConfig withSeed(long seed) {
    return with(SimKnobs.SEED, seed);
  }

  public SimulatorConfig withTokensPerChunk(int tokensPerChunk) {
    return with(SimKnobs.TOKENS_PER_CHUNK, tokensPerChunk);
  }

  public SimulatorConfig withReasoningTokens(int reasoningTokens) {
    return with(SimKnobs.REASONING, reasoningTokens);
  }

  public SimulatorConfig withProfiler(boolean profiler) {
    return with(SimKnobs.PROFILER, profiler);
  }

  public SimulatorConfig withPromptTokensDetails(boolean details) {
    return new SimulatorConfig(values, details);
  }

  /**
   * Disaggregated serving: a prefill and a decode instance joined by a link of this many GB/s (0,
   * the default: one instance).
   */
  public SimulatorConfig withKvTransfer(double gbPerS) {
    return with(SimKnobs.KV_TRANSFER, gbPerS);
  }

  /** Speculative decoding ({@link SimSpeculation}; none by default, or null). */
  public SimulatorConfig withSpeculation(SimSpeculation speculation) {
    return with(SimKnobs.SPECULATIVE, speculation == null ? SimSpeculation.NONE : speculation);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SimulatorConfig c
        && values.equals(c.values)
        && promptTokensDetails == c.promptTokensDetails;
  }

  @Override
  public int hashCode() {
    return Objects.hash(values, promptTokensDetails);
  }

  @Override
  public String toString() {
    return values.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(
            Collectors.joining(
                ", ", "SimulatorConfig[", ", promptTokensDetails=" + promptTokensDetails + "]"));
  }

  /**
   * The model: the catalog entry for {@link #model()}, or, when it names a Hugging Face {@code
   * config.json} (or a folder holding one), the spec read from that file.
   */
  public ModelSpec modelSpec() {
    String model = model();
    return HfConfig.isConfigPath(model) ? HfConfig.read(Path.of(model)) : Catalog.model(model);
  }

  /** The catalog entry for {@link #gpu()}. */
  public GpuSpec gpuSpec() {
    return Catalog.gpu(gpu());
  }

  /** The name served on the API: {@link #servedModelName()} or else the model's HF id. */
  public String effectiveServedModelName() {
    return servedModelName() != null ? servedModelName() : modelSpec().hfId();
  }

  /**
   * Throws IllegalArgumentException (one line, naming the setting) when a value is out of range.
   */
  public void validate() {
    int port = port();
    int tp = tp();
    int maxNumSeqs = maxNumSeqs();
    int maxNumBatchedTokens = maxNumBatchedTokens();
    double gpuMemoryUtilization = gpuMemoryUtilization();
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range (accepted: 0-65535)");
    }
    ModelSpec m = modelSpec();
    GpuSpec g = gpuSpec();
    if (tp < 1) {
      throw new IllegalArgumentException("tp " + tp + " is invalid (accepted: an integer >= 1)");
    }
    if (m.numHeads() % tp != 0) {
      throw new IllegalArgumentException(
          "tp "
              + tp
              + " does not divide the "
              + m.numHeads()
              + " attention heads of "
              + m.id()
              + " (accepted: a divisor of "
              + m.numHeads()
              + ")");
    }
    if (maxNumSeqs < 1) {
      throw new IllegalArgumentException(
          "maxNumSeqs " + maxNumSeqs + " is invalid (accepted: an integer >= 1)");
    }
    if (maxNumBatchedTokens < maxNumSeqs) {
      // vLLM: "max_num_batched_tokens (...) must be greater than or equal to max_num_seqs (...)"
      throw new IllegalArgumentException(
          "maxNumBatchedTokens "
              + maxNumBatchedTokens
              + " is smaller than maxNumSeqs "
              + maxNumSeqs
              + " (accepted: >= maxNumSeqs)");
    }
    if (!(gpuMemoryUtilization > 0 && gpuMemoryUtilization <= 1)) {
      throw new IllegalArgumentException(
          "gpuMemoryUtilization "
              + gpuMemoryUtilization
              + " is invalid (accepted: 0 < value <= 1)");
    }
    double weightsPerGpu = (double) m.weightBytes() / tp;
    if (weightsPerGpu > g.memoryBytes() * gpuMemoryUtilization) {
      throw new IllegalArgumentException(
          String.format(
              "model %s needs %.1f GB of weights per GPU at tp %d, more than %.1f GB (%s x gpuMemoryUtilization %.2f)",
              m.id(),
              weightsPerGpu / 1e9,
              tp,
              g.memoryBytes() * gpuMemoryUtilization / 1e9,
              g.id(),
              gpuMemoryUtilization));
    }
    if (new CostModel(m, g, tp, gpuMemoryUtilization, EngineCalibration.DEFAULT).kvBlocks() < 1) {
      throw new IllegalArgumentException(
          String.format(
              "model %s leaves no room for the KV cache on %s at tp %d and gpuMemoryUtilization %.2f (accepted: a larger"
                  + " gpuMemoryUtilization or tp)",
              m.id(), g.id(), tp, gpuMemoryUtilization));
    }
  }
}
