package io.github.llmbench.simulator;

import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;

/**
 * Duration of one engine step: {@code overhead + per-sequence overhead x sequences + max(GEMM
 * compute, weight reads) + max(attention compute, KV reads) + all-reduce}, the KV-cache capacity,
 * and the request path before the engine's queue, for a model on {@code tp} GPUs (tensor parallel).
 *
 * <ul>
 *   <li>GEMMs: 2 x the layers' parameters per computed token (the embedding is a lookup), plus 2 x
 *       vocab x hidden per sampled token (vLLM computes logits only where it samples: a prompt's
 *       last token, each decode), at peak x tp x compute efficiency; the weights are read once per
 *       step, 1/tp of them by each GPU, at bandwidth x memory efficiency
 *   <li>attention: 4 x layers x heads x head_dim per (token, context position) pair, and the KV
 *       entries each request reads and writes; it runs in kernels of its own (FlashAttention, paged
 *       decode attention), so it adds to the GEMMs rather than overlapping them
 *   <li>all-reduce (tp > 1): two per layer (after attention and after the MLP, Megatron-style),
 *       each {@code latency + 2 (tp-1)/tp x tokens x hidden x dtype / link bandwidth} over the
 *       cards' interconnect ({@link GpuSpec#linkBandwidth()}: PCIe for GeForce cards)
 * </ul>
 *
 * Efficiencies, overhead and the request path: {@link EngineCalibration}, with where their values
 * come from.
 */
final class CostModel {

  /**
   * A memory-bound kernel's share of the board's dynamic power: decode on an H100 draws 400-500 W
   * of its 700 W, a compute-bound prefill near the limit.
   */
  static final double MEMORY_INTENSITY = 0.6;

  private final double
      flopsPerTokenLinear; // 2 x the layers' parameters (embedding lookup: no FLOPs)
  private final double
      flopsPerSampledToken; // 2 x vocab x hidden: the lm_head, only where a token is sampled
  private final double attnFlopsPerContextToken; // 4 x layers x heads x head_dim
  private final double weightBytes;
  private final double kvBytesPerToken;
  private final double computeRate; // FLOP/s, all GPUs
  private final double bytesRatePerGpu;
  private final int tp;
  private final long overheadNanos;
  private final double overheadPerSeqSeconds;
  private final double allReducesPerStep;
  private final double allReduceLatency;
  private final double allReduceBytesPerToken; // bytes each GPU moves per token per all-reduce
  private final double linkBandwidth;
  private final int kvBlocks;
  private final int blockSize;
  private final long requestPathNanos;

  CostModel(ModelSpec m, GpuSpec g, int tp) {
    this(m, g, tp, 0.9, EngineCalibration.DEFAULT);
  }

  CostModel(ModelSpec m, GpuSpec g, int tp, double gpuMemoryUtilization, EngineCalibration c) {
    double vocabMatrix = (double) m.vocabSize() * m.hiddenSize();
    this.flopsPerTokenLinear =
        2.0 * (m.parameters() - vocabMatrix * (m.tieWordEmbeddings() ? 1 : 2));
    this.flopsPerSampledToken = 2.0 * vocabMatrix;
    this.attnFlopsPerContextToken = 4.0 * m.numLayers() * m.numHeads() * m.headDim();
    this.weightBytes = m.weightBytes();
    this.kvBytesPerToken = m.kvBytesPerToken();
    this.computeRate = g.peakDenseBf16Flops() * tp * c.computeEfficiency();
    this.bytesRatePerGpu = g.memoryBandwidth() * c.memoryEfficiency();
    this.tp = tp;
    this.overheadNanos = (long) (c.stepOverheadSeconds() * 1e9);
    this.overheadPerSeqSeconds = c.stepOverheadPerSeqSeconds();
    this.allReducesPerStep = tp > 1 ? 2.0 * m.numLayers() : 0;
    this.allReduceLatency = g.linkLatencySeconds();
    this.allReduceBytesPerToken = 2.0 * (tp - 1) / tp * m.hiddenSize() * m.dtypeBytes();
    this.linkBandwidth = g.linkBandwidth();
    this.blockSize = c.blockSize();
    this.requestPathNanos = (long) (c.requestPathSeconds() * 1e9);
    double kvBytesPerGpu =
        g.memoryBytes() * gpuMemoryUtilization - weightBytes / tp - c.activationReserveBytes();
    double blockBytesPerGpu = (double) blockSize * kvBytesPerToken / tp;
    this.kvBlocks =
        (int)
            Math.max(0, Math.min(Integer.MAX_VALUE, Math.floor(kvBytesPerGpu / blockBytesPerGpu)));
  }

