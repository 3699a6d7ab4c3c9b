package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.summary.ServerLevelFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit end to end (4 requests sent at once) against the simulator speaking SGLang's, TGI's and
 * trtllm-serve's dialects ({@code -Dsim.dialect}): the server told apart, its metrics read
 * (non-empty server figures), prompts of exact lengths where the server has a tokenizer; and
 * (SGLang's) tool-calling answers counted as output.
 */
class ServerDialectsIT {

  static GatlingRun.Result run(Path results, Map<String, String> extra) throws Exception {
    Map<String, String> props =
        new java.util.HashMap<>(
            Map.of(
                "conc", "2",
                "it.requests", "4",
                "input.len", "40",
                "output.len", "32",
                "metrics.interval", "0.25"));
    props.putAll(extra);
    GatlingRun.Result run = GatlingRun.run(FixedRequestsSimulation.class, results, props);
    assertEquals(0, run.exitCode(), run.console());
    return run;
  }

  static final String TOOLS =
      "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"lookup\","
          + "\"parameters\":{\"type\":\"object\"}}}],\"tool_choice\":\"required\"}";

  static ServerLevelFigures server(GatlingRun.Result run) {
    ServerLevelFigures s = TestReports.summary(run.runDir()).levels().get("c2").server();
    assertNotNull(s, run.console());
    return s;
  }

  @Test
  void sglangTgiAndTrtllmGiveServerFiguresAndExactLengthsWhereTheyCan(@TempDir Path results)
      throws Exception {
    for (String dialect : List.of("sglang", "tgi", "trtllm")) {
      // SGLang's answers call a tool: OK, their tokens counted, one chunk per token
      GatlingRun.Result run =
          run(
              results.resolve(dialect),
              dialect.equals("sglang")
                  ? Map.of("sim.dialect", dialect, "extra.body", TOOLS)
                  : Map.of("sim.dialect", dialect));
      String console = run.console();
      ServerLevelFigures s = server(run);
      assertEquals(4.0, s.level().get(CommonServerFigures.RUNNING_MAX), dialect + ": " + s);
      Double generated = s.level().get(CommonServerFigures.GENERATION_TOKENS);
      assertNotNull(generated, dialect + ": " + s);
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(4, records.size());
      long received = records.stream().mapToLong(RequestRecord::outputTokens).sum();
      assertEquals(received, generated, 0.0, dialect + ": the server's count is the client's");
      // from the server's side: each request reached it once (a resent one would add its prompt)
      long sent = records.stream().mapToLong(RequestRecord::inputTokens).sum();
      assertEquals(sent, s.level().get(CommonServerFigures.PROMPT_TOKENS), 0.0, dialect + ": " + s);
      for (RequestRecord r : records) {
        assertTrue(r.ok(), dialect + ": " + r);
      }
      switch (dialect) {
        case "sglang" -> {
          assertTrue(
              console.contains("SGLang: the output length goes in max_completion_tokens"), console);
          assertTrue(console.contains("all exact"), console);
          assertTrue(records.stream().allMatch(r -> r.outputTokens() == 32));
          assertTrue(records.stream().allMatch(r -> r.itlMs().size() == 31), records.toString());
          assertEquals(
              Map.of("tool_calls", 4),
              TestReports.summary(run.runDir()).levels().get("c2").finishReasons());
          assertTrue(!console.contains("ended before max_tokens"), console);
        }
        case "tgi" -> {
          assertTrue(
              console.contains(
                  "TGI: the output length goes in max_completion_tokens; it ignores ignore_eos"),
              console);
          assertTrue(console.contains("max_total_tokens of GET /info"), console);
          assertTrue(console.contains("all exact"), console);
          assertTrue(
              records.stream().allMatch(r -> r.outputTokens() >= 16 && r.outputTokens() <= 32));
          long stopped = records.stream().filter(r -> "stop".equals(r.finishReason())).count();
          assertEquals(
              stopped,
              records.stream().filter(r -> r.outputTokens() < 32).count(),
              records.toString());
          if (stopped > 0) {
            assertTrue(
                console.contains(
                    stopped + " of 4 answers at c2 ended before max_tokens (finish_reason stop"),
                console);
          }
        }
        default -> {
          assertTrue(
              console.contains("trtllm-serve: the output length goes in max_completion_tokens"),
              console);
          assertTrue(console.contains("/prometheus/metrics"), console);
          assertTrue(
              console.contains("the server counts no tokens"),
              "no public tokenizer: lengths are an estimate, and said so: " + console);
          assertTrue(records.stream().allMatch(r -> r.outputTokens() == 32));
        }
      }
    }
  }
}
