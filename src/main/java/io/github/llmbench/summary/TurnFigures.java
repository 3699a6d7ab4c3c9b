package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** One turn of a conversation: its requests and their TTFT. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TurnFigures(
    int turn,
    int completed,
    int failed,
    Double meanInputTokens,
    Double meanTtftMs,
    Double medianTtftMs,
    Double p99TtftMs) {}
