package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A level's (or the run's) serving figures under the field names and in the order of {@code vllm
 * bench serve --save-result}, so vLLM's tooling reads them: counts, throughputs, then for ttft,
 * tpot, itl and e2el the mean, median, std and each reported percentile ({@code p99_tpot_ms});
 * e2el's alone for a pooling level (embeddings), whose output figures are 0.
 *
 * @param maxConcurrency the configured concurrency, null when none (an open-model level)
 * @param latency the latency fields by name; read with {@link #latency(LatencyFigure)}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ServingFigures(
    double duration,
    int completed,
    int failed,
    long totalInputTokens,
    long totalOutputTokens,
    double requestThroughput,
    double outputThroughput,
    double totalTokenThroughput,
    double maxOutputTokensPerS,
    int maxConcurrentRequests,
    Integer maxConcurrency,
    int outputTokensEstimatedCount,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer cancelled,
    @JsonIgnore Map<String, Double> latency) {

  public ServingFigures {
    latency = LatencyFields.copy(latency);
  }

  /** The figures of computed serving metrics. */
  public static ServingFigures of(ServingMetrics m) {
    Map<String, Double> latency = new LinkedHashMap<>();
    // a pooling level (embeddings) has E2EL alone, as vLLM's pooling result
    for (Metric metric : m.metrics()) {
      LatencyFields.put(latency, metric, m.latency(metric));
    }
    return new ServingFigures(
        m.durationS(),
        m.completed(),
        m.failed(),
        m.totalInputTokens(),
        m.totalOutputTokens(),
        m.requestThroughput(),
        m.outputThroughput(),
        m.totalTokenThroughput(),
        m.maxOutputTokensPerS(),
        m.maxConcurrentRequests(),
        m.maxConcurrency(),
        m.outputTokensEstimatedCount(),
        m.cancelled() > 0 ? m.cancelled() : null,
        latency);
  }

  /** A latency figure; NaN when the summary does not have it. */
  public double latency(LatencyFigure figure) {
    return LatencyFields.get(latency, figure);
  }

  /** The latency figures it has, in the order of their fields. */
  public List<LatencyFigure> latencyFigures() {
    return LatencyFields.figures(latency);
  }

  /** The share of requests that failed, in percent; NaN when none were sent. */
  public double failedPct() {
    int total = completed + failed;
    return total == 0 ? Double.NaN : 100.0 * failed / total;
  }

  @JsonAnyGetter
  Map<String, Double> latencyFields() {
    return LatencyFields.view(latency);
  }

  @JsonAnySetter
  void latencyField(String field, Object value) {
    LatencyFields.accept(latency, field, value);
  }
}
