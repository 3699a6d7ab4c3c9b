package io.github.llmbench.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The models and GPUs the kit knows about: a plain data catalog with lookups by id.
 *
 * <p>Shared by the vLLM simulator and the roofline analysis; keep it free of any timing or
 * simulation logic. Every figure names its source.
 */
public final class Catalog {

  private static final long GIB = 1L << 30;
  private static final long GB = 1_000_000_000L;

  /**
   * All-reduce bus bandwidth between two GeForce cards on PCIe 4.0 x16 without peer-to-peer (NVIDIA
   * disables P2P on GeForce, so NCCL stages through host memory): nccl-tests all_reduce_perf on 2 x
   * RTX 4090 reports about 10-13 GB/s bus bandwidth for large messages; 12 GB/s here.
   */
  public static final double PCIE4_ALLREDUCE_BANDWIDTH = 12e9;

  /**
   * Fixed cost of one small all-reduce between two GeForce cards on PCIe (decode: a few KB per
   * layer): NCCL's small-message latency over PCIe/host memory is of the order of 10-20 us, but
   * vLLM captures decode steps in CUDA graphs, which hides launch costs; 4 us, fitted (with {@link
   * EngineCalibration}) to the seed's TP=2 C=1 TPOT of 12.07 ms on 2 x RTX 4080.
   */
  public static final double PCIE4_ALLREDUCE_LATENCY = 4e-6;

  private static final Map<String, ModelSpec> MODELS = new LinkedHashMap<>();
  private static final Map<String, GpuSpec> GPUS = new LinkedHashMap<>();

  /**
   * Each GPU's draw at rest and at its limit: the limits are NVIDIA's (RTX 4080 320 W and RTX 4090
   * 450 W total graphics power, spec sheets; H100 SXM5 700 W TDP, datasheet); the idle draws are
   * typical readings of nvidia-smi with a model loaded and no work (about 20 W for the GeForce
   * cards, 70 W for an H100 SXM), for the simulator's stand-in only.
   */
  private static final Map<String, GpuPower> POWER =
      Map.of(
          "rtx4080-32gb", new GpuPower(18, 320),
          "rtx4090", new GpuPower(22, 450),
          "h100-sxm", new GpuPower(70, 700));

