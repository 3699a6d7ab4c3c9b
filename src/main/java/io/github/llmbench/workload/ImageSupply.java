package io.github.llmbench.workload;

import io.github.llmbench.settings.Images;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The synthetic images of one stretch of requests (a phase), made ahead of the requests that carry
 * them on threads of their own: encoding one takes milliseconds, which on Gatling's event loop
 * would delay the reads of every stream sharing it, and so the latencies measured. The first
 * requests' images are started when the supply is made, before the load; each request taken starts
 * those of the requests after it, so a request's are normally ready when it is fed.
 */
public final class ImageSupply {
  /** The most requests made ahead. */
  static final int MAX_AHEAD = 16;

  /** The most bytes of images made ahead by one supply. */
  static final long AHEAD_BYTES = 48L << 20;

  private static final ExecutorService MAKERS =
      Executors.newFixedThreadPool(
          Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
          r -> {
            Thread t = new Thread(r, "llm-bench-images");
            t.setDaemon(true);
            return t;
          });

  private final SyntheticImages images;
  private final int count;
  private final long first;
  private final long stride;
  private final int ahead;
  private final long last;
  private final AtomicLong taken = new AtomicLong();
  private final Map<Long, CompletableFuture<List<String>>> made = new ConcurrentHashMap<>();

  /**
   * @param count the images of each request
   * @param first the first request's number
   * @param stride the gap between request numbers (an injector of N takes every N-th)
   * @param requests how many requests it serves, when known (none are made past them), else {@link
   *     Long#MAX_VALUE}
   */
  ImageSupply(
      SyntheticImages images, Images settings, int count, long first, long stride, long requests) {
    this.images = images;
    this.count = count;
    this.first = first;
    this.stride = stride;
    this.last = requests == Long.MAX_VALUE ? Long.MAX_VALUE : first + (requests - 1) * stride;
    // random pixels do not compress: about 3 bytes a pixel for PNG, 0.6 for JPEG, then base64
    double bytesPerImage =
        settings.width()
            * (double) settings.height()
            * (settings.format() == Images.Format.PNG ? 4 : 0.8);
    this.ahead =
        (int) Math.max(1, Math.min(MAX_AHEAD, AHEAD_BYTES / Math.max(1, count * bytesPerImage)));
    startUpTo(first + (ahead - 1) * stride);
  }

  /** The next request's images. */
  public List<String> next() {
    long request = first + taken.getAndIncrement() * stride;
    startUpTo(request + ahead * stride);
    CompletableFuture<List<String>> mine = made.remove(request);
    return mine != null ? mine.join() : images.of(request, count);
  }

  private void startUpTo(long upTo) {
    for (long n = first + taken.get() * stride; n <= Math.min(upTo, last); n += stride) {
      made.computeIfAbsent(
          n, k -> CompletableFuture.supplyAsync(() -> images.of(k, count), MAKERS));
    }
  }
}
