package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.DeliveredLoad;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.SlotIdle;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.DeliveredFigures;
import io.github.llmbench.summary.ServingFigures;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job end to end: the shipped simulation against the embedded simulator, one closed level
 * run once for the class.
 */
class ServingBenchmarkIT {
  @TempDir static Path results;

  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  @BeforeAll
  static void runOneClosedLevel() throws Exception {
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "conc", "8",
                "duration", "4",
                "input.len", "256",
                "output.len", "24",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
  }

  @Test
  void recordsSummaryAndReportAgree() throws Exception {
    assertTrue(records.size() >= 8, "requests: " + records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals("c8", r.level());
      assertEquals(24, r.outputTokens());
      assertEquals(false, r.outputTokensEstimated());
      assertEquals(23, r.itlMs().size());
      // E2EL = TTFT + (n - 1) x TPOT within 1 ms
      assertEquals(r.e2elMs(), r.ttftMs() + (r.outputTokens() - 1) * r.tpotMs(), 1.0);
      // whole µs on both sides: the ITLs add up to E2EL - TTFT (up to double rounding)
      assertEquals(
          r.e2elMs() - r.ttftMs(), r.itlMs().stream().mapToDouble(Double::doubleValue).sum(), 1e-6);
      // ~256 prompt tokens plus the chat template, counted by the server
      assertTrue(r.inputTokens() > 230 && r.inputTokens() < 300, "input tokens " + r.inputTokens());
    }

    ServingFigures summary = TestReports.summary(run.runDir()).overall();
    assertEquals(records.size(), summary.completed());
    assertEquals(0, summary.failed());
    assertEquals(24L * records.size(), summary.totalOutputTokens());
    assertEquals(
        records.stream().mapToLong(RequestRecord::inputTokens).sum(), summary.totalInputTokens());
    assertTrue(summary.maxConcurrentRequests() <= 8);
    assertTrue(summary.latency(LatencyFigure.of(Metric.TTFT, Statistic.MEAN)) > 0);

    // Gatling's own report counts streams: one record per stream, in the level's group, its
    // response time the stream's E2EL (whole ms, truncated); TTFT and friends only when asked for
    GatlingReport report = GatlingReport.of(run.runDir());
    assertEquals(
        records.size(),
        report.global().total(),
        "All Requests counts the streams of requests.jsonl");
    assertEquals(records.size(), report.request(List.of("c8"), "request").orElseThrow().total());
    assertEquals(records.size(), report.group("c8").orElseThrow().total());
    for (String name : List.of("TTFT", "TPOT", "ITL", "E2EL")) {
      assertTrue(
          report.request(List.of("c8"), name).isEmpty(),
          "c8 / " + name + " is not a Gatling record by default");
    }
    double meanE2el = summary.latency(LatencyFigure.of(Metric.E2EL, Statistic.MEAN));
    assertEquals(
        meanE2el - 0.5,
        report.global().meanMs(),
        1.0,
        "Gatling's mean response time is the mean E2EL");
  }

  @Test
  void eachUserSendsItsNextRequestAsItsLastEnds() throws Exception {
    // eight users, each sending one request after another: all but each one's first say how long
    // its slot stood idle
    assertEquals(
        records.size() - 8,
        records.stream().filter(r -> SlotIdle.micros(r) != RequestRecord.ABSENT).count(),
        "records with slot_idle_ms");
    DeliveredFigures d = TestReports.summary(run.runDir()).levels().get("c8").deliveredLoad();
    DeliveredLoad fromRecords = DeliveredLoad.closed(8, SteadyState.compute(records, 8), records);
    assertEquals(fromRecords.slotIdle().median(), d.slotIdleMedianMs(), 1e-9, d.toString());
    assertEquals(
        fromRecords.slotIdle().value(Statistic.P99), d.slotIdleP99Ms(), 1e-9, d.toString());
    assertTrue(
        run.console().contains("a user's slot idle from one request's end to its next send"),
        run.console());
  }
}