  static {
    // Qwen/Qwen2.5-7B-Instruct config.json: hidden_size 3584, num_hidden_layers 28,
    // num_attention_heads 28, num_key_value_heads 4, intermediate_size 18944, vocab_size 152064,
    // tie_word_embeddings false, torch_dtype bfloat16, max_position_embeddings 32768.
    // Qwen2 attention has bias on q/k/v (not on o). ~7.62 G parameters (model card: 7.61B).
    add(
        new ModelSpec(
            "qwen2.5-7b-instruct",
            "Qwen/Qwen2.5-7B-Instruct",
            3584,
            28,
            28,
            4,
            128,
            18944,
            152064,
            false,
            true,
            2,
            32768));
    // Qwen/Qwen2.5-VL-7B-Instruct config.json: the language model of Qwen2.5-7B (hidden 3584, 28
    // layers, 28 heads, 4 KV heads, intermediate 18944, vocab 152064, untied, bf16) with
    // max_position_embeddings 128000; vision_config patch_size 14, spatial_merge_size 2: one token
    // per 28 x 28 pixels. The vision encoder's own time is not modelled.
    add(
        new ModelSpec(
            "qwen2.5-vl-7b-instruct",
            "Qwen/Qwen2.5-VL-7B-Instruct",
            3584,
            28,
            28,
            4,
            128,
            18944,
            152064,
            false,
            true,
            2,
            128000,
            28));
    // Qwen/Qwen2.5-0.5B-Instruct config.json: hidden 896, 24 layers, 14 heads, 2 KV heads,
    // intermediate 4864, vocab 151936, tied embeddings, bf16, max_position_embeddings 32768.
    add(
        new ModelSpec(
            "qwen2.5-0.5b-instruct",
            "Qwen/Qwen2.5-0.5B-Instruct",
            896,
            24,
            14,
            2,
            64,
            4864,
            151936,
            true,
            true,
            2,
            32768));
    // meta-llama/Llama-3.1-8B-Instruct config.json: hidden 4096, 32 layers, 32 heads, 8 KV heads,
    // intermediate 14336, vocab 128256, untied, bf16; max_position_embeddings 131072.
    add(
        new ModelSpec(
            "llama-3.1-8b-instruct",
            "meta-llama/Llama-3.1-8B-Instruct",
            4096,
            32,
            32,
            8,
            128,
            14336,
            128256,
            false,
            false,
            2,
            131072));
    // Not a real checkpoint: a ~100M-parameter Llama-like model so that end-to-end tests and the
    // simulator benchmark run fast (TPOT of ~1-3 ms on an rtx4090 in the simulator).
    add(
        new ModelSpec(
            "sim-tiny",
            "llmbench/sim-tiny",
            768,
            12,
            12,
            4,
            64,
            2048,
            32000,
            true,
            false,
            2,
            4096));

    // RTX 4080 with 32 GB (modified card) as used by the seed study: 0.717 TB/s (RTX 4080:
    // 22.4 Gbps GDDR6X on a 256-bit bus = 716.8 GB/s, NVIDIA spec sheet), 97.5 TFLOP/s dense
    // fp16/bf16 tensor with fp32 accumulate, which is what bf16 GEMMs use (NVIDIA Ada Lovelace
    // architecture whitepaper, appendix table for the RTX 4080: GeForce cards run fp32 accumulate
    // at half the fp16-accumulate rate of 194.9; the seed study's figure); 32 GB as modified.
    add(
        new GpuSpec(
            "rtx4080-32gb",
            "NVIDIA GeForce RTX 4080 (32 GB)",
            97.5e12,
            716.8e9,
            32 * GIB,
            "PCIe 4.0 x16, no NVLink"));
    // RTX 4090: 1008 GB/s (21 Gbps GDDR6X, 384-bit; NVIDIA spec sheet), 165.2 TFLOP/s dense
    // fp16/bf16 tensor with fp32 accumulate (NVIDIA Ada Lovelace whitepaper, same basis as the
    // 4080's 97.5),
    // 24 GB.
    add(
        new GpuSpec(
            "rtx4090",
            "NVIDIA GeForce RTX 4090",
            165.2e12,
            1008e9,
            24 * GIB,
            "PCIe 4.0 x16, no NVLink"));
    // H100 SXM5 80 GB: 989 TFLOP/s dense bf16 tensor, 3.35 TB/s HBM3 (NVIDIA H100 datasheet).
    // NVLink all-reduce: nccl-tests report ~360-480 GB/s bus bandwidth on 8 x H100 SXM; 360 GB/s
    // and
    // 3 us small-message latency (vLLM's custom all-reduce over NVLink).
    add(
        new GpuSpec(
            "h100-sxm",
            "NVIDIA H100 SXM5 80GB",
            989e12,
            3.35e12,
            80 * GB,
            "NVLink 4, 900 GB/s bidirectional per GPU",
            360e9,
            3e-6));
  }

  private Catalog() {}

  private static void add(ModelSpec m) {
    MODELS.put(m.id(), m);
  }

  private static void add(GpuSpec g) {
    GPUS.put(g.id(), g);
  }

  /** The model with this catalog id; IllegalArgumentException listing the known ids otherwise. */
  public static ModelSpec model(String id) {
    ModelSpec m = MODELS.get(id);
    if (m == null) {
      throw new IllegalArgumentException(
          "unknown model '" + id + "'; known: " + String.join(", ", MODELS.keySet()));
    }
    return m;
  }

  /** The GPU with this catalog id; IllegalArgumentException listing the known ids otherwise. */
  public static GpuSpec gpu(String id) {
    GpuSpec g = GPUS.get(id);
    if (g == null) {
      throw new IllegalArgumentException(
          "unknown gpu '" + id + "'; known: " + String.join(", ", GPUS.keySet()));
    }
    return g;
  }

  /** All models, in catalog order. */
  public static Map<String, ModelSpec> models() {
    return Collections.unmodifiableMap(MODELS);
  }

  /** All GPUs, in catalog order. */
  /**
   * What the GPU with this catalog id draws at rest and at its limit; for a GPU without figures,
   * the H100's scaled to its bandwidth (a stand-in: the simulator marks its power as simulated).
   */
  public static GpuPower power(String id) {
    GpuPower p = POWER.get(id);
    if (p != null) {
      return p;
    }
    double scale = gpu(id).memoryBandwidth() / GPUS.get("h100-sxm").memoryBandwidth();
    return new GpuPower(70 * scale, 700 * scale);
  }

  public static Map<String, GpuSpec> gpus() {
    return Collections.unmodifiableMap(GPUS);
  }
}
