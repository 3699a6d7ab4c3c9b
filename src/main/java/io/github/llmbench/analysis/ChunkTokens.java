package io.github.llmbench.analysis;

import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import java.util.Arrays;
import java.util.List;

/**
 * How many tokens each text chunk of a level carried, and the inter-token latency per token: a
 * server that batches its stream output, or decodes speculatively, sends several tokens in one
 * chunk, so vLLM's per-chunk ITL reads one long gap where several tokens arrived. Each request's
 * chunks weigh {@code output_tokens / chunks} ({@link TokenArrivals#chunkWeight}, the server's
 * usage against the chunks read), and a gap of {@code g} before a chunk of {@code w} tokens counts
 * as {@code round(w)} token gaps of {@code g / w}. Pure.
 *
 * @param requests completed requests with more than one chunk
 * @param chunks their text chunks
 * @param tokens their output tokens
 * @param perChunkMedian the median over requests of their tokens per chunk
 * @param perChunkP99 ... the 99th percentile
 * @param perChunkMax ... the most
 * @param itlPerToken the gaps per token, pooled over the level's requests; empty when every chunk
 *     carried one token (vLLM's per-chunk ITL is then the same)
 */
public record ChunkTokens(
    int requests,
    long chunks,
    long tokens,
    double perChunkMedian,
    double perChunkP99,
    double perChunkMax,
    LatencyStats itlPerToken) {

  public static final ChunkTokens NONE =
      new ChunkTokens(0, 0, 0, Double.NaN, Double.NaN, Double.NaN, LatencyStats.EMPTY);

  /** Tokens per chunk over the level: its tokens over its chunks. */
  public double perChunkMean() {
    return chunks > 0 ? tokens / (double) chunks : Double.NaN;
  }

  /** Whether its chunks carried more than one token each on average (the block is shown then). */
  public boolean severalPerChunk() {
    return chunks > 0 && tokens > chunks;
  }

  public static ChunkTokens of(List<RequestRecord> records) {
    double[] weights = new double[records.size()];
    RequestRecord[] counted = new RequestRecord[records.size()];
    int n = 0;
    long chunks = 0;
    long tokens = 0;
    boolean several = false;
    for (RequestRecord r : records) {
      ItlSeries itl = r.itlMs();
      Integer out = r.outputTokens();
      if (!r.ok() || itl.size() == 0 || out == null || out <= 0) {
        continue;
      }
      double w = TokenArrivals.chunkWeight(r);
      several |= w != 1.0;
      counted[n] = r;
      weights[n++] = w;
      chunks += itl.size() + 1;
      tokens += out;
    }
    if (n == 0) {
      return NONE;
    }
    LatencyStats perTokenStats = LatencyStats.EMPTY;
    if (several) {
      MicrosHistogram perToken = new MicrosHistogram();
      for (int i = 0; i < n; i++) {
        double w = weights[i];
        long copies = Math.max(1, Math.round(w));
        ItlSeries.Cursor c = counted[i].itlMs().cursor();
        while (c.hasNext()) {
          long each = Math.round(c.nextMicros() / w);
          for (long k = 0; k < copies; k++) {
            perToken.add(each);
          }
        }
      }
      perTokenStats = perToken.stats(LatencyStats.DEFAULT_PERCENTILES);
    }
    double[] sorted = Arrays.copyOf(weights, n);
    Arrays.sort(sorted);
    return new ChunkTokens(
        n,
        chunks,
        tokens,
        Percentiles.percentileOfSorted(sorted, 50),
        Percentiles.percentileOfSorted(sorted, 99),
        sorted[n - 1],
        perTokenStats);
  }
}
