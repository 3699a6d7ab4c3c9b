package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.BackToBackLevels.T;
import static io.github.llmbench.report.section.BackToBackLevels.generating;
import static io.github.llmbench.report.section.BackToBackLevels.pooled;
import static io.github.llmbench.report.section.SectionRows.cell;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A generating run's level tables, rows as data. */
class ServingSectionTest {

  /** c2: 10 requests of 80 ms over 0.4 s; c4: 20 of 160 ms over 0.8 s, and one failed at once. */
  private static List<RequestRecord> records() {
    return BackToBackLevels.all(
        generating("c2", 2, T, 50, 10),
        generating("c4", 4, T + 1_000, 100, 20),
        List.of(TestRecords.failed("c4", "HTTP 500").id("c4-ko").start(T + 1_100).build()));
  }

  private static final RunAnalysis TWO_LEVELS = BackToBackLevels.analysis(records());

  private static SectionRows rows(RunAnalysis a) {
    return SectionRows.of(new ServingSection(), a, RunInfo.NONE);
  }

  private static Table serving() {
    return rows(TWO_LEVELS).table("Serving Benchmark Result");
  }

  @Test
  void theServingTableHasItsHeadersAndARowPerLevelInTheOrderTheyRan() {
    assertEquals(
        "Level | C | OK | KO | Duration (s) | Req/s | Output tok/s | Peak output tok/s"
            + " | Peak concurrent | Total tok/s",
        String.join(" | ", serving().headers()));
    assertEquals(List.of("c2", "c4"), SectionRows.names(serving()));
  }

  @Test
  void aLevelsThroughputsAreItsRequestsAndTokensOverItsDuration() {
    Table t = serving();
    assertEquals("2", cell(t, "c2", "C"));
    assertEquals("0.40", cell(t, "c2", "Duration (s)"));
    assertEquals("25.00", cell(t, "c2", "Req/s")); // 10 requests in 0.4 s
    assertEquals("100.00", cell(t, "c2", "Output tok/s")); // 10 x 4 tokens in 0.4 s
    assertEquals("2600.00", cell(t, "c2", "Total tok/s")); // (1000 + 40) tokens in 0.4 s
    assertEquals("2", cell(t, "c2", "Peak concurrent"));
  }

  @Test
  void aFailedRequestCountsUnderKoAndNotUnderOk() {
    assertEquals("20", cell(serving(), "c4", "OK"));
    assertEquals("1", cell(serving(), "c4", "KO"));
    assertEquals("0", cell(serving(), "c2", "KO"));
  }

  @Test
  void theLatencyTableHasAColumnPerFigureOfEachMetric() {
    Table t = rows(TWO_LEVELS).table("Serving Benchmark Result: latencies (ms)");
    assertEquals(12, t.headers().size(), t.headers().toString());
    assertEquals("50.00", cell(t, "c2", "Mean TTFT"));
    assertEquals("100.00", cell(t, "c4", "P99 TTFT"));
    assertEquals("20.00", cell(t, "c4", "Mean TPOT"));
    assertEquals("10.00", cell(t, "c2", "P99 ITL"));
    assertEquals("160.00", cell(t, "c4", "Mean E2EL")); // 100 + 3 x 20
  }

  @Test
  void askedPercentilesGiveALatencyRowPerLevelAndMetric() {
    RunAnalysis a =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(records())
                .percentiles(ReportedPercentiles.of(Optional.of(List.of(50.0, 95.0)), List.of()))
                .build());
    Table t = rows(a).table("Serving Benchmark Result: latencies (ms)");
    assertEquals(List.of("Level", "Metric", "Mean", "Median", "P50", "P95"), t.headers());
    assertEquals(8, t.rows().size(), "2 levels x TTFT, TPOT, ITL, E2EL");
    assertEquals(
        List.of("c4", "E2EL", "160.00", "160.00", "160.00", "160.00"), SectionRows.text(t).get(7));
  }

  @Test
  void theSteadyWindowIsTheWholeLevelAndCountsTheRequestsStartedInIt() {
    Table t = rows(TWO_LEVELS).table("Steady-State Metrics");
    assertEquals("\u2265 0.95 \u00d7 4 = 4", cell(t, "c4", "Threshold"));
    assertEquals("0.0 \u2192 0.8", cell(t, "c4", "Window (s)"));
    assertEquals("21 / 21 (100.0%)", cell(t, "c4", "Started in window")); // the failed too
    assertEquals("20", cell(t, "c4", "Completed in window"));
    assertEquals("2500.00", cell(t, "c2", "Input tok/s")); // 10 x 100 tokens in 0.4 s
  }

  @Test
  void theSteadyLatencyTableHasTheWindowsTtftAndTpot() {
    Table t = rows(TWO_LEVELS).table("Steady-State Metrics: latencies (ms)");
    assertEquals("TTFT growing", t.headers().get(t.headers().size() - 1));
    assertEquals("50.00", cell(t, "c2", "Median TTFT"));
    assertEquals("20.00", cell(t, "c4", "P90 TPOT"));
  }

  @Test
  void withoutAModelOrGpuTheRooflineIsANoteSayingWhy() {
    SectionRows r = rows(TWO_LEVELS);
    assertTrue(r.tables().stream().noneMatch(t -> t.title().startsWith("Roofline")));
    assertTrue(
        r.notes().contains("Roofline skipped: no model or GPU spec. hint"), r.notes()::toString);
  }

  @Test
  void theRooflineTableHasEachLevelsBatchContextAndRidge() {
    RunAnalysis a = BackToBackLevels.onTwoRoundGpus(records());
    Table t =
        rows(a).table("Roofline (" + BackToBackLevels.MODEL.hfId() + " on 2 \u00d7 Round GPU)");
    assertEquals("2.0", cell(t, "c2", "Mean batch B"));
    assertEquals("4.0", cell(t, "c4", "Mean batch B"));
    assertEquals("102.0", cell(t, "c2", "Mean context L")); // 100 input + 4 output / 2
    assertEquals("100.0", cell(t, "c2", "Ridge (FLOP/B)")); // 2 x 100 TFLOP/s over 2 x 1 TB/s
    assertTrue(cell(t, "c2", "Decode attainment").endsWith(" of bandwidth roof"));
  }

  @Test
  void aLevelsConsoleBlockIsTitledWithItsLevelAndCountsItsRequests() {
    SectionRows.assertBlockLine(
        new ServingSection(),
        TWO_LEVELS,
        "c4",
        " Serving Benchmark Result (c4) ",
        l -> l.strip().matches("Failed requests: +1"));
  }

  @Test
  void theRunsEndHasALinePerLevelWithItsThroughputTpotAndP99Ttft() {
    assertEquals(
        List.of("c2", "10", "0", "25.00", "100.00", "10.00", "50.00"),
        SectionRows.runEndLine(new ServingSection(), TWO_LEVELS, "c2"));
  }

  @Test
  void aPoolingRunHasNoServingSection() {
    assertFalse(
        new ServingSection().appliesTo(BackToBackLevels.analysis(pooled("c2", 2, T, 40, 64))));
    assertTrue(new ServingSection().appliesTo(TWO_LEVELS));
  }
}