  /**
   * KV-cache blocks (of {@link #blockSize()} tokens) that fit beside the weights and the reserve.
   */
  int kvBlocks() {
    return kvBlocks;
  }

  int blockSize() {
    return blockSize;
  }

  /**
   * From a request's arrival to its place in the engine's waiting queue ({@link
   * EngineCalibration#requestPathSeconds()}).
   */
  /** KV-cache bytes one token takes, all layers, all GPUs together. */
  double kvBytesPerToken() {
    return kvBytesPerToken;
  }

  long requestPathNanos() {
    return requestPathNanos;
  }

  /** Accumulates one step's work, then gives its duration. Reused by the step loop. */
  final class Step {
    private long tokens;
    private int seqs;
    private int sampled;
    private double sumContext; // sum over scheduled tokens of the context each attends to
    private double kvTokensTouched; // KV entries read or written
    private double busySeconds;
    private double intensity;

    void reset() {
      tokens = 0;
      seqs = 0;
      sampled = 0;
      sumContext = 0;
      kvTokensTouched = 0;
    }

    /**
     * A request computes {@code n} new tokens on top of {@code contextBefore} cached ones, and
     * samples a token at the end of the step if {@code samples} (its last prefill chunk or a
     * decode).
     */
    void add(int contextBefore, int n, boolean samples) {
      tokens += n;
      seqs++;
      if (samples) {
        sampled++;
      }
      // token i (1..n) attends to contextBefore + i positions
      sumContext += (double) n * contextBefore + (double) n * (n + 1) / 2.0;
      kvTokensTouched += contextBefore + n;
    }

    long tokens() {
      return tokens;
    }

    long durationNanos() {
      // GEMMs (projections, MLP, lm_head) stream the weights once per step
      double gemmCompute =
          (flopsPerTokenLinear * tokens + flopsPerSampledToken * sampled) / computeRate;
      double weightRead = weightBytes / tp / bytesRatePerGpu;
      // attention runs in kernels of its own (FlashAttention, paged decode attention) that read the
      // KV cache: it does not overlap with the GEMMs
      double attnCompute = attnFlopsPerContextToken * sumContext / computeRate;
      double kvRead = kvBytesPerToken * kvTokensTouched / tp / bytesRatePerGpu;
      double allReduce =
          allReducesPerStep == 0
              ? 0
              : allReducesPerStep
                  * (allReduceLatency + allReduceBytesPerToken * tokens / linkBandwidth);
      busySeconds = Math.max(gemmCompute, weightRead) + Math.max(attnCompute, kvRead) + allReduce;
      intensity =
          busySeconds <= 0
              ? 0
              : Math.min(
                  1,
                  (MEMORY_INTENSITY * (weightRead + kvRead) + gemmCompute + attnCompute)
                      / busySeconds);
      return overheadNanos + (long) ((overheadPerSeqSeconds * seqs + busySeconds) * 1e9);
    }

    /**
     * Of the last {@link #durationNanos()}, the seconds its kernels kept the GPUs' tensor cores or
     * memory busy (the overheads keep them idle).
     */
    double busySeconds() {
      return busySeconds;
    }

    /**
     * How hard those kernels drive the GPUs, 0..1: 1 where the tensor cores run at peak (a long
     * prefill), about {@value #MEMORY_INTENSITY} where streaming weights and KV from memory bounds
     * the step (a decode), for the simulator's power draw.
     */
    double intensity() {
      return intensity;
    }
  }
}
