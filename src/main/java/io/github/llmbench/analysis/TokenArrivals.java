package io.github.llmbench.analysis;

import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import java.util.Arrays;
import java.util.Collection;
import java.util.TreeMap;

/**
 * When the output tokens arrived: each text chunk of a request arrives at {@code start_ms + ttft},
 * then one ITL later each, and weighs {@code output_tokens / chunks} tokens (1 when the count is
 * unknown or equal), so that the chunks of servers that send several tokens at once add up to the
 * real token count. Times are whole µs, so a chunk on a bucket or window boundary falls on the same
 * side whether the records were just measured or read back from the file.
 *
 * <p>Shared by the peak output throughput ({@link ServingMetricsCalculator}), the steady-state
 * throughput ({@link SteadyState}) and the page's chart; each visits every chunk once with
 * primitive access (a million records of 128 chunks is 128 million chunks).
 */
public final class TokenArrivals {

  private TokenArrivals() {}

  /** Output tokens per text chunk of a request: output_tokens / chunks, 1 when unknown. */
  public static double chunkWeight(RequestRecord r) {
    if (!r.figures().generates()) {
      return 0.0; // an embedding's one arrival is its answer's end, not a token
    }
    int chunks = 1 + r.itlMs().size();
    Integer tokens = r.outputTokens();
    return tokens != null && tokens > 0 && tokens != chunks ? tokens / (double) chunks : 1.0;
  }

  /**
   * Weighted output tokens per 1-second bucket, bucket 0 starting at {@code originMs}: a chunk
   * exactly 1000 ms after the origin falls in bucket 1.
   *
   * @param okOnly whether to leave out failed requests (requests without a TTFT always are)
   */
  public static SecondBuckets perSecond(
      Collection<RequestRecord> records, long originMs, boolean okOnly) {
    SecondBuckets buckets = new SecondBuckets();
    for (RequestRecord r : records) {
      if ((okOnly && !r.ok()) || r.ttftMicros() == RequestRecord.ABSENT) {
        continue;
      }
      double weight = chunkWeight(r);
      long t = (r.startMs() - originMs) * 1000 + r.ttftMicros();
      long bucket = Math.floorDiv(t, 1_000_000L);
      // the current bucket's µs range [low, high): a chunk inside it costs two comparisons, no
      // division (this loop runs for every chunk of the run, several times per report)
      long low = bucket * 1_000_000L;
      long high = low + 1_000_000L;
      int inBucket = 1;
      ItlSeries.Cursor gaps = r.itlMs().cursor();
      while (gaps.hasNext()) {
        t += gaps.nextMicros();
        if (t >= low && t < high) {
          inBucket++;
        } else {
          buckets.add(bucket, inBucket * weight);
          bucket = Math.floorDiv(t, 1_000_000L);
          low = bucket * 1_000_000L;
          high = low + 1_000_000L;
          inBucket = 1;
        }
      }
      buckets.add(bucket, inBucket * weight);
    }
    return buckets;
  }

  /**
   * Weighted output tokens of completed requests whose text chunks arrived in [fromMs, toMs] (epoch
   * ms, both ends included).
   */
  public static double between(Collection<RequestRecord> records, double fromMs, double toMs) {
    // the window in whole µs: [ceil(from), floor(to)] holds the same whole µs as [from, to]
    long from = (long) Math.ceil(fromMs * 1000.0);
    long to = (long) Math.floor(toMs * 1000.0);
    double sum = 0;
    for (RequestRecord r : records) {
      if (!r.ok() || r.ttftMicros() == RequestRecord.ABSENT) {
        continue;
      }
      long t = r.startMs() * 1000 + r.ttftMicros();
      int in = t >= from && t <= to ? 1 : 0;
      ItlSeries.Cursor gaps = r.itlMs().cursor();
      while (gaps.hasNext()) {
        t += gaps.nextMicros();
        if (t >= from && t <= to) {
          in++;
        }
      }
      if (in > 0) {
        sum += in * chunkWeight(r);
      }
    }
    return sum;
  }

  /**
   * Amounts per 1-second bucket: an array from bucket 0 for the usual case (a run of days is a few
   * hundred thousand buckets), a sorted map for buckets before 0 or beyond {@value #DENSE_MAX}
   * (clocks far apart), so that odd records cannot make a huge array.
   */
  public static final class SecondBuckets {
    static final int DENSE_MAX = 1 << 24;

    private double[] dense = new double[1024];
    private int denseEnd;
    private final TreeMap<Long, Double> sparse = new TreeMap<>();

    void add(long bucket, double amount) {
      if (bucket >= 0 && bucket < DENSE_MAX) {
        int b = (int) bucket;
        if (b >= dense.length) {
          dense = Arrays.copyOf(dense, Math.min(DENSE_MAX, Math.max(b + 1, dense.length * 2)));
        }
        dense[b] += amount;
        denseEnd = Math.max(denseEnd, b + 1);
      } else {
        sparse.merge(bucket, amount, Double::sum);
      }
    }

    public boolean isEmpty() {
      return denseEnd == 0 && sparse.isEmpty();
    }

    /** The largest amount of a bucket at or after 0; 0 when none. */
    public double maxFromZero() {
      double max = 0.0;
      for (int b = 0; b < denseEnd; b++) {
        max = Math.max(max, dense[b]);
      }
      for (double v : sparse.tailMap(0L).values()) {
        max = Math.max(max, v);
      }
      return max;
    }

    /** The first bucket holding something (isEmpty must be false). */
    public long first() {
      if (!sparse.isEmpty() && sparse.firstKey() < 0) {
        return sparse.firstKey();
      }
      for (int b = 0; b < denseEnd; b++) {
        if (dense[b] != 0.0) {
          return b;
        }
      }
      return denseEnd > 0 ? 0 : sparse.firstKey();
    }

    /** The last bucket holding something (isEmpty must be false). */
    public long last() {
      if (!sparse.isEmpty() && sparse.lastKey() >= 0) {
        return sparse.lastKey();
      }
      return denseEnd > 0 ? denseEnd - 1 : sparse.lastKey();
    }

    /** The amount of a bucket, 0 when none. */
    public double get(long bucket) {
      if (bucket >= 0 && bucket < denseEnd) {
        return dense[(int) bucket];
      }
      Double v = sparse.get(bucket);
      return v == null ? 0.0 : v;
    }
  }
}
