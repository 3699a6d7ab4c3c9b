package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** How late a trace's requests were sent against their times. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TraceLatenessFigures(int requests, Double medianMs, Double p99Ms, Double maxMs) {}
