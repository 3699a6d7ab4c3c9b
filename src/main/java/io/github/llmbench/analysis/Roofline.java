package io.github.llmbench.analysis;

import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import java.util.Locale;

/**
 * Where one level sits on the GPU's roofline. Pure arithmetic on a model spec, a GPU spec and
 * measured steady-state figures.
 *
 * <p>Definitions (B = mean batch, the steady window's mean in flight; L = mean context tokens; P =
 * parameters):
 *
 * <ul>
 *   <li>peak = GPU dense bf16 FLOP/s x tp; bandwidth = GPU bytes/s x tp; <b>ridge</b> = peak /
 *       bandwidth (FLOP/byte).
 *   <li>FLOPs per decoded token <b>F(L)</b> = 2 x P + 4 x layers x L x heads x head_dim (the matrix
 *       products, plus QK^T and AV over L tokens of context).
 *   <li>FLOPs per prefilled token = F(prompt / 2): a causal prompt attends to half its length on
 *       average.
 *   <li>bytes of one decode step = weight bytes + B x L x KV bytes per token (weights read once and
 *       shared by the batch, each sequence's KV cache read once).
 *   <li>decode-only: <b>OI</b> = B x F(L) / step bytes; attained = output tok/s x F(L) (the seed's
 *       method).
 *   <li>whole workload: attained = prefill tok/s x F(prompt / 2) + output tok/s x F(L); the bytes
 *       moved per second are the same decode steps' (output tok/s / B steps per second, prefill
 *       being batched into them), so OI = attained x B / (output tok/s x step bytes).
 *   <li>roof(OI) = min(OI x bandwidth, peak); <b>attainment</b> = attained / roof(OI): against the
 *       bandwidth roof below the ridge, the compute roof above it.
 * </ul>
 *
 * <p>Whole-workload FLOPs count every prompt token as computed; a server whose prefix cache served
 * part of the prompts did less, which cannot be told apart without the server's cache metrics. When
 * the server tells its prefix-cache hit rate, only the prompt tokens it computed are counted.
 *
 * @param peakFlops peak FLOP/s, all tp GPUs
 * @param bandwidth bytes/s, all tp GPUs
 * @param ridge peak / bandwidth, FLOP/byte
 * @param meanBatch B
 * @param meanContext L
 * @param meanPrompt mean prompt tokens
 * @param flopsPerToken F(L)
 * @param prefillFlopsPerToken F(prompt / 2)
 * @param stepBytes weight bytes + B x L x KV bytes per token
 * @param stepReadS step bytes / bandwidth: the shortest a decode step can take
 * @param outputTps output tokens/s used
 * @param prefillTps prefill (input) tokens/s used
 * @param decode the decode-only point
 * @param whole the whole-workload point
 * @param cachedShare the share of prompt tokens the server's prefix cache served (left out of
 *     prefillTps), or null when the server does not tell
 */
public record Roofline(
    double peakFlops,
    double bandwidth,
    double ridge,
    double meanBatch,
    double meanContext,
    double meanPrompt,
    double flopsPerToken,
    double prefillFlopsPerToken,
    double stepBytes,
    double stepReadS,
    double outputTps,
    double prefillTps,
    Point decode,
    Point whole,
    Double cachedShare) {

  /** The sentence every roofline report carries about the prefix cache. */
  public static final String PREFIX_CACHE_NOTE =
      "Whole-workload FLOPs count every prompt token as computed: if the server's prefix cache"
          + " served part of the prompts, less was done, and that cannot be told apart without"
          + " the server's cache metrics.";

  /**
   * One point on the roofline.
   *
   * @param oi operational intensity, FLOP/byte
   * @param attainedFlops FLOP/s done
   * @param roofFlops the roof at this OI
   * @param attainment attained / roof
   * @param computeBound true when OI is at or above the ridge (the compute roof applies)
   */
  public record Point(
      double oi, double attainedFlops, double roofFlops, double attainment, boolean computeBound) {

    /** "compute roof" or "bandwidth roof". */
    public String roofName() {
      return computeBound ? "compute roof" : "bandwidth roof";
    }
  }

  /** F(L) = 2 x parameters + 4 x layers x L x heads x head_dim FLOPs per token. */
  public static double flopsPerToken(ModelSpec m, double context) {
    return 2.0 * m.parameters()
        + 4.0 * m.numLayers() * context * m.numHeads() * (double) m.headDim();
  }

  /** weight bytes + B x L x KV bytes per token. */
  public static double stepBytes(ModelSpec m, double batch, double context) {
    return m.weightBytes() + batch * context * m.kvBytesPerToken();
  }

  /** min(OI x bandwidth, peak). */
  public static double roof(double oi, double peakFlops, double bandwidth) {
    return Math.min(oi * bandwidth, peakFlops);
  }

  /**
   * The roofline of one level.
   *
   * @param tp tensor-parallel GPUs, at least 1
   * @param meanBatch B, &gt; 0
   * @param meanContext L (tokens)
   * @param meanPrompt mean prompt tokens
   * @param outputTps steady output tokens/s
   * @param allPrefillTps steady input tokens/s
   * @param cachedShare the share of prompt tokens the server's prefix cache served (0..1), left out
   *     of the prefill; null when unknown (then every prompt token counts as computed)
   */
  public static Roofline compute(
      ModelSpec m,
      GpuSpec g,
      int tp,
      double meanBatch,
      double meanContext,
      double meanPrompt,
      double outputTps,
      double allPrefillTps,
      Double cachedShare) {
    double prefillTps =
        cachedShare == null
            ? allPrefillTps
            : allPrefillTps * (1 - Math.max(0, Math.min(1, cachedShare)));
    if (tp < 1) {
      throw new IllegalArgumentException("tp must be at least 1: " + tp);
    }
    if (!(meanBatch > 0)) {
      throw new IllegalArgumentException("mean batch must be positive: " + meanBatch);
    }
    double peak = g.peakDenseBf16Flops() * tp;
    double bw = g.memoryBandwidth() * tp;
    double f = flopsPerToken(m, meanContext);
    double fp = flopsPerToken(m, meanPrompt / 2.0);
    double bytes = stepBytes(m, meanBatch, meanContext);

    double decodeOi = meanBatch * f / bytes;
    Point decode = point(decodeOi, outputTps * f, peak, bw);
    double wholeAttained = prefillTps * fp + outputTps * f;
    // same bytes per second as the decode steps; OI scales with the FLOPs done in them
    double wholeOi = outputTps > 0 ? wholeAttained * meanBatch / (outputTps * bytes) : decodeOi;
    Point whole = point(wholeOi, wholeAttained, peak, bw);
    return new Roofline(
        peak,
        bw,
        peak / bw,
        meanBatch,
        meanContext,
        meanPrompt,
        f,
        fp,
        bytes,
        bytes / bw,
        outputTps,
        prefillTps,
        decode,
        whole,
        cachedShare);
  }

  /** What the whole-workload point counts of the prompts, for every report of it. */
  public String prefixCacheNote() {
    return cachedShare == null
        ? PREFIX_CACHE_NOTE
        : String.format(
            Locale.ROOT,
            "Whole-workload FLOPs count only the prompt tokens the server computed:"
                + " its prefix cache served %.1f%% of them (from its metrics).",
            100 * cachedShare);
  }

  private static Point point(double oi, double attained, double peak, double bw) {
    double roof = roof(oi, peak, bw);
    return new Point(oi, attained, roof, roof > 0 ? attained / roof : 0.0, oi >= peak / bw);
  }
}
