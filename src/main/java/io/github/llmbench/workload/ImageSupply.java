package io.github.llmbench.workload;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Synthetic images made ahead of the requests that carry them, on threads of their own: encoding
 * one takes milliseconds, which on Gatling's event loop would delay the reads of every stream
 * sharing it, and so the inter-token latencies measured. Each take starts the images of the next
 * requests, so a request's are normally ready when it is fed; only a level's first requests wait
 * for theirs, while none of the level is in flight yet.
 */
public final class ImageSupply {
  /** How many requests ahead images are made. */
  static final int AHEAD = 16;

  private static final ExecutorService MAKERS =
      Executors.newFixedThreadPool(
          Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
          r -> {
            Thread t = new Thread(r, "llm-bench-images");
            t.setDaemon(true);
            return t;
          });

  private final SyntheticImages images;
  private final Map<Key, CompletableFuture<List<String>>> made = new ConcurrentHashMap<>();

  private record Key(long request, int count) {}

  public ImageSupply(SyntheticImages images) {
    this.images = images;
  }

  /**
   * Request {@code request}'s {@code count} images, and those of the {@link #AHEAD} requests that
   * follow it {@code stride} apart (an injector of several sends every {@code stride}-th request)
   * started. Requests are taken in increasing order: earlier ones' images are dropped.
   */
  public List<String> take(long request, int count, long stride) {
    if (count == 0) {
      return List.of();
    }
    for (int j = 1; j <= AHEAD; j++) {
      Key next = new Key(request + j * stride, count);
      made.computeIfAbsent(
          next,
          k -> CompletableFuture.supplyAsync(() -> images.of(k.request(), k.count()), MAKERS));
    }
    CompletableFuture<List<String>> mine = made.remove(new Key(request, count));
    made.keySet().removeIf(k -> k.request() < request || k.count() != count);
    return mine != null ? mine.join() : images.of(request, count);
  }
}
