package io.github.llmbench.catalog;

/**
 * The efficiencies and fixed costs of the simulator's step-time model ({@code step = overhead +
 * max(compute, memory) + all-reduce}) and KV-cache sizing. Plain data, like the rest of the
 * catalog; each default names where its value comes from.
 *
 * @param memoryEfficiency       fraction of peak DRAM bandwidth a step reaches
 * @param computeEfficiency      fraction of dense bf16 tensor peak a step reaches
 * @param stepOverheadSeconds    fixed cost of every engine step (scheduler, input preparation,
 *                               sampling, detokenisation, launches)
 * @param activationReserveBytes GPU memory per GPU that vLLM's memory profiling keeps out of the KV
 *                               cache besides the weights: peak activations of a
 *                               max_num_batched_tokens forward pass, the sampler's logits, CUDA
 *                               graphs, the CUDA context and other non-torch memory
 * @param blockSize              tokens per KV-cache block (vLLM's default block size on CUDA)
 * @param stepOverheadPerSeqSeconds CPU cost per scheduled sequence added to every step (the
 *                               scheduler's, sampler's and detokeniser's work grows with the batch)
 * @param requestPathSeconds     from a request's arrival at the server to its place in the
 *                               engine's waiting queue (HTTP, the API server's parsing and
 *                               tokenization, the hand-off to the engine process), plus the
 *                               client's turnaround when it sends its next request
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
   * The defaults, fitted to the seed study's TP=1 ladder (Qwen2.5-7B-Instruct bf16, one RTX 4080
   * 32 GB, vLLM V1, input 1,024, output 128, C = 1 .. 200: mean TPOT 25, 26, 36, 52, 90, 163,
   * 263 ms, output throughput peaking at C=128) and to its TP=2 C=1 TPOT (12.07 ms), in virtual
   * time ({@code SimCalibration --virtual}, README "Calibration"):
   *
   * <ul>
   *   <li>memory 0.93: TPOT at C=1 is weights / (bandwidth x efficiency) + overhead; 15.2 GB at
   *       716.8 GB/s x 0.93 = 22.8 ms. The TP=2 TPOT (12.07 ms for 7.6 GB per card) leaves no
   *       room for a lower efficiency with a larger overhead; 0.9-0.95 is what GDDR6X
   *       memory-copy benchmarks reach.
   *   <li>compute 1.00 of the 97.5 TFLOP/s fp16 tensor peak: sets the prefill cost of the 1,024-token
   *       prompts that the decode steps of the other requests share under chunked prefill, hence
   *       the slope of TPOT with C; fitted on C=64 and C=128 (TPOT 90 and 163 ms, ~660 tok/s at
   *       C=128). An <em>effective</em> figure, not a physical one: real bf16 GEMMs reach 60-80% of
   *       peak. The seed's ladder needs ~90 TFLOP/s of prefill at C=128 (5.2 requests/s x 1,024
   *       tokens x 15.2 GFLOP), which suggests part of its prefill was served by vLLM's prefix
   *       cache (vllm bench's default seed repeats a level's prompts; see the README). Tested by
   *       replaying the seed's procedure ({@code EngineModel#replayLadder}, one server, the same
   *       prompt list at every level): 0% prefix hits at the fitted KV capacity (LRU evicts a
   *       300-prompt list, 21,600 blocks, before the next level returns to it), and ~98% hits,
   *       far too low a TPOT at C=16 and C=32, when the list fits; so it stays 1.00.
   *   <li>overhead 1.0 ms: vLLM V1's CPU-side cost per step for small batches is about a
   *       millisecond with CUDA graphs; with the memory term it gives C=1's TPOT.
   *   <li>activation reserve 3.4 GB: sets the KV capacity (12.3 GB, 13,400 blocks, ~214
   *       requests of 1,024 + 128 tokens) and so where preemption starts: none at C=128, a few at
   *       C=200 (the seed's over-saturated level). vLLM's profiling of a 7B model at 2,048 batched
   *       tokens reserves 1.5-3.5 GiB (activations ~1 GiB, sampler warm-up logits for 256 sequences
   *       x 152k vocab in fp32 0.15 GiB, CUDA graphs 0.3-0.6 GiB, non-torch memory and the CUDA
   *       context ~0.5-1 GiB).
   *   <li>per running sequence 0: a CPU cost per scheduled sequence ({@code SimCalibration
   *       --per-seq-us}) lowers the saturated throughput at every concurrency alike and does not
   *       make C=200's throughput fall below C=128's; 200 us matches C=200's TPOT (262 vs 263 ms)
   *       but puts C=64 and C=128 17-23% high, so it is not used (README "Calibration").
   * </ul>
   */
  public static final EngineCalibration DEFAULT = new EngineCalibration(0.93, 0.92, 1.0e-3, 3_400_000_000L, 16, 0, 0.030);

  public EngineCalibration withMemoryEfficiency(double v) {
    return new EngineCalibration(v, computeEfficiency, stepOverheadSeconds, activationReserveBytes, blockSize, stepOverheadPerSeqSeconds, requestPathSeconds);
  }

  public EngineCalibration withComputeEfficiency(double v) {
    return new EngineCalibration(memoryEfficiency, v, stepOverheadSeconds, activationReserveBytes, blockSize, stepOverheadPerSeqSeconds, requestPathSeconds);
  }

  public EngineCalibration withStepOverheadSeconds(double v) {
    return new EngineCalibration(memoryEfficiency, computeEfficiency, v, activationReserveBytes, blockSize, stepOverheadPerSeqSeconds, requestPathSeconds);
  }

  public EngineCalibration withActivationReserveBytes(long v) {
    return new EngineCalibration(memoryEfficiency, computeEfficiency, stepOverheadSeconds, v, blockSize, stepOverheadPerSeqSeconds, requestPathSeconds);
  }

  public EngineCalibration withStepOverheadPerSeqSeconds(double v) {
    return new EngineCalibration(memoryEfficiency, computeEfficiency, stepOverheadSeconds, activationReserveBytes, blockSize, v, requestPathSeconds);
  }

  public EngineCalibration withRequestPathSeconds(double v) {
    return new EngineCalibration(memoryEfficiency, computeEfficiency, stepOverheadSeconds, activationReserveBytes, blockSize, stepOverheadPerSeqSeconds, v);
  }
}
