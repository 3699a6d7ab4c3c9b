package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server's figures by key: the families' keys, and the values read by their names. */
class ServerFigureValuesTest {

  @Test
  void theFamiliesDeclareTheServersFiguresInTheReportsOrder() {
    assertEquals(
        List.of(
            "running_mean",
            "running_max",
            "waiting_mean",
            "waiting_max",
            "kv_cache_usage_mean",
            "kv_cache_usage_max",
            "preemptions",
            "prefix_cache_hit_rate",
            "prompt_tokens",
            "generation_tokens",
            "prompt_tokens_per_s",
            "generation_tokens_per_s",
            "ttft_mean_ms",
            "itl_mean_ms",
            "gpu_power_w_mean",
            "gpu_sm_clock_mhz_mean",
            "gpu_util_mean",
            "spec_acceptance_rate",
            "spec_mean_accepted_length",
            "spec_drafts",
            "spec_draft_tokens",
            "spec_accepted_tokens",
            "prefill_ms_mean",
            "decode_ms_mean",
            "kv_transfers",
            "kv_transfer_ms_mean",
            "kv_transfer_mb",
            "kv_transfer_gb_per_s",
            "kv_transfer_failures"),
        ServerFigures.KEYS.stream().map(ServerFigure::name).toList());
    assertSame(DisaggregatedFigures.TRANSFERS, ServerFigures.named("kv_transfers").orElseThrow());
    assertTrue(ServerFigures.named(ServerFigures.IDEAL_HIT_RATE.name()).isEmpty(), "not a figure");
    assertEquals("GB/s", DisaggregatedFigures.TRANSFER_GB_PER_S.unit());
    assertEquals("Acceptance rate (%)", SpeculativeFigures.ACCEPTANCE_RATE.label());
  }

  @Test
  void valuesReadByNameKeepTheirOrderTheirNullsAndANameNoFamilyDeclares() {
    Map<String, Double> byName = new LinkedHashMap<>();
    byName.put("spec_drafts", 270.0);
    byName.put("spec_acceptance_rate", 0.5);
    byName.put("itl_mean_ms", null);
    byName.put("a_later_figure", 1.5);
    byName.put("prefix_cache_hit_rate_ideal", 0.4875);
    ServerFigureValues v = ServerFigureValues.ofNames(byName);

    assertEquals(byName, v.byName(), "the same names, values and order back");
    assertEquals(byName.toString(), v.toString());
    assertEquals(270.0, v.get(SpeculativeFigures.DRAFTS));
    assertEquals(0.4875, v.get(ServerFigures.IDEAL_HIT_RATE));
    assertTrue(v.has(CommonServerFigures.ITL_MEAN_MS), "reported as none");
    assertNull(v.get(CommonServerFigures.ITL_MEAN_MS));
    assertTrue(Double.isNaN(v.orNaN(CommonServerFigures.ITL_MEAN_MS)));
    assertFalse(v.has(CommonServerFigures.TTFT_MEAN_MS), "never looked at");
    assertSame(
        SpeculativeFigures.DRAFTS, v.values().keySet().iterator().next(), "the family's own key");
    assertFalse(v.noneReported());
  }
}
