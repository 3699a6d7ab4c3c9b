package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.BackToBackLevels.T;
import static io.github.llmbench.report.section.BackToBackLevels.generating;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.FinishReasons;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The confound guards at the top of the page, a bullet per guard, rows as data. */
class GuardsSectionTest {

  /** c2's 10 answers, the first 3 ended by the model (finish_reason stop). */
  private static List<RequestRecord> endedEarly() {
    List<RequestRecord> rs = new ArrayList<>();
    for (RequestRecord r : generating("c2", 2, T, 50, 10)) {
      rs.add(rs.size() < 3 ? r.toBuilder().finishReason(FinishReasons.STOP).build() : r);
    }
    return rs;
  }

  /** r10: 5 requests sent every 200 ms where the schedule asked one every 100 ms. */
  private static List<RequestRecord> lateSends() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      rs.add(TestRecords.ok("r10").id("r10-" + i).start(T + 1_000 + 200L * i).build());
    }
    return rs;
  }

  private static RunAnalysis run(List<RequestRecord> records) {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(records)
            .arrivalsByLevel(Map.of("r10", new double[] {0, 0.1, 0.2, 0.3, 0.4}))
            .build());
  }

  private static List<String> bullets(RunAnalysis a) {
    return SectionRows.of(new GuardsSection(), a, RunInfo.NONE).bullets();
  }

  @Test
  void aRunWithNothingToGuardGetsNoGuards() {
    assertFalse(new GuardsSection().appliesTo(run(generating("c2", 2, T, 50, 10))));
    assertFalse(new GuardsSection().appliesTo(run(lateSends().subList(0, 1))));
  }

  /** The one guard of a run of these records. */
  private static String theGuard(List<RequestRecord> records) {
    List<String> guards = bullets(run(records));
    assertEquals(1, guards.size(), guards::toString);
    return guards.get(0);
  }

  @Test
  void answersTheModelEndedAreCountedWithTheirMeanLength() {
    String guard = theGuard(endedEarly());
    assertTrue(
        guard.startsWith(
            "3 of 10 answers at c2 ended before max_tokens (finish_reason stop, 4 output tokens"
                + " on average)"),
        guard);
  }

  @Test
  void anOpenLevelSentSlowerThanAskedSaysTheShareDelivered() {
    String guard = theGuard(lateSends());
    // asked: 4 gaps in 0.4 s; sent: 4 gaps in 0.8 s
    assertTrue(
        guard.startsWith(
            "the client delivered 50.0% of the asked arrivals at r10: 5.00 of 10.00 requests/s"),
        guard);
  }

  @Test
  void theGuardsAreOneListInTheOrderTheLevelsRan() {
    RunAnalysis a = run(BackToBackLevels.all(endedEarly(), lateSends()));
    assertTrue(new GuardsSection().appliesTo(a));
    List<PagePart> parts = new GuardsSection().page(a, RunInfo.NONE);
    assertEquals(List.of("llm-guards"), parts.stream().map(PagePart::anchor).toList());
    List<String> guards = bullets(a);
    assertEquals(2, guards.size(), guards::toString);
    assertTrue(guards.get(0).startsWith("3 of 10 answers at c2 "), guards::toString);
    assertTrue(guards.get(1).startsWith("the client delivered 50.0% "), guards::toString);
  }
}
