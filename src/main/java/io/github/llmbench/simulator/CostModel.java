package io.github.llmbench.simulator;

import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;

/**
 * Roofline duration of one engine step: {@code overhead + max(compute, memory)}.
 *
 * <ul>
 *   <li>compute = FLOPs / (peak x tp x {@link #COMPUTE_EFFICIENCY}), FLOPs = 2 x params x tokens
 *       + attention 4 x layers x heads x head_dim x (context length seen by each token, summed)
 *   <li>memory = (weight bytes + KV bytes read and written) / tp / (bandwidth x
 *       {@link #MEMORY_EFFICIENCY}): each GPU holds 1/tp of the weights and of the KV cache and
 *       reads them over its own memory bus.
 * </ul>
 *
 * Not modelled (yet): tensor-parallel all-reduce time, sampling cost, CUDA-graph padding.
 */
final class CostModel {

  /**
   * Fraction of peak DRAM bandwidth a decode step achieves. Calibrated on the seed measurement
   * (Qwen2.5-7B bf16, RTX 4080 32 GB, concurrency 1: TPOT 25 ms): 15.23 GB of weights at
   * 716.8 GB/s x 0.89 plus the 1 ms overhead gives 25.0 ms. 0.85-0.9 is also what GDDR6X/HBM
   * memory-copy benchmarks reach.
   */
  static final double MEMORY_EFFICIENCY = 0.89;

  /**
   * Fraction of dense tensor peak that prefill GEMMs achieve. An assumption (large bf16 GEMMs
   * typically reach 60-80% of peak; attention and small layers pull the average down); to be
   * calibrated against a measured TTFT.
   */
  static final double COMPUTE_EFFICIENCY = 0.70;

  /**
   * Fixed per-step cost: scheduler, input preparation, sampling, detokenisation and kernel
   * launches in vLLM V1 with CUDA graphs. An assumption of 1 ms (vLLM V1's CPU overhead per step
   * is of the order of a millisecond for small batches), part of the TPOT calibration above.
   */
  static final long STEP_OVERHEAD_NANOS = 1_000_000;

  private final double flopsPerTokenLinear; // 2 x params
  private final double attnFlopsPerContextToken; // 4 x layers x heads x head_dim
  private final double weightBytes;
  private final double kvBytesPerToken;
  private final double computeRate; // FLOP/s, all GPUs
  private final double bytesRatePerGpu;
  private final int tp;

  CostModel(ModelSpec m, GpuSpec g, int tp) {
    this.flopsPerTokenLinear = 2.0 * m.parameters();
    this.attnFlopsPerContextToken = 4.0 * m.numLayers() * m.numHeads() * m.headDim();
    this.weightBytes = m.weightBytes();
    this.kvBytesPerToken = m.kvBytesPerToken();
    this.computeRate = g.peakDenseBf16Flops() * tp * COMPUTE_EFFICIENCY;
    this.bytesRatePerGpu = g.memoryBandwidth() * MEMORY_EFFICIENCY;
    this.tp = tp;
  }

  /** Accumulates one step's work, then gives its duration. Reused by the step loop. */
  final class Step {
    private long tokens;
    private double sumContext; // sum over scheduled tokens of the context each attends to
    private double kvTokensTouched; // KV entries read or written

    void reset() {
      tokens = 0;
      sumContext = 0;
      kvTokensTouched = 0;
    }

    /** A request computes {@code n} new tokens on top of {@code contextBefore} cached ones. */
    void add(int contextBefore, int n) {
      tokens += n;
      // token i (1..n) attends to contextBefore + i positions
      sumContext += (double) n * contextBefore + (double) n * (n + 1) / 2.0;
      kvTokensTouched += contextBefore + n;
    }

    long tokens() {
      return tokens;
    }

    long durationNanos() {
      double flops = flopsPerTokenLinear * tokens + attnFlopsPerContextToken * sumContext;
      double compute = flops / computeRate;
      double memory = (weightBytes + kvBytesPerToken * kvTokensTouched) / tp / bytesRatePerGpu;
      return STEP_OVERHEAD_NANOS + (long) (Math.max(compute, memory) * 1e9);
    }
  }
}
