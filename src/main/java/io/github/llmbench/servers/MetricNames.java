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
 * @param speculative speculative decoding's counters and gauges
 * @param disaggregated disaggregated serving's KV transfers and the requests' prefill and decode
 *     times
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
    List<String> itl,
    Speculative speculative,
    Disaggregated disaggregated) {

  /**
   * Disaggregated (prefill/decode) serving's figures, each in the unit its server writes: vLLM's
   * NIXL connector times transfers in seconds and counts bytes, SGLang in ms and MB; both time each
   * request's prefill and decode. Histograms by family (their {@code _sum} and {@code _count} are
   * read; a gauge of that name is averaged instead).
   *
   * @param transferSeconds KV transfer time per transfer, seconds (histogram)
   * @param transferMillis the same in ms (histogram or gauge)
   * @param transferBytes bytes per transfer (histogram)
   * @param transferMegabytes MB per transfer (histogram or gauge)
   * @param transferFailures failed transfers (counter)
   * @param prefillSeconds a request's prefill time, seconds (histogram)
   * @param decodeSeconds a request's decode time, seconds (histogram)
   */
  public record Disaggregated(
      List<String> transferSeconds,
      List<String> transferMillis,
      List<String> transferBytes,
      List<String> transferMegabytes,
      List<String> transferFailures,
      List<String> prefillSeconds,
      List<String> decodeSeconds) {
    public static final Disaggregated NONE = builder().build();

    public static Builder builder() {
      return new Builder();
    }

    /** Names by figure; a figure not named has none. */
    public static final class Builder {
      private List<String> transferSeconds = List.of();
      private List<String> transferMillis = List.of();
      private List<String> transferBytes = List.of();
      private List<String> transferMegabytes = List.of();
      private List<String> transferFailures = List.of();
      private List<String> prefillSeconds = List.of();
      private List<String> decodeSeconds = List.of();

      public Builder transferSeconds(String... names) {
        transferSeconds = List.of(names);
        return this;
      }

      public Builder transferMillis(String... names) {
        transferMillis = List.of(names);
        return this;
      }

      public Builder transferBytes(String... names) {
        transferBytes = List.of(names);
        return this;
      }

      public Builder transferMegabytes(String... names) {
        transferMegabytes = List.of(names);
        return this;
      }

      public Builder transferFailures(String... names) {
        transferFailures = List.of(names);
        return this;
      }

      public Builder prefillSeconds(String... names) {
        prefillSeconds = List.of(names);
        return this;
      }

      public Builder decodeSeconds(String... names) {
        decodeSeconds = List.of(names);
        return this;
      }

      public Disaggregated build() {
        return new Disaggregated(
            transferSeconds,
            transferMillis,
            transferBytes,
            transferMegabytes,
            transferFailures,
            prefillSeconds,
            decodeSeconds);
      }
    }
  }

  /**
   * Speculative decoding's figures: vLLM counts drafts, drafted and accepted tokens; SGLang gauges
   * its mean accept length (with the step's own token) and acceptance rate.
   *
   * @param drafts decode steps that drafted (counter)
   * @param draftTokens tokens drafted (counter)
   * @param acceptedTokens drafted tokens kept (counter)
   * @param acceptLength mean tokens per verify step, the sampled one included (gauge)
   * @param acceptRate kept drafts per drafted token (gauge)
   */
  public record Speculative(
      List<String> drafts,
      List<String> draftTokens,
      List<String> acceptedTokens,
      List<String> acceptLength,
      List<String> acceptRate) {
    public static final Speculative NONE =
        new Speculative(List.of(), List.of(), List.of(), List.of(), List.of());

    /** Counters' names, as a server with counters writes them. */
    public static Speculative counters(String drafts, String draftTokens, String acceptedTokens) {
      return new Speculative(
          List.of(drafts), List.of(draftTokens), List.of(acceptedTokens), List.of(), List.of());
    }

    /** Gauges' names, as a server that averages itself writes them. */
    public static Speculative gauges(String acceptLength, String acceptRate) {
      return new Speculative(
          List.of(), List.of(), List.of(), List.of(acceptLength), List.of(acceptRate));
    }
  }

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
    private Speculative speculative = Speculative.NONE;
    private Disaggregated disaggregated = Disaggregated.NONE;

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

    public Builder speculative(Speculative names) {
      speculative = names;
      return this;
    }

    public Builder disaggregated(Disaggregated names) {
      disaggregated = names;
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
          itl,
          speculative,
          disaggregated);
    }
  }
}
