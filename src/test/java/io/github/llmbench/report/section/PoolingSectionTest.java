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
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A pooling run's (embeddings) level tables, rows as data. */
class PoolingSectionTest {

  private static final String LATENCIES = "Serving Benchmark Result: latencies (ms)";

  /** c2: 10 requests of 40 ms over 0.2 s, 64 input tokens each; c4: 20 of 50 ms over 0.25 s. */
  private static final RunAnalysis EMBEDDINGS =
      BackToBackLevels.analysis(pooled("c2", 2, T, 40, 64), pooled("c4", 4, T + 1_000, 50, 32));

  private static SectionRows rows(RunAnalysis a) {
    return SectionRows.of(new PoolingSection(), a, RunInfo.NONE);
  }

  private static Table pooling() {
    return rows(EMBEDDINGS).table("Serving Benchmark Result (pooling)");
  }

  @Test
  void thePoolingTableHasItsHeadersAndARowPerLevel() {
    assertEquals(
        List.of("Level", "C", "OK", "KO", "Duration (s)", "Input tokens", "Req/s", "Input tok/s"),
        pooling().headers());
    assertEquals(List.of("c2", "c4"), SectionRows.names(pooling()));
  }

  @Test
  void aLevelsThroughputsAreItsRequestsAndInputTokensOverItsDuration() {
    Table t = pooling();
    assertEquals("10", cell(t, "c2", "OK"));
    assertEquals("0.20", cell(t, "c2", "Duration (s)"));
    assertEquals("640", cell(t, "c2", "Input tokens"));
    assertEquals("50.00", cell(t, "c2", "Req/s"));
    assertEquals("3200.00", cell(t, "c2", "Input tok/s")); // 640 tokens in 0.2 s
    assertEquals("80.00", cell(t, "c4", "Req/s")); // 20 requests in 0.25 s
  }

  @Test
  void theOnlyLatencyIsE2el() {
    Table t = rows(EMBEDDINGS).table(LATENCIES);
    assertEquals(List.of("E2EL", "E2EL"), SectionRows.text(t).stream().map(r -> r.get(1)).toList());
  }

  @Test
  void theLatencyTableGivesTheE2elStatisticsWithoutAskedPercentiles() {
    Table t = rows(EMBEDDINGS).table(LATENCIES);
    assertEquals("40.00", cell(t, "c2", "Mean"));
    assertEquals("50.00", cell(t, "c4", "P99"));
  }

  @Test
  void askedPercentilesAreTheLatencyTablesColumns() {
    RunAnalysis a =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(pooled("c2", 2, T, 40, 64))
                .percentiles(ReportedPercentiles.of(Optional.of(List.of(95.0)), List.of()))
                .build());
    Table t = rows(a).table(LATENCIES);
    assertEquals(List.of("Level", "Metric", "Mean", "Median", "P95"), t.headers());
    assertEquals(List.of("c2", "E2EL", "40.00", "40.00", "40.00"), SectionRows.text(t).get(0));
  }

  @Test
  void theSteadyWindowIsTheWholeLevel() {
    Table t = rows(EMBEDDINGS).table("Steady-State Metrics");
    assertEquals("0.0 \u2192 0.2", cell(t, "c2", "Window (s)"));
    assertEquals("2", cell(t, "c2", "Observed peak"));
    assertEquals("10", cell(t, "c2", "Completed in window"));
    assertEquals("3200.00", cell(t, "c2", "Input tok/s"));
  }

  @Test
  void aLevelsConsoleBlockIsVllmsPoolingBlock() {
    RunAnalysis.Level c2 = EMBEDDINGS.levels().get("c2");
    List<String> lines = new PoolingSection().levelText(EMBEDDINGS, c2, true).lines().toList();
    assertTrue(
        lines.stream().anyMatch(l -> l.strip().matches("Total input tokens: +640")),
        lines::toString);
    assertTrue(lines.stream().noneMatch(l -> l.contains("TTFT")), lines::toString);
  }

  @Test
  void theRunsEndHasALinePerLevelWithItsInputThroughputAndE2el() {
    assertEquals(
        List.of("c2", "10", "0", "50.00", "3200.00", "40.00", "40.00"),
        SectionRows.runEndLine(new PoolingSection(), EMBEDDINGS, "c2"));
  }

  @Test
  void aGeneratingRunHasNoPoolingSection() {
    assertFalse(
        new PoolingSection().appliesTo(BackToBackLevels.analysis(generating("c2", 2, T, 50, 10))));
    assertTrue(new PoolingSection().appliesTo(EMBEDDINGS));
  }
}
