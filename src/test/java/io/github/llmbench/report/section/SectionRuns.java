package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The small runs the sections' rows tests analyse, whose figures they know by construction: users
 * sending back to back, analysed with or without the client probe's samples.
 */
final class SectionRuns {
  static final long T = 1_700_000_000_000L;

  private SectionRuns() {}

  static RunAnalysis analysis(List<RequestRecord> records) {
    return analysis(records, List.of());
  }

  /** The run's analysis with these client probe samples (none: no probe). */
  static RunAnalysis analysis(List<RequestRecord> records, List<ClientSample> client) {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(records)
            .telemetry(new RunAnalysis.Telemetry(List.of(), null, client))
            .rooflineHint("hint")
            .build());
  }

  /**
   * {@code users} users of {@code level} each sending {@code seconds} requests back to back from
   * {@code startMs}: every request 1 s long (its end the next one's start), TTFT 100 ms, 50 input
   * and 10 output tokens; {@code more} sets the rest.
   */
  static List<RequestRecord> backToBack(
      String level, int users, int seconds, long startMs, UnaryOperator<TestRecords.Builder> more) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      for (int i = 0; i < seconds; i++) {
        long start = startMs + i * 1000L;
        rs.add(
            more.apply(
                    TestRecords.ok(level)
                        .id(level + "-" + startMs + "-" + u + "-" + i)
                        .start(start)
                        .end(start + 1000)
                        .ttft(100)
                        .e2el(1000)
                        .inputTokens(50)
                        .outputTokens(10))
                .build());
      }
    }
    return rs;
  }
}
