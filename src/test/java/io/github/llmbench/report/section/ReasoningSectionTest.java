package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reasoning table: per level that thought, its TTFO, thinking time and reasoning tokens. */
class ReasoningSectionTest {
  private static final ReasoningSection SECTION = new ReasoningSection();
  private static final String TITLE =
      "Reasoning: time to the first output token (TTFO) after the thinking";

  /**
   * c4: four requests (TTFT 50 ms) that thought and answered at 100, 200, 300, 400 ms with 4, 6, 8,
   * 10 reasoning tokens from the usage, one that thought 12 tokens (counted from its chunks) and
   * never answered, one that did not think, and a failed one that thought (left out). c8: no
   * request thought.
   */
  private static RunAnalysis run() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      rs.add(
          reasoned(i)
              .reasoning(new Reasoning((i + 1) * 100_000L, 4 + 2 * i, Reasoning.USAGE))
              .build());
    }
    rs.add(
        reasoned(4).reasoning(new Reasoning(RequestRecord.ABSENT, 12, Reasoning.CHUNKS)).build());
    rs.add(reasoned(5).build());
    rs.add(
        TestRecords.failed("c4", "HTTP 500")
            .id("c4-failed")
            .start(BackToBackLevels.T)
            .reasoning(new Reasoning(1_000_000L, 100, Reasoning.USAGE))
            .build());
    rs.addAll(BackToBackLevels.backToBack("c8", 2, 2, BackToBackLevels.T + 10_000, b -> b));
    return BackToBackLevels.analysis(rs);
  }

  private static TestRecords.Builder reasoned(int i) {
    return TestRecords.ok("c4").id("c4-" + i).start(BackToBackLevels.T + i * 10L).ttft(50).tpot(5);
  }

  private static Table table() {
    return SectionRows.of(SECTION, run(), RunInfo.NONE).table(TITLE);
  }

  @Test
  void onlyALevelThatThoughtHasARow() {
    assertEquals(List.of("c4"), List.copyOf(SectionRows.byName(table()).keySet()));
  }

  @Test
  void theHeadersNameTheCountsTtfoThinkingAndTokens() {
    assertEquals(
        List.of(
            "Level",
            "Reasoned",
            "Answered",
            "Mean TTFO (ms)",
            "Median TTFO (ms)",
            "P90 TTFO (ms)",
            "P99 TTFO (ms)",
            "Mean thinking (ms)",
            "Mean reasoning tokens"),
        table().headers());
  }

  @Test
  void theCompletedRequestsThatThoughtCountAndThoseThatAnswered() {
    assertEquals("5", SectionRows.cell(table(), "c4", "Reasoned"));
    assertEquals("4", SectionRows.cell(table(), "c4", "Answered"));
  }

  @Test
  void theTtfoIsOverTheRequestsThatAnswered() {
    Table t = table();
    // 100, 200, 300, 400: numpy's linear P90 at rank 2.7, P99 at 2.97
    assertEquals("250.00", SectionRows.cell(t, "c4", "Mean TTFO (ms)"));
    assertEquals("250.00", SectionRows.cell(t, "c4", "Median TTFO (ms)"));
    assertEquals("370.00", SectionRows.cell(t, "c4", "P90 TTFO (ms)"));
    assertEquals("397.00", SectionRows.cell(t, "c4", "P99 TTFO (ms)"));
  }

  @Test
  void theThinkingIsTtfoLessTtft() {
    // 50, 150, 250, 350
    assertEquals("200.00", SectionRows.cell(table(), "c4", "Mean thinking (ms)"));
  }

  @Test
  void theTokensAreTheMeanOfEveryRequestThatThoughtFromTheLeastExactSource() {
    // (4 + 6 + 8 + 10 + 12) / 5, one of them counted from chunks
    assertEquals("8.00 (chunks)", SectionRows.cell(table(), "c4", "Mean reasoning tokens"));
  }

  @Test
  void theConsoleBlockCountsTheRequestsThatReasoned() {
    SectionRows.assertBlockLine(
        SECTION,
        run(),
        "c4",
        "Reasoning (c4)",
        l -> l.matches("Requests that reasoned: +5 \\(4 answered\\)"));
  }

  @Test
  void aRunThatNeverThoughtGetsNothing() {
    RunAnalysis a =
        BackToBackLevels.analysis(
            BackToBackLevels.backToBack("c8", 2, 2, BackToBackLevels.T, b -> b));
    assertFalse(SECTION.appliesTo(a));
    assertEquals("", SECTION.levelText(a, a.levels().get("c8"), false));
  }

  @Test
  void aLevelWhoseThinkingNeverAnsweredHasNoTtfo() {
    RunAnalysis a =
        BackToBackLevels.analysis(
            List.of(
                reasoned(0)
                    .reasoning(new Reasoning(RequestRecord.ABSENT, 12, Reasoning.USAGE))
                    .build()));
    Table t = SectionRows.of(SECTION, a, RunInfo.NONE).table(TITLE);
    assertEquals("0", SectionRows.cell(t, "c4", "Answered"));
    for (String h : List.of("Mean TTFO (ms)", "P99 TTFO (ms)", "Mean thinking (ms)")) {
      assertEquals("", SectionRows.cell(t, "c4", h), h);
    }
  }
}
