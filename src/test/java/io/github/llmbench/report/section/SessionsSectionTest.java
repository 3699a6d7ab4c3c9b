package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.CachedTokens;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestOrigin.SessionPlace;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Agent sessions, as rows: at c2, session s1 calls a (0-100 ms), awaits a tool 100 ms, sends a's
 * tool round (200-300), waits 50 ms of its own, then calls b (350-450); session s2 calls a
 * (1000-1100) then b (1100-1300). Step 1's three requests: TTFT 10, 20, 30 ms, 100 prompt tokens
 * each; step 2's two: TTFT 40 and 60 ms over 300 and 500 tokens, 150 and 250 of them cached.
 */
class SessionsSectionTest {
  private static final SessionsSection SECTION = new SessionsSection();
  private static final String TASKS = "Task time and where it went";
  private static final String STEPS =
      "By step (c2): a call's step is one more than the deepest call it waits for";

  private static RequestRecord call(
      String session, String call, int step, int round, long start, long end, double ttft) {
    return TestRecords.ok("c2")
        .start(start)
        .end(end)
        .ttft(ttft)
        .inputTokens(100)
        .origin(RequestOrigin.sessionPlace(new SessionPlace(session, call, step, List.of(), round)))
        .build();
  }

  private static RequestRecord cached(RequestRecord r, int input, int cached) {
    return r.toBuilder().inputTokens(input).part(CachedTokens.PART, cached).build();
  }

  private static final RunAnalysis RUN =
      RunAnalysis.of(
          RunAnalysis.Inputs.builder(
                  List.of(
                      call("s1", "a", 1, 0, 0, 100, 10),
                      call("s1", "a", 1, 1, 200, 300, 20),
                      cached(call("s1", "b", 2, 0, 350, 450, 40), 300, 150),
                      call("s2", "a", 1, 0, 1000, 1100, 30),
                      cached(call("s2", "b", 2, 0, 1100, 1300, 60), 500, 250)))
              .build());

  private static SectionRows rows() {
    return SectionRows.of(SECTION, RUN, RunInfo.NONE);
  }

  @Test
  void eachLevelOfSessionsIsATaskRow() {
    assertEquals(List.of("c2"), List.copyOf(SectionRows.byName(rows().table(TASKS)).keySet()));
    assertEquals(
        List.of(
            "Level",
            "Sessions",
            "Completed",
            "Calls each",
            "Requests each",
            "Mean task (ms)",
            "Median task (ms)",
            "P99 task (ms)",
            "At the server",
            "Awaiting tools",
            "Agent's own"),
        rows().table(TASKS).headers());
  }

  @Test
  void theTaskRowCountsTheSessionsTheirCallsAndTheirRequests() {
    // s1: 2 calls, 3 requests; s2: 2 calls, 2 requests
    assertEquals(
        List.of("2", "2", "2.00", "2.50"),
        SectionRows.byName(rows().table(TASKS)).get("c2").subList(0, 4));
  }

  @Test
  void theTaskTimeRunsFromASessionsFirstSendToItsLastEnd() {
    // s1 450 ms, s2 300 ms
    assertEquals("375.0", SectionRows.cell(rows().table(TASKS), "c2", "Mean task (ms)"));
    assertEquals("375.0", SectionRows.cell(rows().table(TASKS), "c2", "Median task (ms)"));
  }

  @Test
  void theTaskTimeIsSplitBetweenTheServerTheToolsAndTheAgent() {
    // of 750 ms: 300 + 300 at the server, 100 awaiting s1's tool, 50 s1's own
    Table t = rows().table(TASKS);
    assertEquals("80.0%", SectionRows.cell(t, "c2", "At the server"));
    assertEquals("13.3%", SectionRows.cell(t, "c2", "Awaiting tools"));
    assertEquals("6.7%", SectionRows.cell(t, "c2", "Agent's own"));
  }

  @Test
  void eachStepIsARowOfItsRequestsTtftAndPrompt() {
    Map<String, List<String>> steps = SectionRows.byName(rows().table(STEPS));
    assertEquals(List.of("1", "2"), List.copyOf(steps.keySet()));
    assertEquals(List.of("3", "0", "100.0", "20.00"), steps.get("1").subList(0, 4));
    assertEquals(List.of("2", "0", "400.0", "50.00"), steps.get("2").subList(0, 4));
  }

  @Test
  void everyStepRowHasACellPerHeader() {
    Table t = rows().table(STEPS);
    for (List<Object> row : t.rows()) {
      assertEquals(t.headers().size(), row.size(), t.headers() + " " + row);
    }
  }

  @Test
  void eachLevelsStepsChartHoldsTheMeanTtftOfEachStep() {
    Chart c = rows().charts().get(0);
    assertEquals("llm-chart-steps-c2", c.id());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> points = (List<Map<String, Object>>) c.spec().get("points");
    assertEquals(50.0, points.get(1).get("ttft"));
    assertEquals(400.0, points.get(1).get("input"));
  }

  @Test
  void aRunWithoutSessionsGetsNothing() {
    RunAnalysis plain =
        RunAnalysis.of(RunAnalysis.Inputs.builder(List.of(TestRecords.ok("c2").build())).build());
    SectionRows.assertSilent(SECTION, plain);
    assertTrue(SectionRows.of(SECTION, plain, RunInfo.NONE).charts().isEmpty());
  }

  @Test
  void theConsoleBlockGivesAStepsCachedShare() {
    // step 2: 150 + 250 of 300 + 500 prompt tokens cached
    SectionRows.assertBlockLine(
        SECTION,
        RUN,
        "c2",
        " Agent sessions (c2) ",
        l -> l.strip().startsWith("2 ") && l.endsWith(" 50.0%"));
  }
}
