package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.analysis.FailureReasons.Reason;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.RunReport;
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
    String text =
        RunReport.levelsText(
            RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build()), true);
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
}
