package io.github.llmbench.gates;

import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.endpoints.Figures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a gate measures: a latency figure ({@code tpot.p99}), one of the kit's own figures of a
 * level or of a capacity search ({@code failed.pct}, {@code output_throughput.min}, ...), or one of
 * the server's ({@code server.preemptions}). Each knows its name, its unit and which way is worse.
 */
public sealed interface GateMetric permits GateMetric.Latency, GateMetric.Fixed, GateMetric.Server {
  // No default methods: initializing Fixed would then initialize this interface first, whose
  // constants below would read Fixed's before they are set.

  GateMetric FAILED_PCT = Fixed.FAILED_PCT;
  GateMetric OUTPUT_THROUGHPUT = Fixed.OUTPUT_THROUGHPUT;
  GateMetric REQUEST_THROUGHPUT = Fixed.REQUEST_THROUGHPUT;
  GateMetric INPUT_THROUGHPUT = Fixed.INPUT_THROUGHPUT;
  GateMetric STEADY_OUTPUT_THROUGHPUT = Fixed.STEADY_OUTPUT_THROUGHPUT;
  GateMetric GOODPUT = Fixed.GOODPUT;
  GateMetric GOODPUT_PCT = Fixed.GOODPUT_PCT;
  GateMetric CAPACITY = Fixed.CAPACITY;
  GateMetric TTFO_MEAN = Fixed.TTFO_MEAN;
  GateMetric TTFO_MEDIAN = Fixed.TTFO_MEDIAN;
  GateMetric TTFO_P90 = Fixed.TTFO_P90;
  GateMetric TTFO_P99 = Fixed.TTFO_P99;
  GateMetric CLIENT_LAG_P99 = Fixed.CLIENT_LAG_P99;
  GateMetric CLIENT_CPU_MAX = Fixed.CLIENT_CPU_MAX;
  GateMetric ENERGY_PER_TOKEN = Fixed.ENERGY_PER_TOKEN;

  /** Gates on the server's figures: {@code server.preemptions}, {@code server.waiting_mean}, ... */
  String SERVER_PREFIX = "server.";

  /** As written in a gate: {@code tpot.p99}, {@code c128.failed.pct}'s {@code failed.pct}. */
  String key();

  /**
   * The unit, for the console: {@code ms}, {@code %}, {@code tok/s}, ... ({@code ""} for a count).
   */
  String unit();

  /**
   * Whether a bigger value is worse (latencies, failures, the server's figures) rather than better
   * (throughputs).
   */
  boolean upperBound();

  /** Whether it is measured against the goodput objectives ({@code -Dgate.goodput}). */
  boolean needsGoodput();

  /** Every metric a gate may name, in key order (for error messages). */
  static List<GateMetric> all() {
    List<GateMetric> all = new ArrayList<>();
    LatencyFigure.ALL.forEach(f -> all.add(new Latency(f)));
    all.addAll(Arrays.asList(Fixed.values()));
    ServerFigures.KEYS.forEach(k -> all.add(new Server(k)));
    all.sort((a, b) -> a.key().compareTo(b.key()));
    return List.copyOf(all);
  }

  /** The metric named {@code key}, or empty. */
  static Optional<GateMetric> parse(String key) {
    Optional<LatencyFigure> latency = LatencyFigure.parse(key);
    if (latency.isPresent()) {
      return Optional.of(new Latency(latency.get()));
    }
    Optional<Fixed> fixed =
        Arrays.stream(Fixed.values()).filter(f -> f.key().equals(key)).findFirst();
    if (fixed.isPresent()) {
      return Optional.of(fixed.get());
    }
    if (key.startsWith(SERVER_PREFIX)) {
      return ServerFigures.named(key.substring(SERVER_PREFIX.length())).map(Server::new);
    }
    return Optional.empty();
  }

  /**
   * Whether a run whose requests have these figures has this one: a latency its endpoint's figures
   * list; and, when it generates nothing (embeddings), no TTFO, no output throughput and no goodput
   * (vLLM computes none for it).
   */
  static boolean appliesTo(GateMetric m, Figures figures) {
    if (m instanceof Latency l) {
      return figures.latencies().contains(l.figure().metric());
    }
    return figures.generates()
        || !(m == OUTPUT_THROUGHPUT
            || m == STEADY_OUTPUT_THROUGHPUT
            || m == ENERGY_PER_TOKEN
            || m.needsGoodput()
            || m == TTFO_MEAN
            || m == TTFO_MEDIAN
            || m == TTFO_P90
            || m == TTFO_P99);
  }

