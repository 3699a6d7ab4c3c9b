package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ReasoningStats;
import io.github.llmbench.core.Statistic;

/**
 * A level's reasoning: TTFO statistics over the requests that answered after thinking, and the
 * reasoning tokens.
 *
 * @param reasoningTokensFrom {@code usage} when every count was the server's, else {@code chunks}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReasoningFigures(
    int requests,
    int answered,
    Double meanTtfoMs,
    Double medianTtfoMs,
    Double p90TtfoMs,
    Double p99TtfoMs,
    Double meanThinkingMs,
    Double meanReasoningTokens,
    String reasoningTokensFrom) {

  /** The figures of a level's reasoning, null when no request reasoned. */
  public static ReasoningFigures of(ReasoningStats r) {
    if (r.isEmpty()) {
      return null;
    }
    boolean any = r.answered() > 0;
    return new ReasoningFigures(
        r.requests(),
        r.answered(),
        any ? LevelSummary.finite(r.ttfo().mean()) : null,
        any ? LevelSummary.finite(r.ttfo().median()) : null,
        any ? LevelSummary.finite(r.ttfo().value(Statistic.P90)) : null,
        any ? LevelSummary.finite(r.ttfo().value(Statistic.P99)) : null,
        any ? LevelSummary.finite(r.thinkingMs().mean()) : null,
        LevelSummary.finite(r.reasoningTokens()),
        r.tokensFrom());
  }
}
