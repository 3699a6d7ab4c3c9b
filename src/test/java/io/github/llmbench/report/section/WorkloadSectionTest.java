package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A workload's shape, as rows: TTFT by turn of a c2 level of two conversations (turn 1: TTFT 10 and
 * 30 ms over 50 and 70 prompt tokens; turn 2: one at 50 ms, one failed), and the send lateness of a
 * trace replay of three requests sent 0, 5 and 20 ms after their time in the trace.
 */
class WorkloadSectionTest {
  private static final WorkloadSection SECTION = new WorkloadSection();
  private static final String TURNS =
      "TTFT by turn (c2): each turn carries the turns and answers before it";
  private static final String TRACE =
      "Trace replay (trace): send time against its time in the trace, from the replay's start";

  private static RequestRecord turn(String conversation, int turn, double ttft, int input) {
    return TestRecords.ok("c2")
        .ttft(ttft)
        .inputTokens(input)
        .origin(RequestOrigin.turn(conversation, turn))
        .build();
  }

  private static RequestRecord sent(String level, long traceMs, long lateMs) {
    return TestRecords.ok(level)
        .start(traceMs + lateMs)
        .origin(RequestOrigin.trace(traceMs * 1000, (traceMs + lateMs) * 1000))
        .build();
  }

  private static final List<RequestRecord> TURN_RECORDS =
      List.of(
          turn("a", 1, 10, 50),
          turn("b", 1, 30, 70),
          turn("a", 2, 50, 200),
          TestRecords.failed("c2", "HTTP 500").origin(RequestOrigin.turn("b", 2)).build());

  private static final RunAnalysis TURNS_RUN = run(TURN_RECORDS);
  private static final RunAnalysis TRACE_RUN =
      run(List.of(sent("trace", 0, 0), sent("trace", 1_000, 5), sent("trace", 2_000, 20)));

  private static RunAnalysis run(List<RequestRecord> records) {
    return RunAnalysis.of(RunAnalysis.Inputs.builder(records).build());
  }

  private static Table turns() {
    return SectionRows.of(SECTION, TURNS_RUN, RunInfo.NONE).table(TURNS);
  }

  @Test
  void eachTurnIsARowInTurnOrder() {
    assertEquals(List.of("1", "2"), List.copyOf(SectionRows.byName(turns()).keySet()));
  }

  @Test
  void theTurnsHeadersAreTheCountsThePromptAndTheTtfts() {
    assertEquals(
        List.of(
            "Turn",
            "Completed",
            "Failed",
            "Mean input tokens",
            "Mean TTFT (ms)",
            "Median TTFT (ms)",
            "P99 TTFT (ms)"),
        turns().headers());
  }

  @Test
  void aTurnsRowCountsItsRequestsAndAveragesItsCompletedOnes() {
    assertEquals(
        List.of("2", "0", "60.0", "20.00"), SectionRows.byName(turns()).get("1").subList(0, 4));
    assertEquals("1", SectionRows.cell(turns(), "2", "Completed"));
    assertEquals("1", SectionRows.cell(turns(), "2", "Failed"));
    assertEquals("200.0", SectionRows.cell(turns(), "2", "Mean input tokens"));
  }

  @Test
  void aTraceReplaysLatenessIsOneRowOfItsRequestsAndPercentiles() {
    Table t = SectionRows.of(SECTION, TRACE_RUN, RunInfo.NONE).table(TRACE);
    assertEquals(
        List.of("Requests", "Median late (ms)", "P99 late (ms)", "Max late (ms)"), t.headers());
    assertEquals("3", SectionRows.text(t).get(0).get(0));
    assertEquals("5.0", SectionRows.cell(t, "3", "Median late (ms)"));
    assertEquals("20.0", SectionRows.cell(t, "3", "Max late (ms)"));
  }

  @Test
  void aRateProbesLatenessIsTitledByItsArrivals() {
    RunAnalysis probe = run(List.of(sent("r24", 0, 0), sent("r24", 500, 8)));
    Table t =
        SectionRows.of(SECTION, probe, RunInfo.NONE)
            .table(
                "Arrivals (r24): send time against its drawn arrival time, from the level's start");
    assertEquals("8.0", SectionRows.cell(t, "2", "Max late (ms)"));
  }

  @Test
  void aLevelOfPlainRequestsGetsNothing() {
    SectionRows.assertSilent(SECTION, run(List.of(TestRecords.ok("c2").build())));
  }

  @Test
  void theConsoleLineOfATurnGivesItsCountsPromptAndMeanTtft() {
    SectionRows.assertBlockLine(
        SECTION,
        TURNS_RUN,
        "c2",
        " TTFT by turn (ms, c2) ",
        l -> l.strip().startsWith("1 ") && l.strip().split(" +")[4].equals("20.00"));
  }

  @Test
  void theConsoleLineOfATraceReplayGivesItsLateness() {
    String text = SECTION.levelText(TRACE_RUN, TRACE_RUN.levels().get("trace"), false);
    assertTrue(
        text.startsWith("Trace replay: 3 requests sent late by median 5.0 ms,")
            && text.contains(", max 20.0 ms (each against its time in the trace"),
        text);
  }
}
