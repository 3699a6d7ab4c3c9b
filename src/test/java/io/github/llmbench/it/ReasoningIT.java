package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.ReasoningFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator as a reasoning model ({@code -Dsim.reasoning=8}): each chat answer thinks for 8
 * tokens first. TTFT stays at the first token (vLLM's), TTFO comes 8 tokens later, the reasoning
 * tokens are the 8 sent. The same run checks {@code -Dpercentiles=50,95,99.9}: the result block's
 * rows, {@code summary.json}'s fields and gates on percentiles.
 */
class ReasoningIT {

  @TempDir static Path results;

  /**
   * One short run for both tests (CI time): it also asks for {@code -Dpercentiles} and gates on a
   * shown percentile and on one that is not shown.
   */
  private static GatlingRun.Result run;

  @BeforeAll
  static void runOnce() throws Exception {
    run =
        GatlingRun.run(
            FixedRequestsSimulation.class,
            results,
            Map.of(
                "conc", "2",
                "it.requests", "4",
                "input.len", "16",
                "output.len", "32",
                "sim.reasoning", "8",
                "gate.ttfo.p99", "1",
                "gate.goodput", "ttfo:60000",
                "percentiles", "50,95,99.9",
                "gate.itl.p99.9", "0.5",
                "gate.e2el.p99.5", "600000"));
  }

  @Test
  void ttfoFollowsTheThinkingTokens() throws Exception {
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(4, records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals(32, r.outputTokens(), "thinking counts in the completion tokens");
      Reasoning reasoning = r.reasoning();
      assertEquals(8, reasoning.tokens(), r.toString());
      assertEquals(Reasoning.CHUNKS, reasoning.tokensFrom());
      double thinking = reasoning.ttfoMs() - r.ttftMs();
      double perToken = r.itlMs().size() > 0 ? (r.e2elMs() - r.ttftMs()) / r.itlMs().size() : 0;
      assertEquals(8 * perToken, thinking, 0.35 * 8 * perToken, "8 token times: " + r);
    }
    assertTrue(
        Files.readString(run.llm("requests.jsonl"))
            .contains("\"reasoning_tokens_from\":\"chunks\""));
    ReasoningFigures summary = TestReports.summary(run.runDir()).levels().get("c2").reasoning();
    assertEquals(4, summary.requests());
    assertEquals(4, summary.answered());
    assertEquals(8.0, summary.meanReasoningTokens(), 1e-9);
    assertEquals("chunks", summary.reasoningTokensFrom());
    double meanTtfo = records.stream().mapToDouble(r -> r.reasoning().ttfoMs()).average().orElse(0);
    assertEquals(meanTtfo, summary.meanTtfoMs(), 1e-6);
    assertTrue(run.console().contains("Mean TTFO (ms):"), run.console());
    assertEquals(
        100.0,
        TestReports.summary(run.runDir()).levels().get("c2").goodputPct(),
        1e-9,
        "every answer began within the TTFO objective");
    assertTrue(
        run.console().matches("(?s).*FAIL c2\\s+ttfo\\.p99\\s+limit <= 1\\.00 ms, measured .*"),
        run.console());
    assertTrue(Files.readString(run.runDir().resolve("llm.html")).contains("llm-reasoning"));
  }

  @Test
  void percentilesShapeTheBlockTheSummaryAndTheGates() throws Exception {
    String console = run.console();
    // vLLM's rows, in the order asked, for each metric; no P90 row of a latency
    for (String metric : new String[] {"TTFT", "TPOT", "ITL", "E2EL"}) {
      int mean = console.indexOf("Mean " + metric + " (ms):");
      int median = console.indexOf("Median " + metric + " (ms):", mean);
      int p50 = console.indexOf("P50 " + metric + " (ms):", median);
      int p95 = console.indexOf("P95 " + metric + " (ms):", p50);
      int p999 = console.indexOf("P99.9 " + metric + " (ms):", p95);
      assertTrue(mean >= 0 && median > mean && p50 > median && p95 > p50 && p999 > p95, console);
      assertFalse(console.contains("P90 " + metric + " (ms):"), console);
    }
    LevelSummary c2 = TestReports.summary(run.runDir()).levels().get("c2");
    String json = Files.readString(run.llm("summary.json"));
    for (String field : new String[] {"\"p95_ttft_ms\"", "\"p99.9_itl_ms\"", "\"p50_e2el_ms\""}) {
      assertTrue(json.contains(field), field);
    }
    double itl999 = c2.figures().latency(LatencyFigure.of(Metric.ITL, Statistic.percentile(99.9)));
    assertTrue(itl999 > 0.5, "the simulator's token gaps are milliseconds: " + itl999);
    // the shown P99.9 judged, and a P99.5 that no block shows
    assertTrue(
        console.matches("(?s).*FAIL c2\\s+itl\\.p99\\.9\\s+limit <= 0\\.50 ms, measured .*"),
        console);
    assertTrue(console.matches("(?s).*PASS c2\\s+e2el\\.p99\\.5\\s+.*"), console);
    assertTrue(Files.readString(run.llm("gates.xml")).contains("itl.p99.9"));
  }
}
