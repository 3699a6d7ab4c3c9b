package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ChunkTokens;
import io.github.llmbench.core.Statistic;

/**
 * Tokens per chunk over the level's completed requests, and the ITL per token; {@code
 * counted_per_chunk}: each chunk's tokens were counted with the local tokenizer (the median, P99
 * and max are then over chunks, else over the requests' means).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ChunkFigures(
    long chunks,
    long tokens,
    double tokensPerChunkMean,
    double tokensPerChunkMedian,
    double tokensPerChunkP99,
    double tokensPerChunkMax,
    double meanItlPerTokenMs,
    double medianItlPerTokenMs,
    double p99ItlPerTokenMs,
    boolean countedPerChunk) {

  static ChunkFigures of(ChunkTokens c) {
    return c.severalPerChunk()
        ? new ChunkFigures(
            c.chunks(),
            c.tokens(),
            c.perChunkMean(),
            c.perChunkMedian(),
            c.perChunkP99(),
            c.perChunkMax(),
            c.itlPerToken().mean(),
            c.itlPerToken().median(),
            c.itlPerToken().value(Statistic.P99),
            c.countedPerChunk())
        : null;
  }
}
