package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The trials' table: a row per trial, then each figure's interval across them. */
class TrialsSectionTest {
  private static final TrialsSection SECTION = new TrialsSection();

  /** Student's t at 97.5% with 2 degrees of freedom: the 95% interval of three trials. */
  private static final double T_975_2 = 4.302652729911275;

  /**
   * c2 ran three times, 100 s apart: in trial k two users for 10 s, each request 1 s, 10 output
   * tokens and a TPOT of 10 x 2^(k-1) ms (10, 20, 40); TTFT 100 ms throughout. Then c4 ran once.
   */
  private static RunAnalysis threeTrials() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      int trial = k;
      rs.addAll(
          BackToBackLevels.backToBack(
              "c2",
              2,
              10,
              BackToBackLevels.T + 100_000L * k,
              b -> b.tpot(10.0 * (1 << (trial - 1))).origin(RequestOrigin.inTrial(null, trial))));
    }
    rs.addAll(BackToBackLevels.backToBack("c4", 4, 5, BackToBackLevels.T + 500_000L, b -> b));
    return BackToBackLevels.analysis(rs);
  }

  private static Table c2() {
    return SectionRows.of(SECTION, threeTrials(), RunInfo.NONE).table("Trials (c2)");
  }

  @Test
  void aRowPerTrialThenTheInterval() {
    assertEquals(
        List.of("1", "2", "3", "95% interval"), List.copyOf(SectionRows.byName(c2()).keySet()));
  }

  @Test
  void onlyTheLevelThatRanSeveralTimesHasATable() {
    List<String> titles =
        SectionRows.of(SECTION, threeTrials(), RunInfo.NONE).tables().stream()
            .map(Table::title)
            .toList();
    assertEquals(List.of("Trials (c2)"), titles);
  }

  @Test
  void theHeadersAreTheCountsThroughputAndTheGatedLatencies() {
    assertEquals(
        List.of(
            "Trial",
            "Completed",
            "Failed",
            "Output tok/s",
            "Mean TPOT (ms)",
            "P99 TPOT (ms)",
            "P99 TTFT (ms)",
            "Steady output tok/s"),
        c2().headers());
  }

  @Test
  void eachTrialsRowHasItsOwnFigures() {
    Table t = c2();
    // 2 users x 10 requests; 200 output tokens over 10 s
    assertEquals(
        List.of("20", "0", "20.00", "20.00", "20.00", "100.00"),
        SectionRows.byName(t).get("2").subList(0, 6));
    assertEquals("40.00", SectionRows.cell(t, "3", "Mean TPOT (ms)"));
    assertEquals("10.00", SectionRows.cell(t, "1", "P99 TPOT (ms)"));
  }

  @Test
  void theIntervalIsTheTrialsGeometricMeanWithItsLogTBounds() {
    // logs ln 20 - ln 2, ln 20, ln 20 + ln 2: mean ln 20, sd ln 2
    double half = T_975_2 * Math.log(2) / Math.sqrt(3);
    String expected =
        String.format(Locale.ROOT, "20.00 [%.2f, %.2f]", 20 * Math.exp(-half), 20 * Math.exp(half));
    assertEquals(expected, SectionRows.cell(c2(), "95% interval", "Mean TPOT (ms)"));
  }

  @Test
  void aFigureEqualInEveryTrialHasAnIntervalOfNoWidth() {
    assertEquals("20.00 [20.00, 20.00]", SectionRows.cell(c2(), "95% interval", "Output tok/s"));
    assertEquals(
        "100.00 [100.00, 100.00]", SectionRows.cell(c2(), "95% interval", "P99 TTFT (ms)"));
  }

  @Test
  void theIntervalRowLeavesTheCountsEmpty() {
    assertEquals("", SectionRows.cell(c2(), "95% interval", "Completed"));
    assertEquals("", SectionRows.cell(c2(), "95% interval", "Failed"));
  }

  @Test
  void theConsoleBlockHasATrialsLineOfItsFigures() {
    List<String> trial3 = List.of("3", "20", "0", "20.00", "40.00", "40.00", "100.00");
    SectionRows.assertBlockLine(
        SECTION,
        threeTrials(),
        "c2",
        "Trials (c2)",
        l -> {
          List<String> fields = List.of(l.trim().split("\\s+"));
          return fields.size() >= trial3.size() && fields.subList(0, trial3.size()).equals(trial3);
        });
  }

  @Test
  void theConsoleWarnsOfP99sOfFewerThanAHundredRequests() {
    RunAnalysis a = threeTrials();
    String block = SECTION.levelText(a, a.levels().get("c2"), true);
    assertTrue(
        block.contains("! P99 figures of trials with fewer than 100 requests (the fewest: 20)"),
        block);
  }

  @Test
  void aRunWhoseLevelsRanOnceGetsNothing() {
    RunAnalysis once =
        BackToBackLevels.analysis(
            BackToBackLevels.backToBack("c4", 4, 5, BackToBackLevels.T, b -> b));
    assertFalse(SECTION.appliesTo(once));
    assertEquals("", SECTION.levelText(once, once.levels().get("c4"), false));
  }
}
