package io.github.llmbench.telemetry;

import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client's figures as they happen, for a live export: per level the requests finished by
 * outcome (ok, failed, cancelled), the requests in flight, and histograms of TTFT, TPOT, ITL and
 * E2EL in seconds with vLLM's own buckets, written as Prometheus text ({@code
 * llmbench_ttft_seconds} beside vLLM's {@code vllm:time_to_first_token_seconds}); the trial each
 * level is in ({@code -Dtrials}), and the client's own health from its probe ({@link
 * LatestClientHealth}). Fed by the run's recorder: a request counts when its record is final, so
 * the counts agree with {@code requests.jsonl}; and by the client probe, a sample a second.
 *
 * @see LiveExport
 */
public final class LiveMetrics implements RunRecorder.Listener {

  /** vLLM's buckets of {@code vllm:time_to_first_token_seconds}. */
  static final double[] TTFT_BUCKETS = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  /** vLLM's buckets of {@code vllm:inter_token_latency_seconds} (and its per-output-token one). */
  static final double[] TOKEN_BUCKETS = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
    40.0, 80.0
  };

  /** vLLM's buckets of {@code vllm:e2e_request_latency_seconds}. */
  static final double[] E2EL_BUCKETS = {
    0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0,
    480.0, 960.0, 1920.0, 7680.0
  };

  /** One histogram: cumulative-ready counts per bucket (the last: above every bound), sum. */
  static final class Histogram {
    final double[] bounds;
    final AtomicLongArray counts;
    final DoubleAdder sum = new DoubleAdder();

    Histogram(double[] bounds) {
      this.bounds = bounds;
      this.counts = new AtomicLongArray(bounds.length + 1);
    }

    void observe(double seconds) {
      int i = 0;
      while (i < bounds.length && seconds > bounds[i]) {
        i++;
      }
      counts.incrementAndGet(i);
      sum.add(seconds);
    }
  }

  /** One level's figures. */
  static final class LevelFigures {
    final LongAdder ok = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder cancelled = new LongAdder();
    final LongAdder started = new LongAdder();

    /** The trial the level's latest request was sent in, 0 outside trials. */
    volatile int trial;

    final Histogram ttft = new Histogram(TTFT_BUCKETS);
    final Histogram tpot = new Histogram(TOKEN_BUCKETS);
    final Histogram itl = new Histogram(TOKEN_BUCKETS);
    final Histogram e2el = new Histogram(E2EL_BUCKETS);
  }

  private final Map<String, LevelFigures> levels = new ConcurrentSkipListMap<>();
  private final Map<String, String> labels;
  private volatile String currentLevel = "";
  private volatile LatestClientHealth clientHealth = LatestClientHealth.UNKNOWN;

  /**
   * @param labels labels every series carries ({@code model}, {@code endpoint}), in this order
   */
  public LiveMetrics(Map<String, String> labels) {
    this.labels = Map.copyOf(labels);
  }

  private LevelFigures level(String level) {
    return levels.computeIfAbsent(level == null ? "" : level, k -> new LevelFigures());
  }

  @Override
  public void started(String level, RequestOrigin origin) {
    currentLevel = level == null ? "" : level;
    LevelFigures l = level(level);
    l.started.increment();
    int trial = trial(origin);
    if (trial > 0) {
      l.trial = trial; // the trial now sending: its stragglers' ends must not move it back
    }
  }

  /** The client probe's latest stretch, shown until the next one. */
  public void clientSample(ClientSample s) {
    clientHealth = LatestClientHealth.of(s);
  }

  /**
   * The trial (from 1) of a level run several times ({@code -Dtrials}) a request was sent in; 0.
   */
  static int trial(RequestOrigin origin) {
    return origin == null ? 0 : origin.sending().trial();
  }

  @Override
  public void finished(RequestRecord r) {
    LevelFigures l = level(r.level());
    if (r.cancelled()) {
      l.cancelled.increment();
    } else if (r.ok()) {
      l.ok.increment();
    } else {
      l.failed.increment();
    }
    if (!r.ok()) {
      return;
    }
    observe(l.ttft, r.ttftMicros());
    observe(l.tpot, r.tpotMicros());
    observe(l.e2el, r.e2elMicros());
    ItlSeries itl = r.itlMs();
    for (int i = 0; i < itl.size(); i++) {
      l.itl.observe(itl.micros(i) / 1e6);
    }
  }

  private static void observe(Histogram h, long micros) {
    if (micros != RequestRecord.ABSENT) {
      h.observe(micros / 1e6);
    }
  }

  /** The figures as Prometheus text (version 0.0.4). */
  public String text() {
    StringBuilder sb = new StringBuilder(16 * 1024);
    help(sb, "llmbench_requests_total", "counter", "Requests finished, by outcome");
    levels.forEach(
        (level, l) -> {
          line(sb, "llmbench_requests_total", level, "outcome=\"ok\"", l.ok.sum());
          line(sb, "llmbench_requests_total", level, "outcome=\"failed\"", l.failed.sum());
          line(sb, "llmbench_requests_total", level, "outcome=\"cancelled\"", l.cancelled.sum());
        });
    help(sb, "llmbench_requests_in_flight", "gauge", "Requests sent and not finished");
    levels.forEach(
        (level, l) ->
            line(
                sb,
                "llmbench_requests_in_flight",
                level,
                null,
                Math.max(0, l.started.sum() - l.ok.sum() - l.failed.sum() - l.cancelled.sum())));
    help(sb, "llmbench_level_info", "gauge", "The level now sending (1), the others 0");
    levels.forEach(
        (level, l) ->
            line(sb, "llmbench_level_info", level, null, level.equals(currentLevel) ? 1 : 0));
    trials(sb);
    clientHealth(sb);
    histogram(sb, "llmbench_ttft_seconds", "Time to first token", l -> l.ttft);
    histogram(sb, "llmbench_tpot_seconds", "Time per output token after the first", l -> l.tpot);
    histogram(sb, "llmbench_itl_seconds", "Inter-token latency, per chunk gap", l -> l.itl);
    histogram(sb, "llmbench_e2el_seconds", "End-to-end request latency", l -> l.e2el);
    return sb.toString();
  }

  /** Per level run in trials, its trial: 1 for the level now sending, as the level's info. */
  private void trials(StringBuilder sb) {
    help(sb, "llmbench_trial_info", "gauge", "The trial each level is in (-Dtrials), 1 if sending");
    levels.forEach(
        (level, l) -> {
          int trial = l.trial;
          if (trial > 0) {
            line(
                sb,
                "llmbench_trial_info",
                level,
                "trial=\"" + trial + "\"",
                level.equals(currentLevel) ? 1 : 0);
          }
        });
  }

  /** The client's health over the probe's latest stretch, once one has ended. */
  private void clientHealth(StringBuilder sb) {
    LatestClientHealth h = clientHealth;
    if (!Double.isNaN(h.loopLagP99Seconds())) {
      help(
          sb,
          "llmbench_client_loop_lag_seconds",
          "gauge",
          "P99 of how late the client's event loops ran the probe's tasks, latest second");
      line(sb, "llmbench_client_loop_lag_seconds", null, null, h.loopLagP99Seconds());
    }
    if (!Double.isNaN(h.cpuRatio())) {
      help(
          sb,
          "llmbench_client_cpu_ratio",
          "gauge",
          "The client process's CPU time over the latest second, per core it may use");
      line(sb, "llmbench_client_cpu_ratio", null, null, h.cpuRatio());
    }
  }

  private void histogram(
      StringBuilder sb,
      String name,
      String help,
      java.util.function.Function<LevelFigures, Histogram> of) {
    help(sb, name, "histogram", help + " (seconds), of requests that completed");
    levels.forEach(
        (level, l) -> {
          Histogram h = of.apply(l);
          long cumulative = 0;
          for (int i = 0; i <= h.bounds.length; i++) {
            cumulative += h.counts.get(i);
            String le = i < h.bounds.length ? number(h.bounds[i]) : "+Inf";
            line(sb, name + "_bucket", level, "le=\"" + le + "\"", cumulative);
          }
          line(sb, name + "_sum", level, null, h.sum.sum());
          line(sb, name + "_count", level, null, cumulative);
        });
  }

  private static void help(StringBuilder sb, String name, String type, String help) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  /**
   * One sample: the level's label first (none for the client's own figures, {@code level} null),
   * then every series' labels, then {@code extra}.
   */
  private void line(StringBuilder sb, String name, String level, String extra, double value) {
    List<String> all = new ArrayList<>();
    if (level != null) {
      all.add("level=\"" + escaped(level) + '"');
    }
    labels.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> all.add(e.getKey() + "=\"" + escaped(e.getValue()) + '"'));
    if (extra != null) {
      all.add(extra);
    }
    sb.append(name);
    if (!all.isEmpty()) {
      sb.append('{').append(String.join(",", all)).append('}');
    }
    sb.append(' ').append(number(value)).append('\n');
  }

  /** A label value as Prometheus text writes it: backslash, quote and newline escaped. */
  static String escaped(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%s", v);
  }
}
