package io.github.llmbench.simulator;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The engine's counters, gauges and histograms under vLLM's Prometheus names and types ({@code
 * vllm/v1/metrics/loggers.py}), served as {@code GET /metrics} in the Prometheus text format 0.0.4,
 * labelled {@code model_name} like vLLM. Written by the engine thread (one writer), read by any
 * thread.
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
  final Histogram ttft = new Histogram(TTFT_BUCKETS);
  final Histogram itl = new Histogram(ITL_BUCKETS);
  final Histogram e2e = new Histogram(REQUEST_LATENCY_BUCKETS);
  final Histogram queue = new Histogram(REQUEST_LATENCY_BUCKETS);

  // --- engine thread ---
  void admitted(SimRequest r, long nowNanos) {
    queue.observe((nowNanos - r.readyNanos) / 1e9);
    prefixQueries.addAndGet(r.promptTokens);
    prefixHits.addAndGet(r.cachedPromptTokens);
  }

  void token(SimRequest r, int k, long endNanos) {
    if (k == 0) {
      r.firstTokenNanos = endNanos;
      ttft.observe((endNanos - r.arrivalNanos) / 1e9);
      promptTokens.addAndGet(r.promptTokens);
    } else {
      itl.observe((endNanos - r.lastTokenNanos) / 1e9);
    }
    r.lastTokenNanos = endNanos;
    generationTokens.incrementAndGet();
  }

  void finished(SimRequest r, long endNanos) {
    e2e.observe((endNanos - r.arrivalNanos) / 1e9);
    requestSuccess.incrementAndGet();
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

  /** The Prometheus text exposition (format 0.0.4), as vLLM's {@code /metrics} serves it. */
  String render(String modelName) {
    String l = "{model_name=\"" + modelName.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
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
        modelName);
    itl.render(
        sb,
        "vllm:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.",
        modelName);
    e2e.render(
        sb,
        "vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.",
        modelName);
    queue.render(
        sb,
        "vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.",
        modelName);
    return sb.toString();
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

    void render(StringBuilder sb, String name, String help, String model) {
      String m = "model_name=\"" + model.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
      sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
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
            .append(",le=\"")
            .append(Double.toString(bounds[i]))
            .append("\"} ")
            .append(num(cum))
            .append('\n');
      }
      cum += snap[bounds.length];
      sb.append(name)
          .append("_bucket{")
          .append(m)
          .append(",le=\"+Inf\"} ")
          .append(num(cum))
          .append('\n');
      sb.append(name).append("_count{").append(m).append("} ").append(num(cum)).append('\n');
      sb.append(name).append("_sum{").append(m).append("} ").append(num(sum)).append('\n');
    }
  }
}
