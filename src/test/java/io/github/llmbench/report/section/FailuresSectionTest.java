package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.analysis.FailureReasons.Reason;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailuresSectionTest {

  static final String CONTEXT =
      "HTTP 400: request (15204 tokens) exceeds the available context size (2048 tokens),"
          + " try increasing it";

  @Test
  void oneLinePerReasonThenWhatWasLeftOut() {
    FailureReasons f =
        new FailureReasons(
            List.of(new Reason(CONTEXT, 4), new Reason("timeout: no response within 5 s", 1)),
            2,
            2);
    assertEquals(
        "---------------------- Failures (c2) -----------------------\n"
            + "   4  "
            + CONTEXT
            + "\n"
            + "   1  timeout: no response within 5 s\n"
            + "(2 more failed requests with 2 other reasons in llm/requests.jsonl)\n",
        FailuresSection.format(f, "c2"));
  }

  @Test
  void titleCountsWidthAndSingularNote() {
    FailureReasons f =
        new FailureReasons(
            List.of(
                new Reason("HTTP 500: injected failure", 12345),
                new Reason("connect error: refused", 7)),
            1,
            1);
    assertEquals(
        "------------------------- Failures -------------------------\n"
            + "12345  HTTP 500: injected failure\n"
            + "    7  connect error: refused\n"
            + "(1 more failed request with 1 other reason in llm/requests.jsonl)\n",
        FailuresSection.format(f, null));
    assertEquals(
        "", FailuresSection.leftOutNote(new FailureReasons(List.of(new Reason("x", 1)), 0, 0)));
    assertEquals("", FailuresSection.format(FailureReasons.NONE, "c2"));
  }

  @Test
  void aReasonFromAnEditedFileStaysOnOneLine() {
    FailureReasons f =
        new FailureReasons(List.of(new Reason("HTTP 500: two\nlines \u001b[31mred", 1)), 0, 0);
    assertEquals(
        List.of("   1  HTTP 500: two lines ?[31mred"),
        FailuresSection.format(f, "c2").lines().skip(1).toList());
  }

  @Test
  void eachLevelsBlockFollowsItsResultBlocksOnlyWhenItFailed() {
    List<RequestRecord> rs = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (String level : List.of("c2", "c4")) {
      for (int i = 0; i < 4; i++) {
        rs.add(TestRecords.ok(level).id(level + "-" + i).start(t).end(t + 100).build());
      }
      t += 1_000;
    }
    rs.add(
        TestRecords.failed("c2", "HTTP 500: injected failure")
            .id("f")
            .start(t)
            .end(t + 10)
            .inputTokens(16)
            .status(500)
            .build());
    String text = RunReport.levelsText(BackToBackLevels.analysis(rs), true);
    int c2 = text.indexOf("Serving Benchmark Result (c2)");
    int failures = text.indexOf("- Failures (c2) -");
    int c4 = text.indexOf("Serving Benchmark Result (c4)");
    assertTrue(c2 >= 0 && c2 < failures && failures < c4, text);
    assertTrue(
        text.contains(
            "- Failures (c2) -----------------------\n   1  HTTP 500: injected failure\n\n"),
        text);
    assertEquals(1, text.split("Failures \\(", -1).length - 1, "only c2 failed:\n" + text);
  }

  /** c2: 4 completed requests and these failures; c4: 4 completed requests and none. */
  private static RunAnalysis failing(String... errors) {
    List<RequestRecord> rs = new ArrayList<>();
    rs.addAll(BackToBackLevels.backToBack("c2", 2, 2, BackToBackLevels.T, b -> b));
    rs.addAll(BackToBackLevels.backToBack("c4", 4, 1, BackToBackLevels.T + 10_000, b -> b));
    for (int i = 0; i < errors.length; i++) {
      rs.add(
          TestRecords.failed("c2", errors[i])
              .id("f" + i)
              .start(BackToBackLevels.T + 100 * i)
              .build());
    }
    return BackToBackLevels.analysis(rs);
  }

  private static SectionRows page(RunAnalysis a) {
    return SectionRows.of(new FailuresSection(), a, RunInfo.NONE);
  }

  private static final String TITLE = "Failed requests (c2): 3, by reason";

  @Test
  void onlyALevelThatFailedHasATableTitledWithItsFailures() {
    RunAnalysis a = failing("HTTP 500: boom", "timeout", "HTTP 500: boom");
    assertEquals(List.of(TITLE), page(a).tables().stream().map(Table::title).toList());
  }

  @Test
  void theTableCountsEachReasonMostFrequentFirst() {
    Table t = page(failing("timeout", "HTTP 500: boom", "HTTP 500: boom")).table(TITLE);
    assertEquals(List.of("Count", "Reason"), t.headers());
    assertEquals(
        List.of(List.of("2", "HTTP 500: boom"), List.of("1", "timeout")), SectionRows.text(t));
  }

  @Test
  void theReasonsPastTheTopAreNotedAsLeftOut() {
    String[] errors = new String[FailureReasons.TOP + 2];
    for (int i = 0; i < errors.length; i++) {
      errors[i] = "HTTP " + (500 + i);
    }
    SectionRows rows = page(failing(errors));
    assertEquals(
        FailureReasons.TOP,
        rows.table("Failed requests (c2): " + errors.length + ", by reason").rows().size());
    assertEquals(
        List.of("2 more failed requests with 2 other reasons in llm/requests.jsonl."),
        rows.notes());
  }

  @Test
  void aRunWithoutFailuresSaysSoAndHasNoTable() {
    SectionRows rows = page(failing());
    assertTrue(rows.tables().isEmpty());
    assertEquals(List.of("No failed requests."), rows.notes());
  }

  @Test
  void aLevelWithoutFailuresHasNoConsoleBlock() {
    RunAnalysis a = failing("timeout");
    assertEquals("", new FailuresSection().levelText(a, a.levels().get("c4"), true));
  }
}
