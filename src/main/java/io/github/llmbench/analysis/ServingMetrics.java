package io.github.llmbench.analysis;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.endpoints.Figures;
import java.util.ArrayList;
import java.util.List;

/**
 * The serving figures of one load level (or of a whole run), the same ones {@code vllm bench serve}
 * prints and saves. Computed by {@link ServingMetricsCalculator}, whose class comment gives the
 * definitions.
 *
 * @param completed requests that completed (ok)
 * @param failed requests that failed (not those the client cancelled on purpose)
 * @param maxConcurrency the configured maximum request concurrency of the level; null when none
 * @param durationS (max end_ms - min start_ms) / 1000 over all records; 0 when there are none
 * @param totalInputTokens sum of input tokens over completed requests (null counts 0)
 * @param totalOutputTokens sum of output tokens over completed requests (null counts 0)
 * @param requestThroughput completed / duration (req/s); 0 when the duration is 0
 * @param outputThroughput total output tokens / duration (tok/s)
 * @param totalTokenThroughput (total input + total output tokens) / duration (tok/s)
 * @param maxOutputTokensPerS peak output tokens in one 1-second bucket (tok/s)
 * @param maxConcurrentRequests exact peak number of requests in flight (ok and failed)
 * @param ttft time to first token statistics (ms), over completed requests
 * @param tpot time per output token excluding the first (ms), completed requests with a tpot
 * @param itl inter-token latency (ms), all gaps of completed requests pooled
 * @param e2el end-to-end latency (ms), over completed requests
 * @param outputTokensEstimatedCount completed requests whose output tokens are a chunk count (the
 *     server sent no usage)
 * @param percentiles the percentiles to print, in order (vLLM {@code --metric-percentiles}); every
 *     {@link LatencyStats} also holds p90, p99 and any other computed for gates ({@link
 *     ReportedPercentiles})
 * @param cancelled requests the client cancelled on purpose ({@code -Dcancel.pct}): neither
 *     completed nor failed, in no other figure
 * @param endpointFigures the figures its requests have: {@link Figures#POOLED} when every request
 *     went to a pooling endpoint (embeddings): nothing was generated, so only E2EL, the input
 *     tokens and the request rate mean anything (vLLM's pooling block); its TTFT equals its E2EL
 *     and its TPOT and ITL are empty
 */
public record ServingMetrics(
    int completed,
    int failed,
    Integer maxConcurrency,
    double durationS,
    long totalInputTokens,
    long totalOutputTokens,
    double requestThroughput,
    double outputThroughput,
    double totalTokenThroughput,
    double maxOutputTokensPerS,
    int maxConcurrentRequests,
    LatencyStats ttft,
    LatencyStats tpot,
    LatencyStats itl,
    LatencyStats e2el,
    int outputTokensEstimatedCount,
    List<Double> percentiles,
    int cancelled,
    Figures endpointFigures) {

  public ServingMetrics {
    percentiles = List.copyOf(percentiles);
  }

  /** The figures of generating requests (not pooling ones). */
  public ServingMetrics(
      int completed,
      int failed,
      Integer maxConcurrency,
      double durationS,
      long totalInputTokens,
      long totalOutputTokens,
      double requestThroughput,
      double outputThroughput,
      double totalTokenThroughput,
      double maxOutputTokensPerS,
      int maxConcurrentRequests,
      LatencyStats ttft,
      LatencyStats tpot,
      LatencyStats itl,
      LatencyStats e2el,
      int outputTokensEstimatedCount,
      List<Double> percentiles,
      int cancelled) {
    this(
        completed,
        failed,
        maxConcurrency,
        durationS,
        totalInputTokens,
        totalOutputTokens,
        requestThroughput,
        outputThroughput,
        totalTokenThroughput,
        maxOutputTokensPerS,
        maxConcurrentRequests,
        ttft,
        tpot,
        itl,
        e2el,
        outputTokensEstimatedCount,
        percentiles,
        cancelled,
        Figures.GENERATED);
  }

  /** Input tokens of completed requests per second of the duration; 0 when it is 0. */
  public double inputThroughput() {
    return durationS > 0 ? totalInputTokens / durationS : 0.0;
  }

  /**
   * The latency metrics that mean something here: E2EL alone for pooling requests, all of them
   * otherwise.
   */
  public List<Metric> metrics() {
    return endpointFigures.latencies();
  }

  /** Every latency figure it holds: metric by metric, each statistic its stats hold. */
  public List<LatencyFigure> figures() {
    List<LatencyFigure> out = new ArrayList<>();
    for (Metric m : metrics()) {
      latency(m).statistics().forEach(s -> out.add(LatencyFigure.of(m, s)));
    }
    return List.copyOf(out);
  }

  /** The statistics of one latency metric. */
  public LatencyStats latency(Metric m) {
    return switch (m) {
      case TTFT -> ttft;
      case TPOT -> tpot;
      case ITL -> itl;
      case E2EL -> e2el;
    };
  }
}
