package io.github.llmbench.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.OtlpReceiver;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OtlpExportTest {

  private static final String LEVEL = "c2";
  private static final String MODEL = "sim-tiny";
  private static final Map<String, String> LABELS = Map.of("model", MODEL, "endpoint", "chat");

  /** Longer than any test: only the pushes at close arrive. */
  private static final Duration NO_PERIODIC_PUSH = Duration.ofSeconds(600);

  private OtlpReceiver receiver;
  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  @BeforeEach
  void startReceiver() {
    receiver = OtlpReceiver.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  private OtlpExport export(boolean spans) {
    return OtlpExport.start(
        new OtlpExport.Destination(receiver.url(), NO_PERIODIC_PUSH, spans),
        LABELS,
        new PrintStream(console, true, StandardCharsets.UTF_8));
  }

  private static RequestRecord ok(String id, long startMs, long ttftMicros, long... itlMicros) {
    long e2el = ttftMicros + Arrays.stream(itlMicros).sum();
    return RequestRecord.builder()
        .id(id)
        .level(LEVEL)
        .startMs(startMs)
        .endMs(startMs + TimeUnit.MICROSECONDS.toMillis(e2el))
        .ok(true)
        .ttftMicros(ttftMicros)
        .tpotMicros(itlMicros.length == 0 ? RequestRecord.ABSENT : e2el / itlMicros.length)
        .e2elMicros(e2el)
        .itl(ItlSeries.ofMicros(itlMicros))
        .inputTokens(32)
        .outputTokens(itlMicros.length + 1)
        .build();
  }

  private static RequestRecord failed(String id, long startMs, String error) {
    return RequestRecord.builder()
        .id(id)
        .level(LEVEL)
        .startMs(startMs)
        .endMs(startMs + 40)
        .error(error)
        .build();
  }

  /** A few requests of every outcome, with latencies across several of vLLM's buckets. */
  private static List<RequestRecord> fed() {
    return List.of(
        ok("req-1", 1_000_000, 3_000, 9_000, 30_000),
        ok("req-2", 1_000_100, 150_000, 12_000),
        ok("req-3", 1_000_200, 2_700_000),
        failed("req-4", 1_000_300, "HTTP 500"),
        failed("req-5", 1_000_400, RequestRecord.CANCELLED));
  }

  private static Map<String, String> attributes(NumberDataPoint p) {
    return OtlpReceiver.attributes(p.getAttributesList());
  }

  private Metric metric(String name) {
    return receiver.last(name).orElseThrow(() -> new AssertionError(name + " never arrived"));
  }

  private HistogramDataPoint histogramPoint(String name) {
    List<HistogramDataPoint> points = metric(name).getHistogram().getDataPointsList();
    assertEquals(1, points.size(), name + ": one level fed");
    return points.get(0);
  }

  /** Counts per bucket as OTLP has them: bucket i holds values above bound i-1, up to bound i. */
  private static List<Long> bucketCounts(double[] bounds, List<Double> values) {
    Long[] counts = new Long[bounds.length + 1];
    Arrays.fill(counts, 0L);
    for (double v : values) {
      int i = 0;
      while (i < bounds.length && v > bounds[i]) {
        i++;
      }
      counts[i]++;
    }
    return List.of(counts);
  }

  private static List<Double> seconds(
      List<RequestRecord> records, ToLongFunction<RequestRecord> of) {
    return records.stream()
        .filter(RequestRecord::ok)
        .mapToLong(of)
        .mapToObj(micros -> micros / 1e6)
        .toList();
  }

  @Test
  void requestsCountByOutcomeAndInFlightAsFed() {
    OtlpExport e = export(false);
    int started = fed().size() + 1;
    for (int i = 0; i < started; i++) {
      e.started(LEVEL, null);
    }
    fed().forEach(e::finished);
    e.close();

    Metric requests = metric("llmbench.requests");
    assertTrue(requests.getSum().getIsMonotonic());
    assertEquals(
        AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
        requests.getSum().getAggregationTemporality());
    for (NumberDataPoint p : requests.getSum().getDataPointsList()) {
      Map<String, String> a = attributes(p);
      assertEquals(LEVEL, a.get("level"));
      assertEquals(MODEL, a.get("model"));
      assertEquals("chat", a.get("endpoint"));
      long expected =
          fed().stream()
              .filter(
                  r ->
                      a.get("outcome")
                          .equals(r.cancelled() ? "cancelled" : r.ok() ? "ok" : "failed"))
              .count();
      assertEquals(expected, p.getAsInt(), a.toString());
    }
    assertEquals(3, requests.getSum().getDataPointsCount(), "ok, failed, cancelled");
    NumberDataPoint inFlight = metric("llmbench.requests.in_flight").getSum().getDataPoints(0);
    assertEquals(started - fed().size(), inFlight.getAsInt());
    assertFalse(metric("llmbench.requests.in_flight").getSum().getIsMonotonic());
  }

  @Test
  void histogramsHoldTheCompletedRequestsInVllmsBuckets() {
    OtlpExport e = export(false);
    fed().forEach(e::finished);
    e.close();

    List<Double> ttfts = seconds(fed(), RequestRecord::ttftMicros);
    HistogramDataPoint ttft = histogramPoint("llmbench.ttft");
    assertEquals("s", metric("llmbench.ttft").getUnit());
    assertEquals(ttfts.size(), ttft.getCount());
    assertEquals(ttfts.stream().mapToDouble(d -> d).sum(), ttft.getSum(), 1e-9);
    assertEquals(
        Arrays.stream(LiveMetrics.TTFT_BUCKETS).boxed().toList(), ttft.getExplicitBoundsList());
    assertEquals(bucketCounts(LiveMetrics.TTFT_BUCKETS, ttfts), ttft.getBucketCountsList());
    assertEquals(LEVEL, OtlpReceiver.attributes(ttft.getAttributesList()).get("level"));

    HistogramDataPoint e2el = histogramPoint("llmbench.e2el");
    List<Double> e2els = seconds(fed(), RequestRecord::e2elMicros);
    assertEquals(bucketCounts(LiveMetrics.E2EL_BUCKETS, e2els), e2el.getBucketCountsList());
    long gaps = fed().stream().filter(RequestRecord::ok).mapToLong(r -> r.itlMs().size()).sum();
    assertEquals(gaps, histogramPoint("llmbench.itl").getCount(), "one per chunk gap");
    assertEquals(
        Arrays.stream(LiveMetrics.TOKEN_BUCKETS).boxed().toList(),
        histogramPoint("llmbench.tpot").getExplicitBoundsList());

    assertTrue(
        receiver.metricResources().stream()
            .allMatch(r -> OtlpExport.SERVICE_NAME.equals(r.get("service.name"))),
        receiver.metricResources().toString());
    assertTrue(
        receiver.metricNames().stream().allMatch(n -> n.startsWith("llmbench.")),
        "the run's figures only, not the SDK's own: " + receiver.metricNames());
    String said = console.toString(StandardCharsets.UTF_8);
    assertTrue(said.contains("pushed the client's figures to " + receiver.url()), said);
  }

  @Test
  void eachRequestIsOneSpanWithItsOwnTimesAndNames() {
    OtlpExport e = export(true);
    fed().forEach(e::finished);
    e.close();

    List<Span> spans = receiver.spans();
    assertEquals(fed().size(), spans.size());
    for (RequestRecord r : fed()) {
      Span s =
          spans.stream()
              .filter(x -> r.id().equals(spanAttributes(x).get("llmbench.request_id")))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no span for " + r.id()));
      Map<String, String> a = spanAttributes(s);
      assertEquals("chat " + MODEL, s.getName());
      assertEquals(Span.SpanKind.SPAN_KIND_CLIENT, s.getKind());
      assertEquals("chat", a.get("gen_ai.operation.name"));
      assertEquals(MODEL, a.get("gen_ai.request.model"));
      assertEquals(LEVEL, a.get("llmbench.level"));
      long start = TimeUnit.MILLISECONDS.toNanos(r.startMs());
      assertEquals(start, s.getStartTimeUnixNano(), r.id());
      if (r.ok()) {
        assertEquals("ok", a.get("llmbench.outcome"));
        assertEquals(String.valueOf(r.inputTokens()), a.get("gen_ai.usage.input_tokens"));
        assertEquals(String.valueOf(r.outputTokens()), a.get("gen_ai.usage.output_tokens"));
        assertEquals(start + r.e2elMicros() * 1000, s.getEndTimeUnixNano(), r.id());
        assertEquals(1, s.getEventsCount());
        assertEquals(OtlpExport.FIRST_TOKEN, s.getEvents(0).getName());
        assertEquals(start + r.ttftMicros() * 1000, s.getEvents(0).getTimeUnixNano(), r.id());
        assertEquals(Status.StatusCode.STATUS_CODE_UNSET, s.getStatus().getCode());
      } else {
        assertEquals(0, s.getEventsCount(), "no first token: " + r.id());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(r.endMs()), s.getEndTimeUnixNano());
      }
      if (r.cancelled()) {
        assertEquals("cancelled", a.get("llmbench.outcome"));
        assertEquals(Status.StatusCode.STATUS_CODE_UNSET, s.getStatus().getCode());
      } else if (!r.ok()) {
        assertEquals("failed", a.get("llmbench.outcome"));
        assertEquals(Status.StatusCode.STATUS_CODE_ERROR, s.getStatus().getCode());
        assertEquals(r.error(), s.getStatus().getMessage());
      }
    }
    String said = console.toString(StandardCharsets.UTF_8);
    assertTrue(said.contains("and " + fed().size() + " spans to " + receiver.url()), said);
  }

  private static Map<String, String> spanAttributes(Span s) {
    return OtlpReceiver.attributes(s.getAttributesList());
  }

  @Test
  void gaugesCarryTheLevelSendingItsTrialAndTheClientsHealth() {
    OtlpExport e = export(false);
    int trial = 2;
    RequestOrigin inTrial =
        new RequestOrigin(
            RequestOrigin.Workload.NONE,
            new RequestOrigin.Sending(-1, trial, RequestRecord.ABSENT));
    e.started("c1", null);
    e.finished(ok("req-1", 1_000_000, 3_000).toBuilder().level("c1").build());
    e.started(LEVEL, inTrial);
    e.finished(ok("req-2", 1_000_000, 3_000).toBuilder().origin(inTrial).build());
    ClientSample sample = LatestClientHealthTest.sample(new long[] {20, 5_000}, new int[] {98, 2});
    e.clientSample(sample);
    e.close();

    Map<String, Long> levelInfo = byLevel(metric("llmbench.level.info"));
    assertEquals(Map.of("c1", 0L, LEVEL, 1L), levelInfo);
    NumberDataPoint trialInfo = metric("llmbench.trial.info").getGauge().getDataPoints(0);
    assertEquals(1, metric("llmbench.trial.info").getGauge().getDataPointsCount());
    assertEquals(Integer.toString(trial), attributes(trialInfo).get("trial"));
    assertEquals(LEVEL, attributes(trialInfo).get("level"));
    assertEquals(1, trialInfo.getAsInt(), "its level is sending");
    LatestClientHealth health = LatestClientHealth.of(sample);
    NumberDataPoint lag = metric("llmbench.client.loop_lag").getGauge().getDataPoints(0);
    assertEquals(health.loopLagP99Seconds(), lag.getAsDouble(), 0.0);
    assertFalse(attributes(lag).containsKey("level"), "the process's, not a level's");
    NumberDataPoint cpu = metric("llmbench.client.cpu_ratio").getGauge().getDataPoints(0);
    assertEquals(health.cpuRatio(), cpu.getAsDouble(), 0.0);
  }

  private static Map<String, Long> byLevel(Metric m) {
    return m.getGauge().getDataPointsList().stream()
        .collect(
            java.util.stream.Collectors.toMap(
                p -> attributes(p).get("level"), NumberDataPoint::getAsInt));
  }

  @Test
  void pushesTheReceiverRefusedAreSaid() {
    OtlpExport e = export(true);
    fed().forEach(e::finished);
    receiver.refuseWith(400);
    e.close();
    String said = console.toString(StandardCharsets.UTF_8);
    assertTrue(
        said.contains("pushing the client's figures and 0 of " + fed().size() + " spans"), said);
    assertTrue(
        java.util.regex.Pattern.compile(
                "failed: ([1-9]\\d*) of \\1 metrics pushes, ([1-9]\\d*) of \\2 span")
            .matcher(said)
            .find(),
        "every push failed, and is counted: " + said);
    assertTrue(said.contains("the final counts did not arrive"), said);
    assertTrue(receiver.metricRequests().isEmpty() && receiver.spans().isEmpty(), "none kept");
  }

  @Test
  void theGenAiOperationFollowsTheEndpoint() {
    assertEquals("chat", OtlpExport.operation("chat"));
    assertEquals("text_completion", OtlpExport.operation("completions"));
    assertEquals("embeddings", OtlpExport.operation("embeddings"));
  }
}
