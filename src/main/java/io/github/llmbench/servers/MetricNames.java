package io.github.llmbench.servers;

import java.util.List;

/**
 * A server's Prometheus names that the kit maps, each figure's names in the order they are looked
 * for (an older name after the current one); a figure the server does not report has none. Counters
 * are named with their {@code _total}; histograms by their family (the kit reads {@code _sum} and
 * {@code _count}).
 *
 * @param family the prefix every name of the server starts with ({@code vllm:}, {@code tgi_})
 * @param running requests in the running batch (gauge)
 * @param waiting requests in the queue (gauge)
 * @param kvCacheUsage the KV cache's used share, 0..1 (gauge)
 * @param preemptions requests preempted for KV blocks (counter)
 * @param prefixCacheQueries prompt tokens looked up in the prefix cache (counter)
 * @param prefixCacheHits of these, the ones found (counter)
 * @param promptTokens prompt tokens processed (counter)
 * @param cachedOfPromptTokens cached prompt tokens, counted once per prompt and inside {@code
 *     promptTokens} (counter)
 * @param cachedApartPromptTokens cached prompt tokens counted apart from {@code promptTokens}
 *     (llama.cpp's counter)
 * @param generationTokens output tokens generated (counter)
 * @param ttft the time-to-first-token histogram
 * @param itl the inter-token latency histogram
 */
public record MetricNames(
    String family,
    List<String> running,
    List<String> waiting,
    List<String> kvCacheUsage,
    List<String> preemptions,
    List<String> prefixCacheQueries,
    List<String> prefixCacheHits,
    List<String> promptTokens,
    List<String> cachedOfPromptTokens,
    List<String> cachedApartPromptTokens,
    List<String> generationTokens,
    List<String> ttft,
    List<String> itl) {

  public static Builder family(String family) {
    return new Builder(family);
  }

  /** Names by figure; a figure not named has none. */
  public static final class Builder {
    private final String family;
    private List<String> running = List.of();
    private List<String> waiting = List.of();
    private List<String> kvCacheUsage = List.of();
    private List<String> preemptions = List.of();
    private List<String> prefixCacheQueries = List.of();
    private List<String> prefixCacheHits = List.of();
    private List<String> promptTokens = List.of();
    private List<String> cachedOfPromptTokens = List.of();
    private List<String> cachedApartPromptTokens = List.of();
    private List<String> generationTokens = List.of();
    private List<String> ttft = List.of();
    private List<String> itl = List.of();

    private Builder(String family) {
      this.family = family;
    }

    public Builder running(String... names) {
      running = List.of(names);
      return this;
    }

    public Builder waiting(String... names) {
      waiting = List.of(names);
      return this;
    }

    public Builder kvCacheUsage(String... names) {
      kvCacheUsage = List.of(names);
      return this;
    }

    public Builder preemptions(String... names) {
      preemptions = List.of(names);
      return this;
    }

    public Builder prefixCacheQueries(String... names) {
      prefixCacheQueries = List.of(names);
      return this;
    }

    public Builder prefixCacheHits(String... names) {
      prefixCacheHits = List.of(names);
      return this;
    }

    public Builder promptTokens(String... names) {
      promptTokens = List.of(names);
      return this;
    }

    public Builder cachedOfPromptTokens(String... names) {
      cachedOfPromptTokens = List.of(names);
      return this;
    }

    public Builder cachedApartPromptTokens(String... names) {
      cachedApartPromptTokens = List.of(names);
      return this;
    }

    public Builder generationTokens(String... names) {
      generationTokens = List.of(names);
      return this;
    }

    public Builder ttft(String... names) {
      ttft = List.of(names);
      return this;
    }

    public Builder itl(String... names) {
      itl = List.of(names);
      return this;
    }

    public MetricNames build() {
      return new MetricNames(
          family,
          running,
          waiting,
          kvCacheUsage,
          preemptions,
          prefixCacheQueries,
          prefixCacheHits,
          promptTokens,
          cachedOfPromptTokens,
          cachedApartPromptTokens,
          generationTokens,
          ttft,
          itl);
    }
  }
}
