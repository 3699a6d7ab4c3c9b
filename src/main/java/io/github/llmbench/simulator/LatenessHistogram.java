package io.github.llmbench.simulator;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** Lock-free histogram of send lateness: 0.1 ms buckets up to 50 ms, plus an exact maximum. */
final class LatenessHistogram {
  private static final long BUCKET_NANOS = 100_000;
  private static final int BUCKETS = 501; // last one: >= 50 ms

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final AtomicLong max = new AtomicLong();

  /** Over this, a token is kept in {@link #outliers} (its time and lateness), for diagnosis. */
  private static final long OUTLIER_NANOS = 2_000_000;

  private static final int OUTLIER_SLOTS = 4096;
  private final AtomicLongArray outliers = new AtomicLongArray(2 * OUTLIER_SLOTS);
  private final AtomicLong outlierCount = new AtomicLong();

  void record(long latenessNanos) {
    long l = Math.max(0, latenessNanos);
    counts.incrementAndGet((int) Math.min(BUCKETS - 1, l / BUCKET_NANOS));
    if (l > OUTLIER_NANOS) {
      long i = outlierCount.getAndIncrement();
      if (i < OUTLIER_SLOTS) {
        outliers.set((int) (2 * i), System.nanoTime());
        outliers.set((int) (2 * i + 1), l);
      }
    }
    long m = max.get();
    while (l > m && !max.compareAndSet(m, l)) {
      m = max.get();
    }
  }

  void reset() {
    for (int i = 0; i < BUCKETS; i++) {
      counts.set(i, 0);
    }
    max.set(0);
    outlierCount.set(0);
  }

  /**
   * Tokens over 2 ms late since the last reset (the first 4096): pairs of {@code System.nanoTime()}
   * when recorded and lateness in ns.
   */
  long[] outliers() {
    int n = (int) Math.min(OUTLIER_SLOTS, outlierCount.get());
    long[] o = new long[2 * n];
    for (int i = 0; i < 2 * n; i++) {
      o[i] = outliers.get(i);
    }
    return o;
  }

  Lateness snapshot() {
    long[] c = new long[BUCKETS];
    long n = 0;
    for (int i = 0; i < BUCKETS; i++) {
      c[i] = counts.get(i);
      n += c[i];
    }
    return new Lateness(n, percentile(c, n, 0.50), percentile(c, n, 0.99), max.get() / 1e6);
  }

  /** Upper edge of the bucket holding the q-quantile, in ms. */
  private static double percentile(long[] c, long n, double q) {
    if (n == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(q * n);
    long seen = 0;
    for (int i = 0; i < c.length; i++) {
      seen += c[i];
      if (seen >= rank) {
        return (i + 1) * BUCKET_NANOS / 1e6;
      }
    }
    return c.length * BUCKET_NANOS / 1e6;
  }
}
