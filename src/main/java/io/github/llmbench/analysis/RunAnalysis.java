package io.github.llmbench.analysis;

import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.core.Level.Closed;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.ServerSample;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the report shows, computed from a run's records: per level the serving metrics, the
 * steady state, the roofline and the reasons of its failures; the whole run's serving metrics; the
 * ladder's knee. Pure.
 *
 * <p>The warmup's records are left out of everything. A level's configured concurrency is the
 * caller's map entry, else a closed-model level's own ({@code c128}: 128), else unknown (the steady
 * state then uses the observed peak).
 *
 * @param records the records analysed (warmup left out)
 * @param levels per level, in the order the levels started
 * @param overall the serving metrics of all analysed records
 * @param knee the ladder's verdicts
 * @param model the model spec, null when none was given
 * @param gpu the GPU spec, null when none was given
 * @param tp tensor-parallel GPUs
 * @param percentiles the latency percentiles reported and computed ({@code -Dpercentiles})
 */
public record RunAnalysis(
    List<RequestRecord> records,
    Map<String, Level> levels,
    ServingMetrics overall,
    Knee.Result knee,
    ModelSpec model,
    GpuSpec gpu,
    int tp,
    ServerFigures.Series serverSeries,
    ReportedPercentiles percentiles) {

  /**
   * One level.
   *
   * @param name level name
   * @param concurrency configured concurrency, null when unknown
   * @param serving vLLM's serving metrics of the level
   * @param steady the steady state
   * @param roofline null when skipped
   * @param rooflineNote why the roofline was skipped, null when it was not
   * @param failures why the level's requests failed, the {@value FailureReasons#TOP} most frequent
   *     reasons
   * @param turns TTFT by turn of a multi-turn run (empty otherwise)
   * @param lateness how late a trace replay sent its requests (empty otherwise)
   * @param server what the server's metrics said of the level ({@link ServerFigures#NONE} without)
   * @param trials each trial's figures when the level ran several times ({@link Trials#NONE} when
   *     once)
   * @param samples what its figures are judged on: the trials' values, or one value with its
   *     interval over the level's requests
   * @param client the load generator's own health over the level ({@link ClientHealth#NONE} without
   *     its probe's samples)
   * @param ramp a ramp level over time and where its latency broke ({@link RampWindows#NONE} for
   *     other levels)
   * @param routes its figures per server and per model, when the run spread its requests ({@link
   *     Routes#NONE} else)
   * @param sessions its agent sessions' task figures ({@link SessionFigures#NONE} outside sessions)
   * @param energy the GPUs' energy per output token, from DCGM ({@link EnergyFigures#NONE} without)
   */
  public record Level(
      String name,
      Integer concurrency,
      ServingMetrics serving,
      SteadyState steady,
      Roofline roofline,
      String rooflineNote,
      FailureReasons failures,
      TurnLatency turns,
      TraceLateness lateness,
      ServerFigures server,
      Trials trials,
      LevelSamples samples,
      ClientHealth client,
      ChunkTokens chunks,
      DeliveredLoad delivered,
      ReasoningStats reasoning,
      AnswerEnds ends,
      RampWindows ramp,
      Routes routes,
      SessionFigures sessions,
      EnergyFigures energy) {}

  /**
   * The server's metrics of the run, and the load generator's own.
   *
   * @param servedModel the model the run sent to (other models behind the same URL are left out)
   * @param client the client probe's samples (empty without them)
   */
  public record Telemetry(
      List<ServerSample> samples,
      String servedModel,
      List<ClientSample> client,
      PrefixSharing prefixes) {
    public static final Telemetry NONE = new Telemetry(List.of(), null, List.of());

    public Telemetry(List<ServerSample> samples, String servedModel, List<ClientSample> client) {
      this(samples, servedModel, client, PrefixSharing.NONE);
    }

    /** The server's metrics alone. */
    public Telemetry(List<ServerSample> samples, String servedModel) {
      this(samples, servedModel, List.of());
    }
  }

  public RunAnalysis {
    records = List.copyOf(records);
    levels = Collections.unmodifiableMap(new LinkedHashMap<>(levels));
  }

  /**
   * The configured concurrency of level {@code name}, {@code anyOfLevel}'s: the map's entry, else a
   * closed-model level's concurrency, else null.
   */
  private static Integer concurrencyOf(
      String name, RequestRecord anyOfLevel, Map<String, Integer> concurrencyByLevel) {
    Integer c = concurrencyByLevel == null ? null : concurrencyByLevel.get(name);
    if (c != null && c > 0) {
      return c;
    }
    return anyOfLevel.loadLevel().orElse(null) instanceof Closed closed
        ? Integer.valueOf(closed.conc())
        : null;
  }

  /**
   * The figures the run's requests have, from their endpoint: a pooling run's (embeddings, {@link
   * Figures#POOLED}) blocks, summary and page show E2EL, input tokens and request rates only, and
   * its ladder is judged on input tok/s.
   */
  public Figures figures() {
    return overall.endpointFigures();
  }

  /** True for the warmup's records, which every figure leaves out. */
  public static boolean isWarmup(RequestRecord r) {
    return r.loadLevel().map(level -> !level.measured()).orElse(false);
  }

  /**
   * What a run's analysis reads, set by name ({@link #builder}); everything but the records has a
   * default.
   */
  public static final class Inputs {
    private final List<RequestRecord> records;
    private final Telemetry telemetry;
    private final Map<String, Integer> concurrencyByLevel;
    private final Map<String, double[]> arrivalsByLevel;
    private final Map<String, RampWindows.Timing> ramps;
    private final ModelSpec model;
    private final GpuSpec gpu;
    private final int tp;
    private final String rooflineHint;
    private final ReportedPercentiles percentiles;

    private Inputs(Builder b) {
      if (b.tp < 1) {
        throw new IllegalArgumentException("tp must be at least 1: " + b.tp);
      }
      this.records = b.records;
      this.telemetry = b.telemetry;
      this.concurrencyByLevel = b.concurrencyByLevel;
      this.arrivalsByLevel = b.arrivalsByLevel;
      this.ramps = b.ramps;
      this.model = b.model;
      this.gpu = b.gpu;
      this.tp = b.tp;
      this.rooflineHint = b.rooflineHint;
      this.percentiles = b.percentiles;
    }

    /** The inputs of an analysis of these records, the run's warmup included (it is dropped). */
    public static Builder builder(List<RequestRecord> allRecords) {
      return new Builder(allRecords);
    }

    /** The values of {@link Inputs}; see each setter for its default. */
    public static final class Builder {
      private final List<RequestRecord> records;
      private Telemetry telemetry = Telemetry.NONE;
      private Map<String, Integer> concurrencyByLevel = Map.of();
      private Map<String, double[]> arrivalsByLevel = Map.of();
      private Map<String, RampWindows.Timing> ramps = Map.of();
      private ModelSpec model;
      private GpuSpec gpu;
      private int tp = 1;
      private String rooflineHint = "";
      private ReportedPercentiles percentiles = ReportedPercentiles.DEFAULT;

      private Builder(List<RequestRecord> records) {
        this.records = records;
      }

      /** The server's and client's metrics over the run; default none. */
      public Builder telemetry(Telemetry telemetry) {
        this.telemetry = telemetry;
        return this;
      }

      /** The configured concurrency per level; default none known. */
      public Builder concurrencyByLevel(Map<String, Integer> concurrency) {
        this.concurrencyByLevel = concurrency;
        return this;
      }

      /**
       * The arrival schedule of each open level that ran once (each arrival's time from the level's
       * start, in s), for its delivered load; default none.
       */
      public Builder arrivalsByLevel(Map<String, double[]> arrivals) {
        this.arrivalsByLevel = arrivals;
        return this;
      }

      /**
       * How each ramp level was timed; a ramp without one (default: all) is timed by its sends and
       * its schedule.
       */
      public Builder ramps(Map<String, RampWindows.Timing> ramps) {
        this.ramps = ramps;
        return this;
      }

      /** The served model's spec; null (default) skips the roofline. */
      public Builder model(ModelSpec model) {
        this.model = model;
        return this;
      }

      /** The GPU's spec; null (default) skips the roofline. */
      public Builder gpu(GpuSpec gpu) {
        this.gpu = gpu;
        return this;
      }

      /** Tensor-parallel GPUs, at least 1 (default). */
      public Builder tp(int tp) {
        this.tp = tp;
        return this;
      }

      /** The sentence telling how to give a model and GPU, used when one is missing. */
      public Builder rooflineHint(String hint) {
        this.rooflineHint = hint;
        return this;
      }

      /** The percentiles every latency is given at; default {@link ReportedPercentiles#DEFAULT}. */
      public Builder percentiles(ReportedPercentiles percentiles) {
        this.percentiles = percentiles;
        return this;
      }

      /**
       * The inputs.
       *
       * @throws IllegalArgumentException for a tp below 1
       */
      public Inputs build() {
        return new Inputs(this);
      }
    }
  }

  /** Analyses a run. */
  public static RunAnalysis of(Inputs inputs) {
    List<RequestRecord> records = withoutWarmup(inputs.records);
    ServerFigures.Series series =
        ServerFigures.Series.of(
            inputs.telemetry.samples(),
            inputs.telemetry.servedModel()); // indexed once, read by every level
    Map<String, Level> levels = levels(records, inputs, series);
    Integer overallC = levels.size() == 1 ? levels.values().iterator().next().concurrency() : null;
    ServingMetrics overall =
        ServingMetricsCalculator.compute(records, overallC, inputs.percentiles);
    return new RunAnalysis(
        records,
        levels,
        overall,
        knee(levels.values()),
        inputs.model,
        inputs.gpu,
        inputs.tp,
        series,
        inputs.percentiles);
  }

  private static List<RequestRecord> withoutWarmup(List<RequestRecord> allRecords) {
    List<RequestRecord> records = new ArrayList<>();
    for (RequestRecord r : allRecords) {
      if (!isWarmup(r)) {
        records.add(r);
      }
    }
    return records;
  }

  /** Each level's analysis, in the order the levels started. */
  private static Map<String, Level> levels(
      List<RequestRecord> records, Inputs inputs, ServerFigures.Series series) {
    Map<String, Level> levels = new LinkedHashMap<>();
    ServingMetricsCalculator.byLevel(records)
        .forEach(
            (name, recs) -> levels.put(name, level(name, recs, levels.isEmpty(), inputs, series)));
    return levels;
  }

  /** One level's analysis ({@code first}: the run's first level, for the ideal prefix hit rate). */
  private static Level level(
      String name,
      List<RequestRecord> recs,
      boolean first,
      Inputs inputs,
      ServerFigures.Series series) {
    ReportedPercentiles percentiles = inputs.percentiles;
    Integer c = concurrencyOf(name, recs.get(0), inputs.concurrencyByLevel);
    Trials trials = Trials.of(recs, c, percentiles);
    ServingMetrics serving = trials.level(ServingMetricsCalculator.compute(recs, c, percentiles));
    SteadyState steady =
        trials.isEmpty()
            ? SteadyState.compute(recs, c, percentiles.computed())
            : trials.steady(null);
    Span span = Span.of(recs); // byLevel gives no level without records
    Double ideal = inputs.telemetry.prefixes().idealHitRate(recs, first);
    ServerFigures server = serverFigures(series, name, span, serving, steady, ideal);
    RooflineOutcome roofline = roofline(inputs, serving, steady, server.prefixCacheHitRate());
    return new Level(
        name,
        c,
        serving,
        steady,
        roofline.roofline(),
        roofline.note(),
        FailureReasons.of(recs, FailureReasons.TOP),
        TurnLatency.of(recs),
        TraceLateness.of(recs),
        server,
        trials,
        trials.isEmpty()
            ? LevelSamples.ofOneRun(recs, serving, steady)
            : LevelSamples.ofTrials(trials),
        clientHealth(inputs.telemetry.client(), span, steady),
        ChunkTokens.of(recs),
        delivered(name, recs, c, steady, inputs.arrivalsByLevel, trials),
        ReasoningStats.of(recs),
        AnswerEnds.of(recs),
        ramp(recs, inputs.ramps.get(name), inputs.arrivalsByLevel.get(name), trials),
        Routes.of(recs, percentiles),
        SessionFigures.of(recs),
        series.isEmpty()
            ? EnergyFigures.NONE
            : EnergyFigures.of(
                series,
                span.startMs(),
                span.endMs(),
                serving.totalOutputTokens(),
                steady.reached() ? steady.windowStartMs() : 0,
                steady.reached() ? steady.windowEndMs() : 0,
                steady.reached() ? steady.outputThroughput() : Double.NaN));
  }

  /**
   * A level's roofline, or why it was skipped.
   *
   * @param roofline null when skipped
   * @param note why it was skipped, null when it was not
   */
  private record RooflineOutcome(Roofline roofline, String note) {
    static RooflineOutcome skipped(String note) {
      return new RooflineOutcome(null, note);
    }
  }

  private static RooflineOutcome roofline(
      Inputs inputs, ServingMetrics serving, SteadyState steady, Double hitRate) {
    ModelSpec model = inputs.model;
    GpuSpec gpu = inputs.gpu;
    if (!serving.endpointFigures().generates()) {
      return RooflineOutcome.skipped(
          "Roofline skipped: it models decoding, and an embeddings level decodes nothing.");
    }
    if (model == null || gpu == null) {
      return RooflineOutcome.skipped(
          "Roofline skipped: no "
              + (model == null && gpu == null ? "model or GPU" : model == null ? "model" : "GPU")
              + " spec. "
              + inputs.rooflineHint);
    }
    if (!steady.reached() || steady.meanInFlight() <= 0) {
      return RooflineOutcome.skipped(
          "Roofline skipped: the level has no steady window (in flight never reached"
              + " "
              + steady.threshold()
              + ").");
    }
    return new RooflineOutcome(
        Roofline.compute(
            model,
            gpu,
            inputs.tp,
            steady.meanInFlight(),
            steady.meanContextTokens(),
            steady.meanPromptTokens(),
            steady.outputThroughput(),
            steady.inputThroughput(),
            hitRate),
        null);
  }

  /** A ramp level's windows (timed from its schedule's first arrival when it ran once). */
  private static RampWindows ramp(
      List<RequestRecord> recs, RampWindows.Timing timing, double[] arrivals, Trials trials) {
    RampWindows.Timing t = timing == null ? RampWindows.Timing.UNKNOWN : timing;
    if (Double.isNaN(t.leadSeconds())
        && arrivals != null
        && arrivals.length > 0
        && trials.isEmpty()) {
      t = new RampWindows.Timing(t.seconds(), arrivals[0]);
    }
    return RampWindows.of(recs, t);
  }

  private static DeliveredLoad delivered(
      String name,
      List<RequestRecord> recs,
      Integer conc,
      SteadyState steady,
      Map<String, double[]> arrivalsByLevel,
      Trials trials) {
    double[] arrivals = arrivalsByLevel.get(name);
    if (arrivals != null && trials.isEmpty()) {
      return DeliveredLoad.open(arrivals, recs);
    }
    if (conc != null && recs.get(0).loadLevel().orElse(null) instanceof Closed) {
      return DeliveredLoad.closed(conc, steady, recs);
    }
    return DeliveredLoad.NONE;
  }

  /** A level's time: its first send to its last end (epoch ms). */
  private record Span(long startMs, long endMs) {
    static Span of(List<RequestRecord> recs) {
      return new Span(
          recs.stream().mapToLong(RequestRecord::startMs).min().orElse(0),
          recs.stream().mapToLong(RequestRecord::endMs).max().orElse(0));
    }
  }

  private static ClientHealth clientHealth(
      List<ClientSample> samples, Span span, SteadyState steady) {
    if (samples.isEmpty()) {
      return ClientHealth.NONE;
    }
    return steady.reached()
        ? ClientHealth.of(
            samples, span.startMs(), span.endMs(), steady.windowStartMs(), steady.windowEndMs())
        : ClientHealth.of(samples, span.startMs(), span.endMs(), 0, 0);
  }

  private static ServerFigures serverFigures(
      ServerFigures.Series series,
      String level,
      Span span,
      ServingMetrics serving,
      SteadyState steady,
      Double idealHitRate) {
    if (series.isEmpty()) {
      return ServerFigures.NONE;
    }
    return ServerFigures.of(
        series,
        level,
        span.startMs(),
        span.endMs(),
        steady.reached() ? steady.windowStartMs() : 0,
        steady.reached() ? steady.windowEndMs() : 0,
        // cancelled requests took tokens the client never counted: no mismatch to judge
        serving.cancelled() > 0 ? 0 : serving.totalOutputTokens(),
        idealHitRate);
  }

  private static boolean isImageStep(Level l) {
    return io.github.llmbench.core.Level.parse(l.name())
        .filter(x -> x.images().isPresent())
        .isPresent();
  }

  /**
   * The ladder's verdicts: the steady-state output throughput when every level has a steady window
   * (it leaves out the ramp-up and the drain), else every level's whole output throughput.
   */
  static Knee.Result knee(Collection<Level> levels) {
    boolean steady = !levels.isEmpty();
    for (Level l : levels) {
      steady &= l.steady().reached() && l.steady().windowS() > 0;
    }
    List<Knee.Point> points = new ArrayList<>();
    for (Level l : levels) {
      if (isImageStep(l)) {
        continue; // a ladder over images, at one load: ImageLadder's
      }
      int c = l.concurrency() != null ? l.concurrency() : l.steady().concurrency();
      // a pooling level's work is its input: its tokens per second are its throughput
      double out =
          l.serving().endpointFigures().generates()
              ? (steady ? l.steady().outputThroughput() : l.serving().outputThroughput())
              : steady ? l.steady().inputThroughput() : l.serving().inputThroughput();
      points.add(
          new Knee.Point(
              l.name(),
              c,
              out,
              l.serving().tpot().mean(),
              l.serving().ttft().p99(),
              l.serving().e2el().mean(),
              l.steady().ttftTrend()));
    }
    return Knee.analyse(points, steady ? Knee.STEADY_BASIS : Knee.WHOLE_LEVEL_BASIS);
  }
}
