package io.github.llmbench.simulator;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The engine's counters, gauges and histograms, served in the Prometheus text format 0.0.4 under
 * the names, types and labels of the server the simulator speaks for (its {@link Dialect}'s {@link
 * VllmAnswers#prometheus}): vLLM's ({@code vllm/v1/metrics/loggers.py}; also for llama.cpp's
 * dialect), SGLang's ({@code srt/metrics/collector.py}), TGI's ({@code router/src/server.rs}:
 * counters without {@code _total}, no model label) and trtllm-serve's ({@code
 * serve/metrics/collector.py}, at {@code /prometheus/metrics}). Written by the engine thread (one
 * writer), read by any thread.
 */
final class SimMetrics {

  // vLLM's buckets (vllm/v1/metrics/loggers.py)
  static final double[] TTFT_BUCKETS = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };
  static final double[] ITL_BUCKETS = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
    40.0, 80.0
  };
  static final double[] REQUEST_LATENCY_BUCKETS = {
    0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0,
    480.0, 960.0, 1920.0, 7680.0
  };

  private volatile int running;
  private volatile int waiting;
  private volatile double kvUsage;
  private final AtomicLong promptTokens = new AtomicLong();
  private final AtomicLong generationTokens = new AtomicLong();
  private final AtomicLong preemptions = new AtomicLong();
  private final AtomicLong prefixQueries = new AtomicLong();
  private final AtomicLong prefixHits = new AtomicLong();
  private final AtomicLong requestSuccess = new AtomicLong();
  private final AtomicLong cachedPromptTokens = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong drafts = new AtomicLong();
  private final AtomicLong draftTokens = new AtomicLong();
  private final AtomicLong acceptedTokens = new AtomicLong();
  final Histogram ttft = new Histogram(TTFT_BUCKETS);
  final Histogram itl = new Histogram(ITL_BUCKETS);
  final Histogram e2e = new Histogram(REQUEST_LATENCY_BUCKETS);
  final Histogram queue = new Histogram(REQUEST_LATENCY_BUCKETS);
  final Histogram prefill = new Histogram(REQUEST_LATENCY_BUCKETS);
  final Histogram decode = new Histogram(REQUEST_LATENCY_BUCKETS);

  // disaggregated serving's KV transfers: vLLM's NIXL buckets (seconds), powers of two MB
  static final double[] TRANSFER_SECONDS_BUCKETS = {
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 5.0
  };
  static final double[] TRANSFER_MB_BUCKETS = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096};
  final Histogram transferSeconds = new Histogram(TRANSFER_SECONDS_BUCKETS);
  final Histogram transferBytes = new Histogram(scaled(TRANSFER_MB_BUCKETS, 1e6));
  final Histogram transferMillis = new Histogram(scaled(TRANSFER_SECONDS_BUCKETS, 1000));
  final Histogram transferMegabytes = new Histogram(TRANSFER_MB_BUCKETS);
  private final AtomicLong transfers = new AtomicLong();

  /** Whether the engine serves disaggregated, or decodes speculatively: their series then show. */
  private final boolean disaggregated;

  private final boolean speculative;

  SimMetrics() {
    this(SimServing.MONOLITHIC);
  }

  /** The metrics of an engine that serves as {@code serving} says, its series there from start. */
  SimMetrics(SimServing serving) {
    this.disaggregated = serving.kvTransferGbPerS() > 0;
    this.speculative = serving.speculation().on();
  }

  private static double[] scaled(double[] bounds, double by) {
    double[] out = new double[bounds.length];
    for (int i = 0; i < bounds.length; i++) {
      out[i] = bounds[i] * by;
    }
    return out;
  }

  // TGI's per-request histograms (its buckets: powers of two for lengths)
  static final double[] LENGTH_BUCKETS = {
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072
  };
  final Histogram inputLength = new Histogram(LENGTH_BUCKETS);
  final Histogram generatedTokens = new Histogram(LENGTH_BUCKETS);
  final Histogram meanTimePerToken = new Histogram(ITL_BUCKETS);

  // --- engine thread ---
  void admitted(SimRequest r, long nowNanos) {
    queue.observe((nowNanos - r.readyNanos) / 1e9);
    requests.incrementAndGet();
    prefixQueries.addAndGet(r.promptTokens);
    prefixHits.addAndGet(r.cachedPromptTokens);
  }

  void token(SimRequest r, int k, long endNanos) {
    if (k == 0) {
      r.firstTokenNanos = endNanos;
      prefill.observe((endNanos - r.firstScheduledNanos) / 1e9);
      ttft.observe((endNanos - r.arrivalNanos) / 1e9);
      promptTokens.addAndGet(r.promptTokens);
      cachedPromptTokens.addAndGet(r.cachedPromptTokens);
    } else {
      itl.observe((endNanos - r.lastTokenNanos) / 1e9);
    }
    r.lastTokenNanos = endNanos;
    generationTokens.incrementAndGet();
  }

  void finished(SimRequest r, long endNanos) {
    e2e.observe((endNanos - r.arrivalNanos) / 1e9);
    decode.observe((endNanos - r.firstTokenNanos) / 1e9);
    requestSuccess.incrementAndGet();
    inputLength.observe(r.promptTokens);
    generatedTokens.observe(r.generated);
    if (r.generated > 1) {
      meanTimePerToken.observe((endNanos - r.firstTokenNanos) / 1e9 / (r.generated - 1));
    }
  }

  /** A decode step verified {@code drafted} drafts and kept {@code accepted} of them. */
  void speculated(int drafted, int accepted) {
    drafts.incrementAndGet();
    draftTokens.addAndGet(drafted);
    acceptedTokens.addAndGet(accepted);
    generationTokens.addAndGet(accepted);
  }

  /** Disaggregated serving: a prefill's KV went to the decode instance. */
  void kvTransferred(double bytes, double seconds) {
    transferSeconds.observe(seconds);
    transferBytes.observe(bytes);
    transferMillis.observe(seconds * 1000);
    transferMegabytes.observe(bytes / 1e6);
    transfers.incrementAndGet();
  }

  void preempted() {
    preemptions.incrementAndGet();
  }

  void gauges(int running, int waiting, double kvUsage) {
    this.running = running;
    this.waiting = waiting;
    this.kvUsage = kvUsage;
  }

  // --- readers ---
  long preemptions() {
    return preemptions.get();
  }

  long prefixHits() {
    return prefixHits.get();
  }

  long prefixQueries() {
    return prefixQueries.get();
  }

  long generationTokens() {
    return generationTokens.get();
  }

  long promptTokens() {
    return promptTokens.get();
  }

  long cachedPromptTokens() {
    return cachedPromptTokens.get();
  }

  /** The Prometheus text exposition (format 0.0.4), as vLLM's {@code /metrics} serves it. */
  String render(String modelName) {
    return renderVllm(modelName);
  }

  private static String quoted(String v) {
    return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** vLLM's names (also llama.cpp's dialect's). */
  String renderVllm(String modelName) {
    String inner = "model_name=" + quoted(modelName);
    String l = "{" + inner + "}";
    StringBuilder sb = new StringBuilder(8192);
    gauge(
        sb,
        "vllm:num_requests_running",
        "Number of requests in model execution batches.",
        l,
        running);
    gauge(
        sb, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", l, waiting);
    gauge(sb, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", l, kvUsage);
    counter(
        sb,
        "vllm:prefix_cache_queries",
        "Prefix cache queries, in terms of number of queried tokens.",
        l,
        prefixQueries.get());
    counter(
        sb,
        "vllm:prefix_cache_hits",
        "Prefix cache hits, in terms of number of cached tokens.",
        l,
        prefixHits.get());
    counter(
        sb,
        "vllm:num_preemptions",
        "Cumulative number of preemption from the engine.",
        l,
        preemptions.get());
    counter(sb, "vllm:prompt_tokens", "Number of prefill tokens processed.", l, promptTokens.get());
    counter(
        sb,
        "vllm:prompt_tokens_cached",
        "Number of cached prompt tokens (local prefix cache).",
        l,
        cachedPromptTokens.get());
    counter(
        sb,
        "vllm:generation_tokens",
        "Number of generation tokens processed.",
        l,
        generationTokens.get());
    counter(
        sb,
        "vllm:request_success",
        "Count of successfully processed requests.",
        l,
        requestSuccess.get());
    ttft.render(
        sb,
        "vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        inner);
    itl.render(
        sb,
        "vllm:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.",
        inner);
    e2e.render(
        sb,
        "vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.",
        inner);
    queue.render(
        sb,
        "vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.",
        inner);
    renderVllmServing(sb, l, inner);
    return sb.toString();
  }

  /**
   * vLLM's speculative decoding counters and NIXL's transfer histograms, where the engine has them.
   */
  private void renderVllmServing(StringBuilder sb, String l, String inner) {
    prefill.render(
        sb,
        "vllm:request_prefill_time_seconds",
        "Histogram of time spent in PREFILL phase for request.",
        inner);
    decode.render(
        sb,
        "vllm:request_decode_time_seconds",
        "Histogram of time spent in DECODE phase for request.",
        inner);
    if (disaggregated) {
      transferSeconds.render(
          sb,
          "vllm:nixl_xfer_time_seconds",
          "Histogram of transfer duration for NIXL KV Cache transfers.",
          inner);
      transferBytes.render(
          sb,
          "vllm:nixl_bytes_transferred",
          "Histogram of bytes transferred per NIXL KV Cache transfers.",
          inner);
      counter(
          sb, "vllm:nixl_num_failed_transfers", "Number of failed NIXL KV Cache transfers.", l, 0);
    }
    if (speculative) {
      counter(
          sb, "vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", l, drafts.get());
      counter(
          sb, "vllm:spec_decode_num_draft_tokens", "Number of draft tokens.", l, draftTokens.get());
      counter(
          sb,
          "vllm:spec_decode_num_accepted_tokens",
          "Number of accepted tokens.",
          l,
          acceptedTokens.get());
    }
  }

  /** SGLang's names; its scheduler's gauges carry the engine's ranks too. */
  String renderSglang(String modelName) {
    String tok = "model_name=" + quoted(modelName) + ",engine_type=\"unified\"";
    String sched = tok + ",tp_rank=\"0\",pp_rank=\"0\"";
    String l = "{" + sched + "}";
    StringBuilder sb = new StringBuilder(8192);
    gauge(sb, "sglang:num_running_reqs", "The number of running requests.", l, running);
    gauge(sb, "sglang:num_queue_reqs", "The number of requests in the waiting queue.", l, waiting);
    gauge(sb, "sglang:token_usage", "The token usage.", l, kvUsage);
    long queried = prefixQueries.get();
    gauge(
        sb,
        "sglang:cache_hit_rate",
        "The prefix cache hit rate.",
        l,
        queried == 0 ? 0 : prefixHits.get() / (double) queried);
    String t = "{" + tok + "}";
    counter(
        sb, "sglang:prompt_tokens", "Number of prefill tokens processed.", t, promptTokens.get());
    counter(
        sb,
        "sglang:generation_tokens",
        "Number of generation tokens processed.",
        t,
        generationTokens.get());
    counter(
        sb, "sglang:cached_tokens", "Number of cached prompt tokens.", t, cachedPromptTokens.get());
    counter(sb, "sglang:num_requests", "The number of processed requests.", t, requests.get());
    counter(
        sb,
        "sglang:num_retracted_requests",
        "Total number of retracted requests due to kv cache pressure.",
        l,
        preemptions.get());
    ttft.render(
        sb,
        "sglang:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        tok);
    itl.render(
        sb,
        "sglang:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.",
        tok);
    e2e.render(
        sb,
        "sglang:e2e_request_latency_seconds",
        "Histogram of End-to-end request latency in seconds",
        tok);
    if (disaggregated) {
      transferMillis.render(
          sb, "sglang:kv_transfer_latency_ms", "The transfer latency of the KV cache in ms.", tok);
      transferMegabytes.render(
          sb, "sglang:kv_transfer_total_mb", "The total MB of KV cache transferred.", tok);
      counter(
          sb,
          "sglang:num_transfer_failed_reqs",
          "The number of requests whose KV transfer failed.",
          l,
          0);
    }
    long d = drafts.get();
    if (speculative) {
      // SGLang's accept length counts the step's own sampled token
      gauge(
          sb,
          "sglang:spec_accept_length",
          "The average acceptance length of speculative decoding.",
          l,
          d == 0 ? 0 : 1 + (double) acceptedTokens.get() / d);
      gauge(
          sb,
          "sglang:spec_accept_rate",
          "The average acceptance rate of speculative decoding.",
          l,
          (double) acceptedTokens.get() / Math.max(1, draftTokens.get()));
    }
    return sb.toString();
  }

  /**
   * TGI's names (metrics-exporter-prometheus: counters without {@code _total}, no model label, no
   * TTFT histogram, no KV gauge; its token counts are the sums of per-request histograms).
   */
  String renderTgi() {
    StringBuilder sb = new StringBuilder(8192);
    sb.append("# TYPE tgi_request_count counter\ntgi_request_count ")
        .append(num(requests.get()))
        .append('\n');
    sb.append("# TYPE tgi_request_success counter\ntgi_request_success ")
        .append(num(requestSuccess.get()))
        .append('\n');
    sb.append("# TYPE tgi_queue_size gauge\ntgi_queue_size ").append(num(waiting)).append('\n');
    sb.append("# TYPE tgi_batch_current_size gauge\ntgi_batch_current_size ")
        .append(num(running))
        .append('\n');
    inputLength.render(sb, "tgi_request_input_length", null, "");
    generatedTokens.render(sb, "tgi_request_generated_tokens", null, "");
    meanTimePerToken.render(sb, "tgi_request_mean_time_per_token_duration", null, "");
    e2e.render(sb, "tgi_request_duration", null, "");
    queue.render(sb, "tgi_request_queue_duration", null, "");
    return sb.toString();
  }

  /** trtllm-serve's names ({@code /prometheus/metrics}). */
  String renderTrtllm(String modelName) {
    String inner = "model_name=" + quoted(modelName) + ",engine_type=\"pytorch\"";
    String l = "{" + inner + "}";
    StringBuilder sb = new StringBuilder(8192);
    gauge(sb, "trtllm_num_requests_running", "Number of requests running.", l, running);
    gauge(sb, "trtllm_num_requests_waiting", "Number of requests waiting.", l, waiting);
    gauge(sb, "trtllm_kv_cache_utilization", "KV cache utilization (0 to 1).", l, kvUsage);
    long queried = prefixQueries.get();
    gauge(
        sb,
        "trtllm_kv_cache_hit_rate",
        "KV cache hit rate.",
        l,
        queried == 0 ? 0 : prefixHits.get() / (double) queried);
    counter(sb, "trtllm_prompt_tokens", "Number of prompt tokens.", l, promptTokens.get());
    counter(
        sb, "trtllm_generation_tokens", "Number of generation tokens.", l, generationTokens.get());
    counter(
        sb,
        "trtllm_prompt_cached_tokens",
        "Number of cached prompt tokens.",
        l,
        cachedPromptTokens.get());
    counter(
        sb,
        "trtllm_request_success",
        "Count of successfully processed requests.",
        l,
        requestSuccess.get());
    ttft.render(
        sb, "trtllm_time_to_first_token_seconds", "Histogram of time to first token.", inner);
    itl.render(
        sb, "trtllm_time_per_output_token_seconds", "Histogram of time per output token.", inner);
    e2e.render(
        sb,
        "trtllm_e2e_request_latency_seconds",
        "Histogram of end to end request latency.",
        inner);
    return sb.toString();
  }

  /** trtllm-serve's {@code GET /metrics}: JSON iteration stats, not Prometheus text. */
  String trtllmIterationStats() {
    return String.format(
        Locale.ROOT,
        "[{\"iter\":%d,\"numActiveRequests\":%d,\"numQueuedRequests\":%d,\"kvCacheStats\":{\"usedNumBlocks\":0}}]",
        generationTokens.get(),
        running,
        waiting);
  }

  private static void gauge(StringBuilder sb, String name, String help, String labels, double v) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(name).append(" gauge\n");
    sb.append(name).append(labels).append(' ').append(num(v)).append('\n');
  }

  /**
   * prometheus_client writes a counter's family as NAME_total, with the same name on HELP and TYPE.
   */
  private static void counter(StringBuilder sb, String name, String help, String labels, long v) {
    String n = name + "_total";
    sb.append("# HELP ").append(n).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(n).append(" counter\n");
    sb.append(n).append(labels).append(' ').append(num(v)).append('\n');
  }

  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return Double.toString(v);
  }

  /** A cumulative histogram: one writer, counts per bucket plus sum. */
  static final class Histogram {
    private final double[] bounds;
    private final AtomicLongArray counts; // per bucket (not cumulative), last = +Inf
    private final AtomicLong sumBits = new AtomicLong(Double.doubleToLongBits(0));

    Histogram(double[] bounds) {
      this.bounds = bounds;
      this.counts = new AtomicLongArray(bounds.length + 1);
    }

    void observe(double v) {
      int i = 0;
      while (i < bounds.length && v > bounds[i]) {
        i++;
      }
      counts.incrementAndGet(i);
      sumBits.set(Double.doubleToLongBits(Double.longBitsToDouble(sumBits.get()) + v));
    }

    long count() {
      long c = 0;
      for (int i = 0; i < counts.length(); i++) {
        c += counts.get(i);
      }
      return c;
    }

    double sum() {
      return Double.longBitsToDouble(sumBits.get());
    }

    /**
     * @param labels the labels inside the braces, e.g. {@code model_name="m"}; empty for none
     * @param help null for none (TGI writes no HELP lines)
     */
    void render(StringBuilder sb, String name, String help, String labels) {
      String m = labels.isEmpty() ? "" : labels + ",";
      if (help != null) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
      }
      sb.append("# TYPE ").append(name).append(" histogram\n");
      long cum = 0;
      long[] snap = new long[counts.length()];
      for (int i = 0; i < snap.length; i++) {
        snap[i] = counts.get(i);
      }
      double sum = sum();
      for (int i = 0; i < bounds.length; i++) {
        cum += snap[i];
        sb.append(name)
            .append("_bucket{")
            .append(m)
            .append("le=\"")
            .append(Double.toString(bounds[i]))
            .append("\"} ")
            .append(num(cum))
            .append('\n');
      }
      cum += snap[bounds.length];
      sb.append(name)
          .append("_bucket{")
          .append(m)
          .append("le=\"+Inf\"} ")
          .append(num(cum))
          .append('\n');
      String own = labels.isEmpty() ? "" : "{" + labels + "}";
      sb.append(name).append("_count").append(own).append(' ').append(num(cum)).append('\n');
      sb.append(name).append("_sum").append(own).append(' ').append(num(sum)).append('\n');
    }
  }
}