  /** The gate metric an objective's figure is. */
  static GateMetric of(SloFigure f) {
    return f instanceof LatencyFigure l ? new Latency(l) : FAILED_PCT;
  }

  /** A latency statistic of a level's requests, in ms. */
  record Latency(LatencyFigure figure) implements GateMetric {
    @Override
    public String key() {
      return figure.key();
    }

    @Override
    public String unit() {
      return "ms";
    }

    @Override
    public boolean upperBound() {
      return true;
    }

    @Override
    public boolean needsGoodput() {
      return false;
    }

    @Override
    public String toString() {
      return key();
    }
  }

  /** The kit's own figures of a level, and a capacity search's answer. */
  enum Fixed implements GateMetric {
    FAILED_PCT(SloFigure.FAILED_PCT.key(), "%", true),
    OUTPUT_THROUGHPUT("output_throughput.min", "tok/s", false),
    /** Completed requests per second of the level (vLLM's request throughput). */
    REQUEST_THROUGHPUT("request_throughput.min", "req/s", false),
    /**
     * Input tokens of completed requests per second of the level: an embeddings run's token
     * throughput.
     */
    INPUT_THROUGHPUT("input_throughput.min", "tok/s", false),
    /** Output tok/s over the level's steady window (none when it never reached one). */
    STEADY_OUTPUT_THROUGHPUT("steady.output_throughput.min", "tok/s", false),
    /** Requests meeting the goodput objectives, per second of the level, as vLLM's goodput. */
    GOODPUT("goodput.min", "req/s", false),
    /** The share of the level's requests meeting the goodput objectives. */
    GOODPUT_PCT("goodput.pct", "%", false),
    /** A capacity search's answer ({@code -Dsearch}): the highest load that met the objectives. */
    CAPACITY("capacity.min", "", false),
    /**
     * How late the client's event loops ran their tasks, p99, over the level's steady window (else
     * the level): bounds the error of the TTFT and ITL it measured.
     */
    CLIENT_LAG_P99("client.lag.p99", "ms", true),
    /** The busiest event loop's thread, in % of a core, over the same window. */
    CLIENT_CPU_MAX("client.cpu.max", "%", true),
    /**
     * The GPUs' joules per output token over the level (DCGM's energy counter, else its power
     * integrated over the steady window): none without DCGM figures.
     */
    ENERGY_PER_TOKEN("energy.per_token.max", "J/tok", true),
    /**
     * A reasoning model's time to the first output token (after the thinking), over the requests
     * that reasoned: none measured is NaN.
     */
    TTFO_MEAN("ttfo.mean", "ms", true),
    TTFO_MEDIAN("ttfo.median", "ms", true),
    TTFO_P90("ttfo.p90", "ms", true),
    TTFO_P99("ttfo.p99", "ms", true);

    private final String key;
    private final String unit;
    private final boolean upperBound;

    Fixed(String key, String unit, boolean upperBound) {
      this.key = key;
      this.unit = unit;
      this.upperBound = upperBound;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public String unit() {
      return unit;
    }

    @Override
    public boolean upperBound() {
      return upperBound;
    }

    @Override
    public boolean needsGoodput() {
      return this == GOODPUT || this == GOODPUT_PCT;
    }

    @Override
    public String toString() {
      return key;
    }
  }

  /**
   * One of the server's own figures over the level ({@link ServerFigures#KEYS}, from its {@code
   * /metrics}): every one is an upper bound.
   */
  record Server(ServerFigure figure) implements GateMetric {
    public Server {
      if (!ServerFigures.KEYS.contains(figure)) {
        throw new IllegalArgumentException(
            "not a server figure: " + figure + " (one of " + ServerFigures.KEYS + ")");
      }
    }

    @Override
    public String key() {
      return SERVER_PREFIX + figure.name();
    }

    @Override
    public String unit() {
      return figure.unit();
    }

    @Override
    public boolean upperBound() {
      return true;
    }

    @Override
    public boolean needsGoodput() {
      return false;
    }

    @Override
    public String toString() {
      return key();
    }
  }
}
