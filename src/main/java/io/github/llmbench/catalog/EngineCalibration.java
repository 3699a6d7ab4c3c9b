package io.github.llmbench.catalog;

/**
 * The efficiencies and fixed costs of the simulator's step-time model ({@code step = overhead +
 * max(GEMM compute, weight reads) + max(attention compute, KV reads) + all-reduce}), KV-cache
 * sizing and the request path before the engine. Plain data, like the rest of the catalog; each
 * default names where its value comes from.
 *
 * @param memoryEfficiency fraction of peak DRAM bandwidth a step reaches
 * @param computeEfficiency fraction of dense bf16 tensor peak a step reaches
 * @param stepOverheadSeconds fixed cost of every engine step (scheduler, input preparation,
 *     sampling, detokenisation, launches)
 * @param activationReserveBytes GPU memory per GPU that vLLM's memory profiling keeps out of the KV
 *     cache besides the weights: peak activations of a max_num_batched_tokens forward pass, the
 *     sampler's logits, CUDA graphs, the CUDA context and other non-torch memory
 * @param blockSize tokens per KV-cache block (vLLM's default block size on CUDA)
 * @param stepOverheadPerSeqSeconds CPU cost per scheduled sequence added to every step (the
 *     scheduler's, sampler's and detokeniser's work grows with the batch)
 * @param requestPathSeconds from a request's arrival at the server to its place in the engine's
 *     waiting queue (HTTP, the API server's parsing and tokenization, the hand-off to the engine
 *     process), plus the client's turnaround when it sends its next request
 */
public record EngineCalibration(
    double memoryEfficiency,
    double computeEfficiency,
    double stepOverheadSeconds,
    long activationReserveBytes,
    int blockSize,
    double stepOverheadPerSeqSeconds,
    double requestPathSeconds) {

  /**
   * The defaults, fitted to the seed study's TP=1 ladder (Qwen2.5-7B-Instruct bf16, one RTX 4080 32
   * GB, vLLM V1, input 1,024, output 128, C = 1 .. 200: mean TPOT 25, 26, 36, 52, 90, 163, 263 ms,
   * output throughput peaking at C=128) and to its TP=2 C=1 figures (TPOT 12.07 ms, TTFT median
   * 44.10 ms), in virtual time ({@code SimCalibration}, docs/simulator.md, "Calibration against the
   * seed's ladder"):
   *
   * <ul>
   *   <li>memory 0.93: TPOT at C=1 is weights / (bandwidth x efficiency) + overhead; 15.2 GB at
   *       716.8 GB/s x 0.93 = 22.8 ms. The TP=2 TPOT (12.07 ms for 7.6 GB per card) leaves no room
   *       for a lower efficiency with a larger overhead; 0.9-0.95 is what GDDR6X memory-copy
   *       benchmarks reach.
   *   <li>compute 0.92 of the 97.5 TFLOP/s bf16 tensor peak (fp32 accumulate): sets the prefill
   *       cost of the 1,024-token prompts that the other requests' decode steps share under chunked
   *       prefill, hence the slope of TPOT with C and the saturated throughput (~690 tok/s at
   *       C=128, seed ~660); fitted on C=16 .. C=128 together. High for a GeForce card (large bf16
   *       GEMMs reach 70-90% of peak), but not above it now that prefill tokens pay only for the
   *       layers (13.1 GFLOP each, the lm_head only where a token is sampled). Tested and rejected
   *       as a way to a lower, more usual efficiency: prefix-cache hits from the seed's repeated
   *       prompt list ({@code EngineModel#replayLadder}: the 300-prompt list, 21,600 blocks, does
   *       not fit the 13,400-block cache, and LRU leaves 0% hits).
   *   <li>overhead 1.0 ms: vLLM V1's CPU-side cost per step for small batches is about a
   *       millisecond with CUDA graphs; with the memory term it gives C=1's TPOT.
   *   <li>activation reserve 3.4 GB: sets the KV capacity (12.3 GB, 13,400 blocks, ~186 requests of
   *       1,024 + 128 tokens) and so where preemption starts: none at C=128, a few at C=200 (the
   *       seed's over-saturated level). vLLM's profiling of a 7B model at 2,048 batched tokens
   *       reserves 1.5-3.5 GiB (activations ~1 GiB, sampler warm-up logits for 256 sequences x 152k
   *       vocab in fp32 0.15 GiB, CUDA graphs 0.3-0.6 GiB, non-torch memory and the CUDA context
   *       ~0.5-1 GiB).
   *   <li>per running sequence 0: a CPU cost per scheduled sequence ({@code SimCalibration
   *       --per-seq-us}) scales every saturated level alike and does not make C=200's throughput
   *       fall below C=128's (docs/simulator.md, "Calibration against the seed's ladder"), so it is
   *       not used.
   *   <li>request path 30 ms: the seed's TP=2 C=1 TTFT has a median of 44.10 ms, below the ~100 ms
   *       an uncached 1,024-token prefill needs on 2 x 97.5 TFLOP/s with PCIe all-reduces, so those
   *       prompts came from the prefix cache (one ~13 ms step for the last block): ~30 ms of the
   *       first token's time was spent outside the engine's steps (the client, HTTP, the API
   *       server's tokenization, the hand-off to the engine process). It matters beyond TTFT: it is
   *       longer than a decode step (~25 ms), so a closed-loop client's next request misses the
   *       steps that follow the end of its previous one; the requests that end together then queue
   *       behind each other's prefills (in their TTFT) instead of stretching every running
   *       request's decode steps. That is what brings C=8's TPOT from +21% (31.5 ms: each request's
   *       decode steps shared with 7 prefills) to +9% (28.3 ms); below ~25 ms the effect fades (20
   *       ms: C=8 +18%).
   * </ul>
   */
  public static final EngineCalibration DEFAULT =
      new EngineCalibration(0.93, 0.92, 1.0e-3, 3_400_000_000L, 16, 0, 0.030);

  public EngineCalibration withMemoryEfficiency(double v) {
    return new EngineCalibration(
        v,
        computeEfficiency,
        stepOverheadSeconds,
        activationReserveBytes,
        blockSize,
        stepOverheadPerSeqSeconds,
        requestPathSeconds);
  }

  public EngineCalibration withComputeEfficiency(double v) {
    return new EngineCalibration(
        memoryEfficiency,
        v,
        stepOverheadSeconds,
        activationReserveBytes,
        blockSize,
        stepOverheadPerSeqSeconds,
        requestPathSeconds);
  }

  public EngineCalibration withStepOverheadSeconds(double v) {
    return new EngineCalibration(
        memoryEfficiency,
        computeEfficiency,
        v,
        activationReserveBytes,
        blockSize,
        stepOverheadPerSeqSeconds,
        requestPathSeconds);
  }

  public EngineCalibration withActivationReserveBytes(long v) {
    return new EngineCalibration(
        memoryEfficiency,
        computeEfficiency,
        stepOverheadSeconds,
        v,
        blockSize,
        stepOverheadPerSeqSeconds,
        requestPathSeconds);
  }

  public EngineCalibration withStepOverheadPerSeqSeconds(double v) {
    return new EngineCalibration(
        memoryEfficiency,
        computeEfficiency,
        stepOverheadSeconds,
        activationReserveBytes,
        blockSize,
        v,
        requestPathSeconds);
  }

  public EngineCalibration withRequestPathSeconds(double v) {
    return new EngineCalibration(
        memoryEfficiency,
        computeEfficiency,
        stepOverheadSeconds,
        activationReserveBytes,
        blockSize,
        stepOverheadPerSeqSeconds,
        v);
  }
}
