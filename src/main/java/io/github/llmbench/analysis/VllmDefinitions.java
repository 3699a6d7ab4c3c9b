package io.github.llmbench.analysis;

import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code vllm bench serve}'s definitions (vllm/benchmarks/serve.py {@code calculate_metrics},
 * vllm/benchmarks/lib/endpoint_request_func.py), strictly, as far as the records allow. The kit's
 * own figures are vLLM's except where docs/metrics.md marks them (differs); here those two are
 * vLLM's again:
 *
 * <ul>
 *   <li><b>Peak output token throughput</b>: each chunk one token, as vLLM (the kit weighs a chunk
 *       by its request's tokens per chunk), in 1 s buckets from the first successful start.
 *   <li><b>Peak concurrent requests</b>: a sweep over the successful requests only, as current vLLM
 *       (the kit's counts the failed ones too).
 * </ul>
 *
 * <p>What the records cannot give back: vLLM stops TTFT at the first chunk with {@code choices}
 * (for chat, the role chunk with empty content), counts that chunk's gap to the first text and the
 * gap to the finish chunk among its ITLs, and ends E2EL at the finish chunk; the records keep only
 * the chunks carrying text, so TTFT, ITL, TPOT and E2EL are the kit's, and a note says so. Without
 * a usage chunk vLLM counts the text with its tokenizer (1 token without one), where the kit counts
 * the text chunks; a note says how many requests that concerns.
 */
public final class VllmDefinitions implements PeerTool {

  /** The title of the first table, as vLLM prints it. */
  public static final String TITLE = "Serving Benchmark Result";

  /** The one column of its tables. */
  static final String VALUE = "value";

  @Override
  public String name() {
    return "vllm";
  }

  @Override
  public PeerFigures figures(Level level) {
    ServingMetrics kit = level.kit(List.of());
    List<RequestRecord> completed = level.completed();
    List<PeerFigures.Table> tables = new ArrayList<>();
    tables.add(new PeerFigures.Table(TITLE, List.of(VALUE), resultRows(kit, completed)));
    for (Metric metric : Metric.values()) {
      tables.add(
          new PeerFigures.Table(metric.title(), List.of(VALUE), latencyRows(kit, metric, level)));
    }
    return new PeerFigures(name(), level.tag(), tables, notes(kit));
  }

  private static List<PeerFigures.Row> resultRows(
      ServingMetrics kit, List<RequestRecord> completed) {
    List<PeerFigures.Row> rows = new ArrayList<>();
    rows.add(same("Successful requests:", 0, kit.completed()));
    rows.add(same("Failed requests:", 0, kit.failed()));
    if (kit.maxConcurrency() != null) {
      rows.add(same("Maximum request concurrency:", 0, kit.maxConcurrency()));
    }
    rows.add(same("Benchmark duration (s):", 2, kit.durationS()));
    rows.add(same("Total input tokens:", 0, kit.totalInputTokens()));
    rows.add(same("Total generated tokens:", 0, kit.totalOutputTokens()));
    rows.add(same("Request throughput (req/s):", 2, kit.requestThroughput()));
    rows.add(same("Output token throughput (tok/s):", 2, kit.outputThroughput()));
    rows.add(
        PeerFigures.Row.single(
            "Peak output token throughput (tok/s):",
            2,
            peakChunksPerSecond(completed),
            kit.maxOutputTokensPerS()));
    rows.add(
        PeerFigures.Row.single(
            "Peak concurrent requests:",
            2,
            ServingMetricsCalculator.peakConcurrentRequests(completed),
            kit.maxConcurrentRequests()));
    rows.add(same("Total token throughput (tok/s):", 2, kit.totalTokenThroughput()));
    return rows;
  }

  /** Mean, median and each of the run's percentiles, as vLLM's section of that metric. */
  private static List<PeerFigures.Row> latencyRows(ServingMetrics kit, Metric metric, Level level) {
    LatencyStats s = kit.latency(metric);
    String name = metric.label();
    List<PeerFigures.Row> rows = new ArrayList<>();
    rows.add(same(Statistic.MEAN.label() + " " + name + " (ms):", 2, s.mean()));
    rows.add(same(Statistic.MEDIAN.label() + " " + name + " (ms):", 2, s.median()));
    for (double p : level.percentiles()) {
      rows.add(same("P" + Percentiles.label(p) + " " + name + " (ms):", 2, s.percentile(p)));
    }
    return rows;
  }

  /** A figure vLLM defines as the kit does. */
  private static PeerFigures.Row same(String label, int decimals, double value) {
    return PeerFigures.Row.single(label, decimals, value, value);
  }

  private static List<String> notes(ServingMetrics kit) {
    List<String> notes = new ArrayList<>();
    notes.add(
        "TTFT: vLLM stops it at the first chunk with choices (for chat, the role chunk with"
            + " empty content); the records keep only chunks with text, so TTFT, ITL, TPOT and"
            + " E2EL are the kit's (vLLM's TTFT is earlier by the role chunk's lead, its ITLs add"
            + " the gaps after the role chunk and before the finish chunk).");
    notes.add(
        "Peak output token throughput: each chunk counts one token, as vLLM; the kit weighs a"
            + " chunk by its request's tokens per chunk.");
    notes.add(
        "Peak concurrent requests: over the successful requests only, as current vLLM; the"
            + " kit's counts the failed ones too.");
    if (kit.outputTokensEstimatedCount() > 0) {
      notes.add(
          kit.outputTokensEstimatedCount()
              + " of "
              + kit.completed()
              + " successful requests had no usage: vLLM counts their text with its tokenizer"
              + " (1 token without one); shown are their text chunks.");
    }
    return notes;
  }

  /**
   * vLLM's peak output token throughput: the most text chunks of successful requests arriving in
   * one 1 s bucket, buckets from the earliest start among them, each chunk one token.
   */
  static double peakChunksPerSecond(List<RequestRecord> completed) {
    long origin = Long.MAX_VALUE;
    for (RequestRecord r : completed) {
      origin = Math.min(origin, r.startMs());
    }
    Map<Long, Long> chunksPerSecond = new HashMap<>();
    for (RequestRecord r : completed) {
      if (r.ttftMicros() == RequestRecord.ABSENT) {
        continue;
      }
      long t = (r.startMs() - origin) * 1000 + r.ttftMicros();
      chunksPerSecond.merge(Math.floorDiv(t, 1_000_000L), 1L, Long::sum);
      ItlSeries.Cursor gaps = r.itlMs().cursor();
      while (gaps.hasNext()) {
        t += gaps.nextMicros();
        chunksPerSecond.merge(Math.floorDiv(t, 1_000_000L), 1L, Long::sum);
      }
    }
    return chunksPerSecond.values().stream().mapToLong(Long::longValue).max().orElse(0L);
  }
}
