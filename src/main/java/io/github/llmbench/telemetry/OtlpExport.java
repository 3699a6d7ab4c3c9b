package io.github.llmbench.telemetry;

import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import io.github.llmbench.records.RunRecorder;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongUpDownCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client's live figures pushed over OTLP/HTTP ({@code -Dexport.otlp}) by OpenTelemetry's SDK,
 * to an OpenTelemetry Collector or any OTLP receiver (Prometheus's among them): the figures {@link
 * LiveMetrics} serves, as instruments whose names Prometheus's OTLP receiver turns into the same
 * series names ({@code llmbench.ttft} in {@code s}: {@code llmbench_ttft_seconds}). Histograms
 * {@code llmbench.ttft}, {@code llmbench.tpot}, {@code llmbench.itl}, {@code llmbench.e2el} with
 * vLLM's buckets; the counter {@code llmbench.requests} by {@code outcome}; the up-down counter
 * {@code llmbench.requests.in_flight}; gauges {@code llmbench.level.info}, {@code
 * llmbench.trial.info}, {@code llmbench.client.loop_lag} and {@code llmbench.client.cpu_ratio}.
 * Every point carries {@code level}, {@code model} and {@code endpoint}, but the client's own
 * health, which is the process's, not a level's.
 *
 * <p>With spans ({@code -Dexport.otlp.spans}), each finished request also becomes one span, built
 * after the fact from its record: from its send time to that plus its E2EL, an event {@code
 * first_token} at its TTFT, status ERROR with the reason for a failed one, attributes after
 * OpenTelemetry's GenAI conventions and the {@code x-request-id} the kit sent, so a server's trace
 * of the same request can be found.
 *
 * <p>The SDK pushes on threads of its own; the listener's calls only record into its instruments.
 * {@link #close()} pushes what is left and says on the console where it went.
 */
public final class OtlpExport implements RunRecorder.Listener, AutoCloseable {

  /** The name of the kit's meter and tracer. */
  static final String SCOPE = "io.github.llmbench";

  /** The service every point and span belongs to. */
  static final String SERVICE_NAME = "gatling-llm-bench";

  static final AttributeKey<String> LEVEL = AttributeKey.stringKey("level");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");
  static final AttributeKey<String> TRIAL = AttributeKey.stringKey("trial");
  static final AttributeKey<String> GEN_AI_OPERATION =
      AttributeKey.stringKey("gen_ai.operation.name");
  static final AttributeKey<String> GEN_AI_MODEL = AttributeKey.stringKey("gen_ai.request.model");
  static final AttributeKey<Long> GEN_AI_INPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.input_tokens");
  static final AttributeKey<Long> GEN_AI_OUTPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.output_tokens");
  static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("llmbench.request_id");
  static final AttributeKey<String> SPAN_LEVEL = AttributeKey.stringKey("llmbench.level");
  static final AttributeKey<String> SPAN_OUTCOME = AttributeKey.stringKey("llmbench.outcome");
  static final AttributeKey<Long> SPAN_TRIAL = AttributeKey.longKey("llmbench.trial");

  /** The span's event at the first token. */
  static final String FIRST_TOKEN = "first_token";

  /**
   * Spans held for the next push; more are dropped (and the last line says how many arrived). The
   * SDK's 2,048 fill in 2 s at 1,000 requests a second; this many hold the SDK's 5 s between pushes
   * at three times that rate.
   */
  private static final int SPAN_QUEUE = 16_384;

  /** Spans per push, the SDK's 512 four times: fewer pushes at high rates. */
  private static final int SPAN_BATCH = 2_048;

  /** How long the last push may take at the run's end, per signal. */
  private static final long FINAL_PUSH_SECONDS = 15;

  /** Where to push, how often, and whether spans too. */
  public record Destination(URI url, Duration interval, boolean spans) {
    URI metrics() {
      return URI.create(url + "/v1/metrics");
    }

    URI traces() {
      return URI.create(url + "/v1/traces");
    }
  }

  /** One level's attribute sets, made once, and the trial it is in. */
  private static final class LevelState {
    final String name;
    final Attributes points;
    final Attributes ok;
    final Attributes failed;
    final Attributes cancelled;
    volatile int trial;

    LevelState(String name, Attributes labels) {
      this.name = name;
      this.points = labels.toBuilder().put(LEVEL, name).build();
      this.ok = points.toBuilder().put(OUTCOME, "ok").build();
      this.failed = points.toBuilder().put(OUTCOME, "failed").build();
      this.cancelled = points.toBuilder().put(OUTCOME, "cancelled").build();
    }
  }

  private final Destination destination;
  private final PrintStream out;
  private final SdkMeterProvider meters;
  private final SdkTracerProvider tracers;
  private final Tracer tracer;
  private final Attributes labels;
  private final String model;
  private final String operation;
  private final LongCounter requests;
  private final LongUpDownCounter inFlight;
  private final DoubleHistogram ttft;
  private final DoubleHistogram tpot;
  private final DoubleHistogram itl;
  private final DoubleHistogram e2el;
  private final Map<String, LevelState> levels = new ConcurrentHashMap<>();
  private final AtomicLong spansEnded = new AtomicLong();
  private final PushCount metricPushes = new PushCount();
  private final PushCount spanPushes = new PushCount();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile String currentLevel = "";
  private volatile LatestClientHealth clientHealth = LatestClientHealth.UNKNOWN;

  private OtlpExport(Destination destination, Map<String, String> labels, PrintStream out) {
    this.destination = destination;
    this.out = out;
    this.model = labels.getOrDefault("model", "");
    this.operation = operation(labels.getOrDefault("endpoint", ""));
    var b = Attributes.builder();
    labels.forEach(b::put);
    this.labels = b.build();
    Resource resource = Resource.getDefault().toBuilder().put("service.name", SERVICE_NAME).build();
    this.meters = meters(destination, resource, metricPushes);
    this.tracers = destination.spans() ? tracers(destination, resource, spanPushes) : null;
    this.tracer = tracers == null ? null : tracers.get(SCOPE);
    Meter meter = meters.get(SCOPE);
    this.requests =
        meter.counterBuilder("llmbench.requests").setDescription("Requests finished").build();
    this.inFlight =
        meter
            .upDownCounterBuilder("llmbench.requests.in_flight")
            .setDescription("Requests sent and not finished")
            .build();
    this.ttft = histogram(meter, "llmbench.ttft", "Time to first token", LiveMetrics.TTFT_BUCKETS);
    this.tpot =
        histogram(
            meter,
            "llmbench.tpot",
            "Time per output token after the first",
            LiveMetrics.TOKEN_BUCKETS);
    this.itl =
        histogram(
            meter, "llmbench.itl", "Inter-token latency, per chunk gap", LiveMetrics.TOKEN_BUCKETS);
    this.e2el =
        histogram(meter, "llmbench.e2el", "End-to-end request latency", LiveMetrics.E2EL_BUCKETS);
    gauges(meter);
  }

  /**
   * Starts pushing to {@code destination}; nothing is sent before the first interval ends.
   *
   * @param labels attributes every point carries ({@code model}, {@code endpoint})
   * @param out where {@link #close()} says what it pushed
   */
  public static OtlpExport start(
      Destination destination, Map<String, String> labels, PrintStream out) {
    return new OtlpExport(destination, labels, out);
  }

  private static SdkMeterProvider meters(
      Destination destination, Resource resource, PushCount pushes) {
    OtlpHttpMetricExporter exporter =
        OtlpHttpMetricExporter.builder().setEndpoint(destination.metrics().toString()).build();
    return SdkMeterProvider.builder()
        .setResource(resource)
        // the SDK's own figures (otel.sdk.*) are not the run's: kept out of the user's backend
        .registerView(
            InstrumentSelector.builder().setName("otel.*").build(),
            View.builder().setAggregation(Aggregation.drop()).build())
        .registerMetricReader(
            PeriodicMetricReader.builder(pushes.counting(exporter))
                .setInterval(destination.interval())
                .build())
        .build();
  }

  private static SdkTracerProvider tracers(
      Destination destination, Resource resource, PushCount pushes) {
    OtlpHttpSpanExporter exporter =
        OtlpHttpSpanExporter.builder().setEndpoint(destination.traces().toString()).build();
    return SdkTracerProvider.builder()
        .setResource(resource)
        .addSpanProcessor(
            BatchSpanProcessor.builder(pushes.counting(exporter))
                .setMaxQueueSize(SPAN_QUEUE)
                .setMaxExportBatchSize(SPAN_BATCH)
                .build())
        .build();
  }

  private static DoubleHistogram histogram(
      Meter meter, String name, String description, double[] buckets) {
    return meter
        .histogramBuilder(name)
        .setUnit("s")
        .setDescription(description + ", of requests that completed")
        .setExplicitBucketBoundariesAdvice(Arrays.stream(buckets).boxed().toList())
        .build();
  }

  /** The gauges, read at each push: the level sending, its trial, the client's health. */
  private void gauges(Meter meter) {
    meter
        .gaugeBuilder("llmbench.level.info")
        .setDescription("The level now sending (1), the others 0")
        .ofLongs()
        .buildWithCallback(
            m -> levels.values().forEach(l -> m.record(sending(l) ? 1 : 0, l.points)));
    meter
        .gaugeBuilder("llmbench.trial.info")
        .setDescription("The trial each level is in (-Dtrials), 1 if sending")
        .ofLongs()
        .buildWithCallback(
            m ->
                levels.values().stream()
                    .filter(l -> l.trial > 0)
                    .forEach(
                        l ->
                            m.record(
                                sending(l) ? 1 : 0,
                                l.points.toBuilder()
                                    .put(TRIAL, Integer.toString(l.trial))
                                    .build())));
    meter
        .gaugeBuilder("llmbench.client.loop_lag")
        .setUnit("s")
        .setDescription("P99 of how late the client's event loops ran the probe's tasks")
        .buildWithCallback(m -> known(clientHealth.loopLagP99Seconds(), m::record));
    meter
        .gaugeBuilder("llmbench.client.cpu_ratio")
        .setUnit("1")
        .setDescription("The client process's CPU time per core it may use")
        .buildWithCallback(m -> known(clientHealth.cpuRatio(), m::record));
  }

  private boolean sending(LevelState l) {
    return l.name.equals(currentLevel);
  }

  private void known(double v, java.util.function.BiConsumer<Double, Attributes> record) {
    if (!Double.isNaN(v)) {
      record.accept(v, labels);
    }
  }

  /**
   * The GenAI conventions' {@code gen_ai.operation.name} of the kit's endpoint: {@code chat},
   * {@code text_completion}, {@code embeddings}; another endpoint's own id.
   */
  static String operation(String endpoint) {
    return switch (endpoint) {
      case "completions" -> "text_completion";
      case "" -> "chat";
      default -> endpoint;
    };
  }

  private LevelState level(String level) {
    String name = level == null ? "" : level;
    return levels.computeIfAbsent(name, k -> new LevelState(k, labels));
  }

  @Override
  public void started(String level, RequestOrigin origin) {
    LevelState l = level(level);
    int trial = LiveMetrics.trial(origin);
    if (trial > 0) {
      l.trial = trial;
    }
    currentLevel = l.name;
    inFlight.add(1, l.points);
  }

  @Override
  public void finished(RequestRecord r) {
    LevelState l = level(r.level());
    inFlight.add(-1, l.points);
    String outcome = r.cancelled() ? "cancelled" : r.ok() ? "ok" : "failed";
    requests.add(1, r.cancelled() ? l.cancelled : r.ok() ? l.ok : l.failed);
    if (r.ok()) {
      observe(ttft, r.ttftMicros(), l.points);
      observe(tpot, r.tpotMicros(), l.points);
      observe(e2el, r.e2elMicros(), l.points);
      ItlSeries gaps = r.itlMs();
      for (int i = 0; i < gaps.size(); i++) {
        itl.record(gaps.micros(i) / 1e6, l.points);
      }
    }
    if (tracer != null) {
      span(r, l, outcome, LiveMetrics.trial(r.origin()));
    }
  }

  private static void observe(DoubleHistogram h, long micros, Attributes attributes) {
    if (micros != RequestRecord.ABSENT) {
      h.record(micros / 1e6, attributes);
    }
  }

  /** The client probe's latest stretch, pushed until the next one. */
  public void clientSample(ClientSample s) {
    clientHealth = LatestClientHealth.of(s);
  }

  /** The request's span, with its own times: from its send to its end, its first token between. */
  private void span(RequestRecord r, LevelState l, String outcome, int trial) {
    String requestModel = Route.modelOf(r.route()) == null ? model : Route.modelOf(r.route());
    long startNanos = TimeUnit.MILLISECONDS.toNanos(r.startMs());
    long endNanos =
        r.e2elMicros() == RequestRecord.ABSENT
            ? TimeUnit.MILLISECONDS.toNanos(Math.max(r.startMs(), r.endMs()))
            : startNanos + TimeUnit.MICROSECONDS.toNanos(r.e2elMicros());
    SpanBuilder b =
        tracer
            .spanBuilder(operation + " " + requestModel)
            .setNoParent()
            .setSpanKind(SpanKind.CLIENT)
            .setStartTimestamp(startNanos, TimeUnit.NANOSECONDS)
            .setAttribute(GEN_AI_OPERATION, operation)
            .setAttribute(GEN_AI_MODEL, requestModel)
            .setAttribute(REQUEST_ID, r.id())
            .setAttribute(SPAN_LEVEL, l.name)
            .setAttribute(SPAN_OUTCOME, outcome);
    if (r.inputTokens() != null) {
      b.setAttribute(GEN_AI_INPUT_TOKENS, r.inputTokens().longValue());
    }
    if (r.outputTokens() != null) {
      b.setAttribute(GEN_AI_OUTPUT_TOKENS, r.outputTokens().longValue());
    }
    if (trial > 0) {
      b.setAttribute(SPAN_TRIAL, (long) trial);
    }
    Span span = b.startSpan();
    if (r.ttftMicros() != RequestRecord.ABSENT) {
      span.addEvent(
          FIRST_TOKEN,
          startNanos + TimeUnit.MICROSECONDS.toNanos(r.ttftMicros()),
          TimeUnit.NANOSECONDS);
    }
    if (outcome.equals("failed")) {
      span.setStatus(StatusCode.ERROR, r.error() == null ? "failed" : r.error());
    }
    span.end(endNanos, TimeUnit.NANOSECONDS);
    spansEnded.incrementAndGet();
  }

  /**
   * Pushes what is left (the final counts, the spans not sent yet), both at once, stops the SDK's
   * threads, and says on the console where the figures went, or how many pushes failed. Once; later
   * calls do nothing.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    CompletableResultCode lastMetrics = meters.forceFlush();
    CompletableResultCode lastSpans =
        tracers == null ? CompletableResultCode.ofSuccess() : tracers.forceFlush();
    boolean finalCountsSent = finalPush(lastMetrics);
    boolean spansSent = finalPush(lastSpans);
    stop(meters.shutdown(), finalCountsSent);
    if (tracers != null) {
      stop(tracers.shutdown(), spansSent);
    }
    String what =
        tracers == null ? "the client's figures" : "the client's figures and " + spansSaid();
    if (finalCountsSent && metricPushes.failed() == 0 && spanPushes.failed() == 0) {
      out.printf("gatling-llm-bench: pushed %s to %s (OTLP/HTTP)%n", what, destination.url());
    } else {
      out.printf(
          "gatling-llm-bench: pushing %s to %s (OTLP/HTTP) failed: %d of %d metrics pushes, %d of"
              + " %d span pushes%s (the exporter's log says why)%n",
          what,
          destination.url(),
          metricPushes.failed(),
          metricPushes.done(),
          spanPushes.failed(),
          spanPushes.done(),
          finalCountsSent ? "" : "; the final counts did not arrive");
    }
  }

  /** The spans: all of them, or how many of them arrived. */
  private String spansSaid() {
    long ended = spansEnded.get();
    long sent = spanPushes.itemsSent();
    return sent == ended ? ended + " spans" : sent + " of " + ended + " spans";
  }

  private static boolean finalPush(CompletableResultCode result) {
    return result.join(FINAL_PUSH_SECONDS, TimeUnit.SECONDS).isSuccess();
  }

  /**
   * Waits for a shutdown, which pushes once more: briefly when the push before it failed (the
   * receiver is gone, its retries would only delay the run's end).
   */
  private static void stop(CompletableResultCode shutdown, boolean receiverAnswered) {
    shutdown.join(receiverAnswered ? FINAL_PUSH_SECONDS : 1, TimeUnit.SECONDS);
  }
}
