package io.github.llmbench.analysis;

import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import java.util.Arrays;
import java.util.List;

/**
 * How many tokens each text chunk of a level carried, and the inter-token latency per token: a
 * server that batches its stream output, or decodes speculatively, sends several tokens in one
 * chunk, so vLLM's per-chunk ITL reads one long gap where several tokens arrived. With a local
 * tokenizer each chunk weighs its own tokens; else each request's chunks weigh {@code output_tokens
 * / chunks} ({@link TokenArrivals#chunkWeight}, the server's usage against the chunks read). A gap
 * of {@code g} before a chunk of {@code w} tokens counts as {@code round(w)} token gaps of {@code g
 * / w}. Pure.
 *
 * @param requests completed requests with more than one chunk
 * @param chunks their text chunks
 * @param tokens their output tokens
 * @param perChunkMedian the median tokens per chunk: over the chunks where every request's chunks
 *     were counted with the local tokenizer ({@code countedPerChunk}), else over the requests of
 *     their mean
 * @param perChunkP99 ... the 99th percentile
 * @param perChunkMax ... the most
 * @param itlPerToken the gaps per token, pooled over the level's requests; empty when every chunk
 *     carried one token (vLLM's per-chunk ITL is then the same)
 * @param countedPerChunk whether each chunk's tokens were counted ({@link ChunkTokenCounts}): a gap
 *     then counts as the tokens of the chunk after it
 */
public record ChunkTokens(
    int requests,
    long chunks,
    long tokens,
    double perChunkMedian,
    double perChunkP99,
    double perChunkMax,
    LatencyStats itlPerToken,
    boolean countedPerChunk) {

  public static final ChunkTokens NONE =
      new ChunkTokens(0, 0, 0, Double.NaN, Double.NaN, Double.NaN, LatencyStats.EMPTY, false);

  /** Tokens per chunk over the level: its tokens over its chunks. */
  public double perChunkMean() {
    return chunks > 0 ? tokens / (double) chunks : Double.NaN;
  }

  /** Whether its chunks carried more than one token each on average (the block is shown then). */
  public boolean severalPerChunk() {
    return chunks > 0 && tokens > chunks;
  }

  /** A counted request's tokens per chunk: its own counts, else its mean for every chunk. */
  private record Counted(RequestRecord record, double[] weights) {}

  public static ChunkTokens of(List<RequestRecord> records) {
    List<Counted> counted = new java.util.ArrayList<>();
    long chunks = 0;
    long tokens = 0;
    boolean several = false;
    boolean perChunk = true;
    for (RequestRecord r : records) {
      ItlSeries itl = r.itlMs();
      Integer out = r.outputTokens();
      if (!r.ok() || itl.size() == 0 || out == null || out <= 0) {
        continue;
      }
      int[] own = ChunkTokenCounts.of(r);
      double[] w = new double[itl.size() + 1];
      if (own != null && own.length == w.length) {
        long sum = 0;
        for (int i = 0; i < w.length; i++) {
          w[i] = own[i];
          sum += own[i];
          several |= own[i] > 1;
        }
        tokens += sum;
      } else {
        perChunk = false;
        Arrays.fill(w, TokenArrivals.chunkWeight(r));
        several |= w[0] != 1.0;
        tokens += out;
      }
      counted.add(new Counted(r, w));
      chunks += w.length;
    }
    if (counted.isEmpty()) {
      return NONE;
    }
    double[] sorted = perChunk ? allWeights(counted, chunks) : means(counted);
    Arrays.sort(sorted);
    return new ChunkTokens(
        counted.size(),
        chunks,
        tokens,
        Percentiles.percentileOfSorted(sorted, 50),
        Percentiles.percentileOfSorted(sorted, 99),
        sorted[sorted.length - 1],
        several ? perToken(counted) : LatencyStats.EMPTY,
        perChunk);
  }

  /** Each gap as the tokens of the chunk after it, each {@code g / w} long. */
  private static LatencyStats perToken(List<Counted> counted) {
    MicrosHistogram perToken = new MicrosHistogram();
    for (Counted c : counted) {
      ItlSeries.Cursor gaps = c.record().itlMs().cursor();
      for (int i = 1; gaps.hasNext(); i++) {
        double w = c.weights()[i] > 0 ? c.weights()[i] : 1; // a chunk of no token: one gap
        long each = Math.round(gaps.nextMicros() / w);
        for (long k = Math.max(1, Math.round(w)); k > 0; k--) {
          perToken.add(each);
        }
      }
    }
    return perToken.stats(LatencyStats.DEFAULT_PERCENTILES);
  }

  private static double[] allWeights(List<Counted> counted, long chunks) {
    double[] all = new double[(int) chunks];
    int n = 0;
    for (Counted c : counted) {
      System.arraycopy(c.weights(), 0, all, n, c.weights().length);
      n += c.weights().length;
    }
    return all;
  }

  private static double[] means(List<Counted> counted) {
    double[] means = new double[counted.size()];
    for (int i = 0; i < means.length; i++) {
      means[i] = Arrays.stream(counted.get(i).weights()).average().orElse(Double.NaN);
    }
    return means;
  }
}
