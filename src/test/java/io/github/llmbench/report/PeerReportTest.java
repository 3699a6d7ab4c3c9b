package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.llmbench.analysis.PeerFigures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console text of a level's figures under another tool's definitions. */
class PeerReportTest {

  @Test
  void aTableOfStatisticsPrintsTheToolsLineAndTheKitsUnderIt() {
    PeerFigures figures =
        new PeerFigures(
            "aiperf",
            "c4",
            List.of(
                new PeerFigures.Table(
                    "Tool Table",
                    List.of("avg", "p99"),
                    List.of(
                        new PeerFigures.Row(
                            "ITL (ms)",
                            2,
                            List.of(2.125, 9.0),
                            List.of(2.135, PeerFigures.MISSING))))),
            List.of("one line of why"));
    assertEquals(
        "Tool Table (c4)\n"
            + "  Metric        avg        p99\n"
            + "ITL (ms)       2.12       9.00\n"
            + "     kit       2.13        N/A\n"
            + "Note: one line of why\n",
        PeerReport.format(figures));
  }

  @Test
  void aTableOfSingleValuesPrintsVllmsRowsWithTheKitsValueAfter() {
    PeerFigures figures =
        new PeerFigures(
            "vllm",
            "",
            List.of(
                new PeerFigures.Table(
                    "Serving Benchmark Result",
                    List.of("value"),
                    List.of(PeerFigures.Row.single("Peak concurrent requests:", 0, 2, 3))),
                new PeerFigures.Table(
                    "Inter-token Latency",
                    List.of("value"),
                    List.of(PeerFigures.Row.single("Mean ITL (ms):", 2, 1.5, 1.5)))),
            List.of());
    assertEquals(
        "================= Serving Benchmark Result =================\n"
            + "Peak concurrent requests:                2          kit 3\n"
            + "--------------------Inter-token Latency---------------------\n"
            + "Mean ITL (ms):                           1.50       kit 1.50\n",
        PeerReport.format(figures));
  }
}
