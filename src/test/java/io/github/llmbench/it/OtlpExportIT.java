package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.OtlpReceiver;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dexport.otlp} with spans, pushing every second during a real run against the embedded
 * simulator to a receiver in this test, which decodes what arrived with OpenTelemetry's own proto
 * classes; checked against the run's {@code requests.jsonl}.
 */
class OtlpExportIT {
  @TempDir static Path dir;

  private static OtlpReceiver receiver;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  @BeforeAll
  static void runPushingToTheReceiver() throws Exception {
    receiver = OtlpReceiver.start();
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            dir.resolve("results"),
            Map.of(
                "export.otlp", receiver.url().toString(),
                "export.otlp.spans", "true",
                "export.otlp.interval", "1",
                "conc", "4",
                "prompts", "40",
                "input.len", "64",
                "output.len", "32",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(RunFiles.ofRun(run.runDir()).requests());
  }

  @AfterAll
  static void stopReceiver() {
    if (receiver != null) {
      receiver.close();
    }
  }

  private static Metric metric(String name) {
    return receiver.last(name).orElseThrow(() -> new AssertionError(name + " never arrived"));
  }

  private static String outcome(RequestRecord r) {
    return r.cancelled() ? "cancelled" : r.ok() ? "ok" : "failed";
  }

  /** The one level's histogram point: the run has one level. */
  private static HistogramDataPoint histogram(String name) {
    List<HistogramDataPoint> points = metric(name).getHistogram().getDataPointsList();
    assertEquals(1, points.size(), name);
    return points.get(0);
  }

  @Test
  void theRequestsCountedByOutcomeAreTheRecords() {
    Map<String, Long> recorded =
        records.stream()
            .collect(Collectors.groupingBy(OtlpExportIT::outcome, Collectors.counting()));
    Map<String, Long> pushed =
        metric("llmbench.requests").getSum().getDataPointsList().stream()
            .collect(
                Collectors.toMap(
                    p -> OtlpReceiver.attributes(p.getAttributesList()).get("outcome"),
                    NumberDataPoint::getAsInt));
    assertEquals(recorded, pushed);
    assertEquals(40, records.size());
  }

  @Test
  void theHistogramsHoldEachCompletedRequest() {
    List<RequestRecord> ok = records.stream().filter(RequestRecord::ok).toList();
    assertEquals(ok.size(), histogram("llmbench.e2el").getCount());
    double ttftSum = ok.stream().mapToLong(RequestRecord::ttftMicros).sum() / 1e6;
    assertEquals(ttftSum, histogram("llmbench.ttft").getSum(), 1e-6 * ok.size());
    String level = records.get(0).level();
    assertEquals(
        level,
        OtlpReceiver.attributes(histogram("llmbench.ttft").getAttributesList()).get("level"));
  }

  @Test
  void eachRecordIsOneSpanWithItsIdAndFirstToken() {
    List<Span> spans = receiver.spans();
    Function<Span, String> id =
        s -> OtlpReceiver.attributes(s.getAttributesList()).get("llmbench.request_id");
    assertEquals(records.size(), spans.size());
    assertEquals(
        records.stream().map(RequestRecord::id).collect(Collectors.toSet()),
        spans.stream().map(id).collect(Collectors.toSet()));
    Map<String, Span> byId = spans.stream().collect(Collectors.toMap(id, s -> s));
    for (RequestRecord r : records) {
      Span s = byId.get(r.id());
      assertEquals(TimeUnit.MILLISECONDS.toNanos(r.startMs()), s.getStartTimeUnixNano(), r.id());
      if (r.ok()) {
        long firstTokenMs =
            TimeUnit.NANOSECONDS.toMillis(
                s.getEvents(0).getTimeUnixNano() - s.getStartTimeUnixNano());
        assertEquals(TimeUnit.MICROSECONDS.toMillis(r.ttftMicros()), firstTokenMs, r.id());
      }
    }
  }

  @Test
  void theConsoleSaysWhereTheFiguresWent() {
    assertTrue(
        run.console()
            .contains(
                "pushed the client's figures and "
                    + records.size()
                    + " spans to "
                    + receiver.url()),
        run.console());
  }
}
