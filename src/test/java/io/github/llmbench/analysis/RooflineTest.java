package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import org.junit.jupiter.api.Test;

/** The roofline formulas against the seed's figures (RTX 4080, Qwen2.5-7B-Instruct, TP = 1). */
class RooflineTest {

  private static final ModelSpec QWEN = Catalog.model("qwen2.5-7b-instruct");

  /** The seed's figures: 0.717 TB/s, ~97 TFLOP/s. */
  private static final GpuSpec SEED_4080 =
      new GpuSpec("seed-4080", "RTX 4080 (seed figures)", 97e12, 0.717e12, 32L << 30, "");

  private static final double L = 1024 + 64; // prompt 1024, half of 128 generated

  @Test
  void ridgePoint() {
    Roofline r = Roofline.compute(QWEN, SEED_4080, 1, 1, L, 1024, 40, 0, null);
    assertEquals(135.0, r.ridge(), 1.0); // the seed's 135 FLOP/byte
    assertEquals(
        97.5e12 / 716.8e9,
        Roofline.compute(QWEN, Catalog.gpu("rtx4080-32gb"), 1, 1, L, 1024, 40, 0, null).ridge(),
        1e-9);
    // tp multiplies peak and bandwidth alike: the ridge stays
    Roofline tp2 = Roofline.compute(QWEN, SEED_4080, 2, 1, L, 1024, 40, 0, null);
    assertEquals(2 * 97e12, tp2.peakFlops());
    assertEquals(r.ridge(), tp2.ridge(), 1e-9);
  }

  @Test
  void flopsAndBytesFormulas() {
    double p = QWEN.parameters();
    assertEquals(2 * p + 4.0 * 28 * L * 28 * 128, Roofline.flopsPerToken(QWEN, L), 1.0);
    assertEquals(QWEN.weightBytes() + 64 * L * 57_344, Roofline.stepBytes(QWEN, 64, L), 1.0);
    Roofline r = Roofline.compute(QWEN, SEED_4080, 1, 64, L, 1024, 500, 4000, null);
    assertEquals(64 * r.flopsPerToken() / r.stepBytes(), r.decode().oi(), 1e-9);
    assertEquals(500 * r.flopsPerToken(), r.decode().attainedFlops(), 1.0);
    assertEquals(Roofline.flopsPerToken(QWEN, 512), r.prefillFlopsPerToken(), 1.0);
    assertEquals(
        4000 * r.prefillFlopsPerToken() + 500 * r.flopsPerToken(), r.whole().attainedFlops(), 1.0);
    // OI a little below B, as the seed notes (15-19% lower at its batch sizes)
    assertTrue(r.decode().oi() < 64 && r.decode().oi() > 0.75 * 64, "OI " + r.decode().oi());
  }

  @Test
  void singleStreamDecodeRunsAtMostOfTheBandwidthRoof() {
    // weights ~15.2 GB read once per token: 21.2 ms at 0.717 TB/s
    assertEquals(15.2e9, QWEN.weightBytes(), 0.1e9);
    assertEquals(21.2e-3, QWEN.weightBytes() / 0.717e12, 0.1e-3);
    // C = 1, TPOT 25 ms: 40 tok/s
    Roofline r = Roofline.compute(QWEN, SEED_4080, 1, 1, L, 1024, 1000.0 / 25, 0, null);
    assertFalse(r.decode().computeBound());
    assertEquals(1.0, r.decode().oi(), 0.05);
    // at B = 1, attainment = the step's read time / TPOT
    assertEquals(r.stepReadS() / 0.025, r.decode().attainment(), 1e-9);
    double a = r.decode().attainment();
    assertTrue(a >= 0.78 && a <= 0.86, "attainment " + a);
  }

  @Test
  void seedC64DecodeOnlyIsAQuarterOfTheBandwidthRoof() {
    Roofline r0 = Roofline.compute(QWEN, SEED_4080, 1, 64, L, 1024, 1, 0, null);
    double tps = 9.93e12 / r0.flopsPerToken(); // the seed's measured 9.93 TFLOP/s
    Roofline r = Roofline.compute(QWEN, SEED_4080, 1, 64, L, 1024, tps, tps * 1024 / 128, null);
    assertEquals(9.93e12, r.decode().attainedFlops(), 1e6);
    assertFalse(r.decode().computeBound());
    assertEquals(0.25, r.decode().attainment(), 0.04);
    assertTrue(r.decode().oi() > 45 && r.decode().oi() < 60, "OI " + r.decode().oi());
  }

  @Test
  void withPrefillCountedTheSeedPeakIsComputeBound() {
    // TP = 1 peak: ~660 output tok/s at 1,024 in / 128 out -> 5,280 prompt tok/s
    Roofline r =
        Roofline.compute(
            QWEN, Catalog.gpu("rtx4080-32gb"), 1, 128, L, 1024, 660, 660.0 * 1024 / 128, null);
    assertEquals(90e12, r.whole().attainedFlops(), 5e12);
    assertTrue(r.whole().computeBound());
    assertEquals(0.93, r.whole().attainment(), 0.04);
    assertEquals(r.whole().attainedFlops() / 97.5e12, r.whole().attainment(), 1e-9);
    // the decode-only view of the same level is ~10 TFLOP/s, below the ridge
    assertEquals(10.3e12, r.decode().attainedFlops(), 0.3e12);
    assertFalse(r.decode().computeBound());
  }

  @Test
  void roofIsMinOfBandwidthAndPeak() {
    assertEquals(10 * 2.0, Roofline.roof(10, 100, 2), 1e-12);
    assertEquals(100, Roofline.roof(1000, 100, 2), 1e-12);
  }

  @Test
  void promptTokensTheCacheServedAreNotCountedAsComputed() {
    Roofline all = Roofline.compute(QWEN, SEED_4080, 1, 64, L, 1024, 500, 4000, null);
    Roofline cached = Roofline.compute(QWEN, SEED_4080, 1, 64, L, 1024, 500, 4000, 0.9);
    assertEquals(400.0, cached.prefillTps(), 1e-9);
    assertEquals(
        all.decode().attainedFlops(), cached.decode().attainedFlops(), 1e-9, "decode is the same");
    assertTrue(cached.whole().attainedFlops() < all.whole().attainedFlops());
    assertEquals(Roofline.PREFIX_CACHE_NOTE, all.prefixCacheNote());
    assertEquals(
        "Whole-workload FLOPs count only the prompt tokens the server computed: its prefix cache served 90.0% of them"
            + " (from its metrics).",
        cached.prefixCacheNote());
  }
}
