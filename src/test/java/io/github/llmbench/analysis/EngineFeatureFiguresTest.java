package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.llmbench.records.ServerSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Speculative decoding's and disaggregated serving's figures from vLLM's and SGLang's names, as
 * their server profiles map them, over a level from 0 to 10 s with scrapes at -1 s and 11 s.
 */
class EngineFeatureFiguresTest {
  private static final String URL = "http://127.0.0.1:8000/metrics";

  /** Each series's value before (at -1 s) and after (at 11 s) the level. */
  private static Map<ServerFigure, Double> level(Map<String, double[]> series) {
    List<ServerSample> s = new ArrayList<>();
    series.forEach(
        (name, v) -> {
          s.add(new ServerSample(-1000, URL, name, Map.of(), v[0]));
          s.add(new ServerSample(11_000, URL, name, Map.of(), v[v.length - 1]));
        });
    Map<ServerFigure, Double> f = new HashMap<>();
    ServerFigures.Series ss = ServerFigures.Series.of(s, null);
    SpeculativeFigures.put(f, ss, 0, 10_000);
    DisaggregatedFigures.put(f, ss, 0, 10_000);
    return f;
  }

  @Test
  void vllmsCountersGiveTheAcceptanceAndTheMeanAcceptedLength() {
    Map<ServerFigure, Double> f =
        level(
            Map.of(
                "vllm:spec_decode_num_drafts_total", new double[] {100, 300},
                "vllm:spec_decode_num_draft_tokens_total", new double[] {300, 900},
                "vllm:spec_decode_num_accepted_tokens_total", new double[] {150, 450}));
    assertEquals(200, f.get(SpeculativeFigures.DRAFTS));
    assertEquals(0.5, f.get(SpeculativeFigures.ACCEPTANCE_RATE), 1e-12);
    assertEquals(2.5, f.get(SpeculativeFigures.MEAN_ACCEPTED_LENGTH), 1e-12);
    assertNull(f.get(DisaggregatedFigures.TRANSFERS));
  }

  @Test
  void sglangsGaugesAreAveraged() {
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 10_000; t += 5000) {
      s.add(new ServerSample(t, URL, "sglang:spec_accept_length", Map.of(), 2 + t / 10_000.0));
      s.add(new ServerSample(t, URL, "sglang:spec_accept_rate", Map.of(), 0.6));
    }
    Map<ServerFigure, Double> f = new HashMap<>();
    SpeculativeFigures.put(f, ServerFigures.Series.of(s, null), 0, 10_000);
    assertEquals(2.5, f.get(SpeculativeFigures.MEAN_ACCEPTED_LENGTH), 1e-12);
    assertEquals(0.6, f.get(SpeculativeFigures.ACCEPTANCE_RATE), 1e-12);
    assertNull(f.get(SpeculativeFigures.DRAFTS));
  }

  @Test
  void vllmsNixlHistogramsGiveTheTransfersInSecondsAndBytes() {
    Map<ServerFigure, Double> f =
        level(
            Map.of(
                "vllm:nixl_xfer_time_seconds_sum", new double[] {1, 1.5},
                "vllm:nixl_xfer_time_seconds_count", new double[] {10, 60},
                "vllm:nixl_bytes_transferred_sum", new double[] {0, 5e9},
                "vllm:nixl_bytes_transferred_count", new double[] {10, 60},
                "vllm:nixl_num_failed_transfers_total", new double[] {0, 2},
                "vllm:request_prefill_time_seconds_sum", new double[] {0, 2},
                "vllm:request_prefill_time_seconds_count", new double[] {0, 50}));
    assertEquals(50, f.get(DisaggregatedFigures.TRANSFERS));
    assertEquals(10, f.get(DisaggregatedFigures.TRANSFER_MS_MEAN), 1e-9);
    assertEquals(5000, f.get(DisaggregatedFigures.TRANSFER_MB), 1e-9);
    assertEquals(10, f.get(DisaggregatedFigures.TRANSFER_GB_PER_S), 1e-9);
    assertEquals(2, f.get(DisaggregatedFigures.TRANSFER_FAILURES));
    assertEquals(40, f.get(DisaggregatedFigures.PREFILL_MS_MEAN), 1e-9);
    assertNull(f.get(DisaggregatedFigures.DECODE_MS_MEAN));
  }

  @Test
  void sglangsTransfersAreInMillisecondsAndMegabytes() {
    Map<ServerFigure, Double> f =
        level(
            Map.of(
                "sglang:kv_transfer_latency_ms_sum", new double[] {0, 400},
                "sglang:kv_transfer_latency_ms_count", new double[] {0, 20},
                "sglang:kv_transfer_total_mb_sum", new double[] {0, 800},
                "sglang:kv_transfer_total_mb_count", new double[] {0, 20}));
    assertEquals(20, f.get(DisaggregatedFigures.TRANSFERS));
    assertEquals(20, f.get(DisaggregatedFigures.TRANSFER_MS_MEAN), 1e-9);
    assertEquals(2, f.get(DisaggregatedFigures.TRANSFER_GB_PER_S), 1e-9);
  }

  @Test
  void sglangsOlderTransferGaugeIsAveraged() {
    List<ServerSample> s = new ArrayList<>();
    s.add(new ServerSample(1000, URL, "sglang:kv_transfer_latency_ms", Map.of(), 4));
    s.add(new ServerSample(2000, URL, "sglang:kv_transfer_latency_ms", Map.of(), 6));
    Map<ServerFigure, Double> f = new HashMap<>();
    DisaggregatedFigures.put(f, ServerFigures.Series.of(s, null), 0, 10_000);
    assertEquals(5, f.get(DisaggregatedFigures.TRANSFER_MS_MEAN), 1e-12);
    assertNull(f.get(DisaggregatedFigures.TRANSFERS));
  }
}
