package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.Trials;

/**
 * One trial of a level: vLLM's fields over its own requests, and its steady window's output
 * throughput (null when it had none).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TrialFigures(
    int trial, @JsonUnwrapped ServingFigures figures, Double steadyOutputThroughput) {

  static TrialFigures of(Trials.Trial t) {
    return new TrialFigures(
        t.number(),
        ServingFigures.of(t.serving()),
        t.steady().reached() ? t.steady().outputThroughput() : null);
  }
}
