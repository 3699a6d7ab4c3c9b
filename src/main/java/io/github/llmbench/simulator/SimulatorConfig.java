package io.github.llmbench.simulator;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Settings of one simulated vLLM server; names follow vLLM's CLI flags.
 *
 * @param port TCP port on 127.0.0.1; 0 picks a free port
 * @param model catalog model id ({@link Catalog#model(String)})
 * @param servedModelName name clients must send as {@code model} ({@code --served-model-name});
 *     null means the model's Hugging Face id, as vLLM does
 * @param gpu catalog GPU id ({@link Catalog#gpu(String)})
 * @param tp tensor-parallel size ({@code --tensor-parallel-size})
 * @param maxNumSeqs {@code --max-num-seqs}: most requests in the running batch
 * @param maxNumBatchedTokens {@code --max-num-batched-tokens}: token budget of one engine step
 * @param gpuMemoryUtilization {@code --gpu-memory-utilization}; checked now, used for KV-cache
 *     capacity in a later version
 * @param dialect whose stream and endpoint shapes to speak ({@link Dialect}; vLLM's by default)
 * @param faults faults to inject ({@link SimFaults}; none by default)
 * @param noise noise and slowdown of the step times, with their seed ({@link SimNoise}; none by
 *     default)
 * @param tokensPerChunk tokens each stream chunk carries (vLLM's dialect; 1 by default), as a
 *     server that batches its stream output or decodes speculatively sends them
 * @param reasoningTokens a chat answer's first tokens that are thinking, streamed as {@code
 *     delta.reasoning} (vLLM's) or {@code delta.reasoning_content} (llama.cpp's); 0 by default
 * @param profiler whether vLLM's dialect serves {@code POST /start_profile} and {@code
 *     /stop_profile}, as vLLM started with a profiler dir does; off by default (404, as vLLM
 *     without one). SGLang's always serves them
 * @param loraModules LoRA adapters served besides the model ({@code --lora-modules name=path}):
 *     listed by {@code /v1/models} with the model as parent, and accepted as a request's {@code
 *     model}; none by default
 * @param promptTokensDetails whether a usage says the prompt tokens the prefix cache served ({@code
 *     --enable-prompt-tokens-details}); off by default, as vLLM's
 * @param speculation speculative decoding ({@code --num-speculative-tokens}, {@code
 *     --spec-acceptance}); none by default
 * @param kvTransferGbPerS disaggregated serving's KV link, GB/s ({@code --kv-transfer-gbps}); 0,
 *     the default: one instance prefills and decodes
 */
public record SimulatorConfig(
    int port,
    String model,
    String servedModelName,
    String gpu,
    int tp,
    int maxNumSeqs,
    int maxNumBatchedTokens,
    double gpuMemoryUtilization,
    Dialect dialect,
    SimFaults faults,
    SimNoise noise,
    int tokensPerChunk,
    int reasoningTokens,
    boolean profiler,
    List<String> loraModules,
    boolean promptTokensDetails,
    SimSpeculation speculation,
    double kvTransferGbPerS) {

  /** The most tokens a chunk may carry. */
  public static final int MAX_TOKENS_PER_CHUNK = 64;

  public SimulatorConfig {
    dialect = dialect == null ? Dialect.VLLM : dialect;
    faults = faults == null ? SimFaults.NONE : faults;
    noise = noise == null ? SimNoise.NONE : noise;
    loraModules = loraModules == null ? List.of() : List.copyOf(loraModules);
    speculation = speculation == null ? SimSpeculation.NONE : speculation;
    if (tokensPerChunk < 1 || tokensPerChunk > MAX_TOKENS_PER_CHUNK) {
      throw new IllegalArgumentException(
          "tokens per chunk "
              + tokensPerChunk
              + " is invalid (accepted: a whole number from 1 to "
              + MAX_TOKENS_PER_CHUNK
              + ")");
    }
    if (reasoningTokens < 0) {
      throw new IllegalArgumentException(
          "reasoning tokens " + reasoningTokens + " is invalid (accepted: a whole number from 0)");
    }
  }

  /**
   * Qwen2.5-7B-Instruct on one RTX 4080 32 GB with vLLM V1's online-serving defaults for a GPU
   * under 70 GiB: max_num_seqs 256 and max_num_batched_tokens 2048 (vllm/engine/arg_utils.py,
   * {@code get_batch_defaults}: 8192 applies only to GPUs with >= 70 GiB that are not A100s, and to
   * the offline LLM class), gpu_memory_utilization 0.9, a free port.
   */
  public static SimulatorConfig defaults() {
    return new SimulatorConfig(
        0,
        "qwen2.5-7b-instruct",
        null,
        "rtx4080-32gb",
        1,
        256,
        2048,
        0.9,
        Dialect.VLLM,
        SimFaults.NONE,
        SimNoise.NONE,
        1,
        0,
        false,
        List.of(),
        false,
        SimSpeculation.NONE,
        0);
  }

  public SimulatorConfig withPort(int port) {
    return with(b -> b.port = port);
  }

  public SimulatorConfig withModel(String model) {
    return with(b -> b.model = model);
  }

  public SimulatorConfig withServedModelName(String servedModelName) {
    return with(b -> b.servedModelName = servedModelName);
  }

  /** Serves these LoRA adapters besides the model ({@code --lora-modules}). */
  public SimulatorConfig withLoraModules(List<String> names) {
    return with(b -> b.loraModules = names);
  }

  public SimulatorConfig withGpu(String gpu) {
    return with(b -> b.gpu = gpu);
  }

  public SimulatorConfig withTp(int tp) {
    return with(b -> b.tp = tp);
  }

  public SimulatorConfig withMaxNumSeqs(int maxNumSeqs) {
    return with(b -> b.maxNumSeqs = maxNumSeqs);
  }

  public SimulatorConfig withMaxNumBatchedTokens(int maxNumBatchedTokens) {
    return with(b -> b.maxNumBatchedTokens = maxNumBatchedTokens);
  }

  public SimulatorConfig withGpuMemoryUtilization(double gpuMemoryUtilization) {
    return with(b -> b.gpuMemoryUtilization = gpuMemoryUtilization);
  }

  public SimulatorConfig withDialect(Dialect dialect) {
    return with(b -> b.dialect = dialect);
  }

  public SimulatorConfig withFaults(SimFaults faults) {
    return with(b -> b.faults = faults);
  }

  public SimulatorConfig withNoise(SimNoise noise) {
    return with(b -> b.noise = noise);
  }

  public SimulatorConfig withTokensPerChunk(int tokensPerChunk) {
    return with(b -> b.tokensPerChunk = tokensPerChunk);
  }

  public SimulatorConfig withReasoningTokens(int reasoningTokens) {
    return with(b -> b.reasoningTokens = reasoningTokens);
  }

  public SimulatorConfig withProfiler(boolean profiler) {
    return with(b -> b.profiler = profiler);
  }

  public SimulatorConfig withPromptTokensDetails(boolean details) {
    return with(b -> b.promptTokensDetails = details);
  }

  /**
   * Disaggregated serving: a prefill and a decode instance joined by a link of this many GB/s (0,
   * the default: one instance).
   */
  public SimulatorConfig withKvTransfer(double gbPerS) {
    return with(b -> b.kvTransferGbPerS = gbPerS);
  }

  /** Speculative decoding ({@link SimSpeculation}; none by default). */
  public SimulatorConfig withSpeculation(SimSpeculation speculation) {
    return with(b -> b.speculation = speculation);
  }

  /** This config with the changes {@code change} makes to a copy of its values. */
  private SimulatorConfig with(Consumer<Values> change) {
    Values v = new Values(this);
    change.accept(v);
    return v.config();
  }

  /** A config's values, to change one before making the next config. */
  private static final class Values {
    int port;
    String model;
    String servedModelName;
    String gpu;
    int tp;
    int maxNumSeqs;
    int maxNumBatchedTokens;
    double gpuMemoryUtilization;
    Dialect dialect;
    SimFaults faults;
    SimNoise noise;
    int tokensPerChunk;
    int reasoningTokens;
    boolean profiler;
    List<String> loraModules;
    boolean promptTokensDetails;
    SimSpeculation speculation;
    double kvTransferGbPerS;

    Values(SimulatorConfig c) {
      port = c.port;
      model = c.model;
      servedModelName = c.servedModelName;
      gpu = c.gpu;
      tp = c.tp;
      maxNumSeqs = c.maxNumSeqs;
      maxNumBatchedTokens = c.maxNumBatchedTokens;
      gpuMemoryUtilization = c.gpuMemoryUtilization;
      dialect = c.dialect;
      faults = c.faults;
      noise = c.noise;
      tokensPerChunk = c.tokensPerChunk;
      reasoningTokens = c.reasoningTokens;
      profiler = c.profiler;
      loraModules = c.loraModules;
      promptTokensDetails = c.promptTokensDetails;
      speculation = c.speculation;
      kvTransferGbPerS = c.kvTransferGbPerS;
    }

    SimulatorConfig config() {
      return new SimulatorConfig(
          port,
          model,
          servedModelName,
          gpu,
          tp,
          maxNumSeqs,
          maxNumBatchedTokens,
          gpuMemoryUtilization,
          dialect,
          faults,
          noise,
          tokensPerChunk,
          reasoningTokens,
          profiler,
          loraModules,
          promptTokensDetails,
          speculation,
          kvTransferGbPerS);
    }
  }

  /**
   * The model: the catalog entry for {@link #model()}, or, when it names a Hugging Face {@code
   * config.json} (or a folder holding one), the spec read from that file.
   */
  public ModelSpec modelSpec() {
    return HfConfig.isConfigPath(model) ? HfConfig.read(Path.of(model)) : Catalog.model(model);
  }

  /** The catalog entry for {@link #gpu()}. */
  public GpuSpec gpuSpec() {
    return Catalog.gpu(gpu);
  }

  /** The name served on the API: {@link #servedModelName()} or else the model's HF id. */
  public String effectiveServedModelName() {
    return servedModelName != null ? servedModelName : modelSpec().hfId();
  }

  /**
   * Throws IllegalArgumentException (one line, naming the setting) when a value is out of range.
   */
  public void validate() {
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
