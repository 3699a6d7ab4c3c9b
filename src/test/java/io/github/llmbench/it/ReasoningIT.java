package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator as a reasoning model ({@code -Dsim.reasoning=8}): each chat answer thinks for 8
 * tokens first. TTFT stays at the first token (vLLM's), TTFO comes 8 tokens later, the reasoning
 * tokens are the 8 sent.
 */
class ReasoningIT {

  @Test
  void ttfoFollowsTheThinkingTokens(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
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
                "gate.goodput", "ttfo:60000"));
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
    LevelSummary.ReasoningFigures summary =
        TestReports.summary(run.runDir()).levels().get("c2").reasoning();
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
}
