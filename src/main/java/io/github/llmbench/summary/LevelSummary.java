package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Intervals;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.TraceLateness;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.TurnLatency;
import io.github.llmbench.core.LatencyFigure;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One level of {@code summary.json} ({@code levels.c8}): vLLM's serving fields, then the kit's
 * blocks.
 *
 * @param figures vLLM's fields, at the level's top
 * @param failures the failures' most frequent reasons ({@code []} when none failed)
 * @param turns TTFT by turn, in multi-turn runs (else null)
 * @param server the server's figures and guards, when its metrics were read (else null)
 * @param traceLateness how late a trace's requests were sent, in trace replays (else null)
 * @param requestGoodput requests/s meeting the goodput objectives, when set (else null)
 * @param goodputPct the share of requests meeting them, in percent, when set (else null)
 * @param trials each trial's figures when the level ran several times ({@code -Dtrials}; else null)
 * @param intervals each figure's interval, when it has one
 * @param client the load generator's own health over the level (null without the probe)
 * @param chunks tokens per chunk and the ITL per token, when chunks carried several tokens (else
 *     null)
 * @param deliveredLoad the load delivered against the asked one (closed and open levels; else null)
 * @param reasoning TTFO and reasoning tokens, when some requests thought first (else null)
 * @param finishReasons how many completed requests ended with each {@code finish_reason}, when
 *     their streams said one (else null)
 * @param ramp a ramp level over time and where its latency broke (else null)
 * @param endpoints vLLM's fields per server, when the run sent to several (else null)
 * @param models vLLM's fields per model, when the run mixed several (else null)
 * @param sessions the agent sessions' task figures, in session runs (else null)
 * @param energy the GPUs' energy per output token, from DCGM's figures (else null)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LevelSummary(
    @JsonUnwrapped ServingFigures figures,
    SteadyStateFigures steadyState,
    RooflineFigures roofline,
    List<FailureCount> failures,
    List<TurnFigures> turns,
    ServerLevelFigures server,
    TraceLatenessFigures traceLateness,
    Double requestGoodput,
    Double goodputPct,
    List<TrialFigures> trials,
    Map<String, FigureInterval> intervals,
    ClientFigures client,
    ChunkFigures chunks,
    DeliveredFigures deliveredLoad,
    ReasoningFigures reasoning,
    Map<String, Integer> finishReasons,
    RampFigures ramp,
    Map<String, ServingFigures> endpoints,
    Map<String, ServingFigures> models,
    SessionsFigures sessions,
    LevelEnergy energy) {

  public LevelSummary {
    failures = failures == null ? List.of() : List.copyOf(failures);
  }

  /** A level's summary from its analysis; the goodput is added by {@link #withGoodput}. */
  public static LevelSummary of(RunAnalysis.Level l, RunAnalysis a) {
    return builder()
        .figures(ServingFigures.of(l.serving()))
        .steadyState(
            SteadyStateFigures.of(l.steady(), a.percentiles(), l.serving().endpointFigures()))
        .roofline(RooflineFigures.of(l, a))
        .failures(failures(l.failures()))
        .turns(l.turns().isEmpty() ? null : turns(l.turns()))
        .server(
            l.server().isEmpty()
                ? null
                : new ServerLevelFigures(
                    l.server().level(), l.server().steady(), l.server().guards()))
        .traceLateness(l.lateness().isEmpty() ? null : lateness(l.lateness()))
        .trials(
            l.trials().isEmpty()
                ? null
                : l.trials().trials().stream().map(TrialFigures::of).toList())
        .intervals(intervals(l.samples()))
        .client(ClientFigures.of(l.client(), l.name()))
        .chunks(ChunkFigures.of(l.chunks()))
        .deliveredLoad(DeliveredFigures.of(l.delivered(), l.name()))
        .reasoning(ReasoningFigures.of(l.reasoning()))
        .finishReasons(l.ends().byReason().isEmpty() ? null : l.ends().byReason())
        .ramp(RampFigures.of(l.ramp()))
        .endpoints(figures(l.routes().byEndpoint()))
        .models(figures(l.routes().byModel()))
        .sessions(SessionsFigures.of(l.sessions()))
        .energy(LevelEnergy.of(l.energy()))
        .build();
  }

  private static Map<String, ServingFigures> figures(Map<String, ServingMetrics> by) {
    if (by.isEmpty()) {
      return null;
    }
    Map<String, ServingFigures> out = new LinkedHashMap<>();
    by.forEach((k, m) -> out.put(k, ServingFigures.of(m)));
    return out;
  }

  /**
   * A level of vLLM's figures and the kit's steady state and roofline alone (a file's top level).
   */
  static LevelSummary ofFigures(
      ServingFigures figures, SteadyStateFigures steadyState, RooflineFigures roofline) {
    return builder().figures(figures).steadyState(steadyState).roofline(roofline).build();
  }

  /** This level with its goodput. */
  public LevelSummary withGoodput(LevelGoodput g) {
    return toBuilder().requestGoodput(g.perSecond()).goodputPct(g.pct()).build();
  }

  /** A level's blocks, set by name; what is not set stays absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** This level's blocks, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.figures = figures;
    b.steadyState = steadyState;
    b.roofline = roofline;
    b.failures = failures;
    b.turns = turns;
    b.server = server;
    b.traceLateness = traceLateness;
    b.requestGoodput = requestGoodput;
    b.goodputPct = goodputPct;
    b.trials = trials;
    b.intervals = intervals;
    b.client = client;
    b.chunks = chunks;
    b.deliveredLoad = deliveredLoad;
    b.reasoning = reasoning;
    b.finishReasons = finishReasons;
    b.ramp = ramp;
    b.endpoints = endpoints;
    b.models = models;
    b.sessions = sessions;
    b.energy = energy;
    return b;
  }

  /** {@link LevelSummary} by name. */
  public static final class Builder {
    private ServingFigures figures;
    private SteadyStateFigures steadyState;
    private RooflineFigures roofline;
    private List<FailureCount> failures;
    private List<TurnFigures> turns;
    private ServerLevelFigures server;
    private TraceLatenessFigures traceLateness;
    private Double requestGoodput;
    private Double goodputPct;
    private List<TrialFigures> trials;
    private Map<String, FigureInterval> intervals;
    private ClientFigures client;
    private ChunkFigures chunks;
    private DeliveredFigures deliveredLoad;
    private ReasoningFigures reasoning;
    private Map<String, Integer> finishReasons;
    private RampFigures ramp;
    private Map<String, ServingFigures> endpoints;
    private Map<String, ServingFigures> models;
    private SessionsFigures sessions;
    private LevelEnergy energy;

    private Builder() {}

    public Builder figures(ServingFigures v) {
      figures = v;
      return this;
    }

    public Builder steadyState(SteadyStateFigures v) {
      steadyState = v;
      return this;
    }

    public Builder roofline(RooflineFigures v) {
      roofline = v;
      return this;
    }

    public Builder failures(List<FailureCount> v) {
      failures = v;
      return this;
    }

    public Builder turns(List<TurnFigures> v) {
      turns = v;
      return this;
    }

    public Builder server(ServerLevelFigures v) {
      server = v;
      return this;
    }

    public Builder traceLateness(TraceLatenessFigures v) {
      traceLateness = v;
      return this;
    }

    public Builder requestGoodput(Double v) {
      requestGoodput = v;
      return this;
    }

    public Builder goodputPct(Double v) {
      goodputPct = v;
      return this;
    }

    public Builder trials(List<TrialFigures> v) {
      trials = v;
      return this;
    }

    public Builder intervals(Map<String, FigureInterval> v) {
      intervals = v;
      return this;
    }

    public Builder client(ClientFigures v) {
      client = v;
      return this;
    }

    public Builder chunks(ChunkFigures v) {
      chunks = v;
      return this;
    }

    public Builder deliveredLoad(DeliveredFigures v) {
      deliveredLoad = v;
      return this;
    }

    public Builder reasoning(ReasoningFigures v) {
      reasoning = v;
      return this;
    }

    public Builder finishReasons(Map<String, Integer> v) {
      finishReasons = v;
      return this;
    }

    public Builder ramp(RampFigures v) {
      ramp = v;
      return this;
    }

    public Builder endpoints(Map<String, ServingFigures> v) {
      endpoints = v;
      return this;
    }

    public Builder models(Map<String, ServingFigures> v) {
      models = v;
      return this;
    }

    public Builder sessions(SessionsFigures v) {
      sessions = v;
      return this;
    }

    public Builder energy(LevelEnergy v) {
      energy = v;
      return this;
    }

    public LevelSummary build() {
      return new LevelSummary(
          figures,
          steadyState,
          roofline,
          failures,
          turns,
          server,
          traceLateness,
          requestGoodput,
          goodputPct,
          trials,
          intervals,
          client,
          chunks,
          deliveredLoad,
          reasoning,
          finishReasons,
          ramp,
          endpoints,
          models,
          sessions,
          energy);
    }
  }

  private static Map<String, FigureInterval> intervals(LevelSamples samples) {
    Map<String, FigureInterval> out = new LinkedHashMap<>();
    samples
        .figures()
        .forEach(
            (field, values) -> {
              Interval i = Intervals.acrossTrials(values, LevelSamples.CONFIDENCE);
              if (i.isKnown()) {
                out.put(field, FigureInterval.of(i));
              }
            });
    return out.isEmpty() ? null : out;
  }

  /**
   * What this level's figures are judged on, as the run that wrote it had them ({@link
   * LevelSamples}): each trial's figures, or for a level that ran once its figures with their
   * within-run intervals.
   */
  public LevelSamples samples() {
    Map<String, ToDoubleFunction<ServingFigures>> read = new LinkedHashMap<>();
    for (LatencyFigure f : figures.latencyFigures()) {
      read.put(f.summaryField(), s -> s.latency(f));
    }
    read.put(LevelSamples.OUTPUT_THROUGHPUT, ServingFigures::outputThroughput);
    Map<String, TrialValues> out = new LinkedHashMap<>();
    if (trials != null && trials.size() > 1) {
      read.forEach(
          (field, f) ->
              LevelSamples.putTrials(
                  out,
                  field,
                  trials.stream().mapToDouble(t -> f.applyAsDouble(t.figures())).toArray()));
      LevelSamples.putTrials(
          out,
          LevelSamples.STEADY_OUTPUT_THROUGHPUT,
          trials.stream()
              .mapToDouble(
                  t -> t.steadyOutputThroughput() == null ? Double.NaN : t.steadyOutputThroughput())
              .toArray());
      return new LevelSamples(out);
    }
    read.forEach((field, f) -> single(out, field, f.applyAsDouble(figures)));
    single(out, LevelSamples.STEADY_OUTPUT_THROUGHPUT, steadyOutputThroughput());
    return new LevelSamples(out);
  }

  private void single(Map<String, TrialValues> out, String field, double value) {
    FigureInterval within = intervals == null ? null : intervals.get(field);
    LevelSamples.putSingle(
        out,
        field,
        value,
        within != null && within.basis().equals(WITHIN_RUN) ? within.interval() : null);
  }

  private static final String WITHIN_RUN =
      Interval.Basis.WITHIN_RUN.name().toLowerCase(Locale.ROOT);

  /** The steady window's output tok/s; NaN when the level never reached its steady state. */
  public double steadyOutputThroughput() {
    return steadyState == null || !steadyState.reached()
        ? Double.NaN
        : steadyState.outputThroughput();
  }

  private static List<FailureCount> failures(FailureReasons f) {
    return f.top().stream().map(r -> new FailureCount(r.error(), r.count())).toList();
  }

  private static List<TurnFigures> turns(TurnLatency t) {
    return t.rows().stream()
        .map(
            r ->
                new TurnFigures(
                    r.turn(),
                    r.completed(),
                    r.failed(),
                    finite(r.meanInputTokens()),
                    finite(r.ttftMeanMs()),
                    finite(r.ttftMedianMs()),
                    finite(r.ttftP99Ms())))
        .toList();
  }

  private static TraceLatenessFigures lateness(TraceLateness t) {
    return new TraceLatenessFigures(
        t.requests(), finite(t.medianMs()), finite(t.p99Ms()), finite(t.maxMs()));
  }

  /** A figure, or null where there is none (JSON has no NaN). */
  static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
