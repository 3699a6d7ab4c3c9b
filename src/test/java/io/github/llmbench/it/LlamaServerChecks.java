package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.ServerTimings;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.LlamaServer;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The kit against a real llama.cpp {@code llama-server} (one class per API, {@link
 * LlamaServerChatIT} and {@link LlamaServerCompletionsIT}, each its own JVM and Gatling run): 8
 * requests, 4 in flight, 64 output tokens each.
 *
 * <p>Each request's client-side figures are checked against the {@code timings} object the server
 * adds to its final chunk (kept in {@code requests.jsonl} as {@code server_timings}):
 *
 * <ul>
 *   <li>TTFT covers the server's prefill and at most the prefill of the other requests in flight
 *       plus a fixed overhead: {@code prompt_ms - 1 <= TTFT <= prompt_ms + others' prompt_ms +
 *       }{@value #TTFT_OVERHEAD_MS} ms. The client's clock has 1 ms steps; {@code prompt_ms} counts
 *       only this prompt's own prefill, not the wait while the server processes another prompt
 *       first, nor HTTP parsing, the chat template, tokenizing and the first chunk's way back
 *       (20-100 ms of those were seen on a busy 2-core machine, where the server and the load
 *       generator share the cores with the build);
 *   <li>E2EL - TTFT (first to last text chunk: {@code n - 1} token steps) matches the server's
 *       {@code predicted_ms} (first to last token) within {@value #SPAN_TOLERANCE_MS} ms + {@value
 *       #SPAN_TOLERANCE_PCT}% (only the first and the last chunk's way to the client differ);
 *   <li>so TPOT (= the mean ITL) matches the server's {@code predicted_per_token_ms}, which is
 *       {@code predicted_ms / (n - 1)}: the same definition;
 *   <li>one text chunk per token: {@code n - 1} ITLs, and output tokens = {@code usage} = {@code
 *       predicted_n} = {@code max_tokens} ({@code ignore_eos} honoured).
 * </ul>
 */
final class LlamaServerChecks {
  static final int OUTPUT_LEN = 64;
  static final int REQUESTS = 8;
  static final double TTFT_OVERHEAD_MS = 200;
  static final double SPAN_TOLERANCE_MS = 15;
  static final double SPAN_TOLERANCE_PCT = 15;

  private LlamaServerChecks() {}

  static void runAndCheck(LlamaServer server, String api, Path results) throws Exception {
    GatlingRun.Result run;
    try {
      run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results,
              Map.of(
                  "base.url",
                  server.baseUrl().toString(),
                  "api",
                  api,
                  "conc",
                  "4",
                  "prompts",
                  String.valueOf(REQUESTS),
                  "input.len",
                  "64",
                  "output.len",
                  String.valueOf(OUTPUT_LEN),
                  "timeout",
                  "60"));
    } catch (RuntimeException | Error e) {
      throw new AssertionError(
          "Gatling run failed; end of the server's log:\n" + server.logTail(30), e);
    }
    String context = "\n--- end of the server's log ---\n" + server.logTail(15);
    assertEquals(0, run.exitCode(), "Gatling's exit code" + context);
    // a vocabulary of words: the words method, its samples re-counted by the server all exact
    assertTrue(
        run.console().contains("method: words")
            && run.console().contains("sample prompts re-counted by the server: all exact"),
        "exact prompt lengths:\n" + run.console());

    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(REQUESTS, records.size(), "requests" + context);
    for (RequestRecord r : records) {
      String id = api + " " + r.id() + " " + r;
      assertTrue(r.ok(), id + context);
      assertEquals(
          OUTPUT_LEN,
          r.outputTokens(),
          "output tokens = usage.completion_tokens = max_tokens: " + id);
      assertEquals(false, r.outputTokensEstimated(), id);
      assertEquals(OUTPUT_LEN - 1, r.itlMs().size(), "one text chunk per token: " + id);
      ServerTimings t = r.serverTimings();
      assertNotNull(t, "no timings object in the final chunk: " + id);
      assertEquals(OUTPUT_LEN, t.predictedN(), "timings.predicted_n: " + id);
      // llama.cpp's per-token figure is over the n - 1 steps after the first token: the kit's TPOT
      assertEquals(
          t.predictedMs() / (t.predictedN() - 1),
          t.predictedPerTokenMs(),
          1e-3,
          "predicted_per_token_ms: " + id);

      double ttft = r.ttftMs();
      double othersPrefill = othersPrefillMs(r, records);
      assertTrue(
          ttft >= t.promptMs() - 1 && ttft <= t.promptMs() + othersPrefill + TTFT_OVERHEAD_MS,
          String.format(
              Locale.ROOT,
              "TTFT %.0f ms vs prompt_ms %.1f (+ %.1f of the other requests): %s",
              ttft,
              t.promptMs(),
              othersPrefill,
              id));
      double span = r.e2elMs() - ttft;
      double tolerance = SPAN_TOLERANCE_MS + SPAN_TOLERANCE_PCT / 100 * t.predictedMs();
      assertEquals(
          t.predictedMs(),
          span,
          tolerance,
          String.format(
              Locale.ROOT,
              "E2EL - TTFT %.0f ms vs predicted_ms %.1f: %s",
              span,
              t.predictedMs(),
              id));
      double meanItl = r.itlMs().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      // one token per chunk: TPOT is the mean ITL (TPOT is rounded to the µs, as every record
      // figure)
      assertEquals(r.tpotMs(), meanItl, 0.0005 + 1e-9, id);
      assertEquals(
          t.predictedPerTokenMs(),
          r.tpotMs(),
          tolerance / (OUTPUT_LEN - 1),
          "TPOT vs predicted_per_token_ms: " + id);
    }

    Summary summary = TestReports.summary(run.runDir());
    assertEquals(
        LlamaServer.MODEL, summary.run().modelId(), "the model is the first id of /v1/models");
    assertEquals(REQUESTS, summary.overall().completed());
    assertEquals(0, summary.overall().failed());
    assertEquals((long) OUTPUT_LEN * REQUESTS, summary.overall().totalOutputTokens());
    System.out.printf(Locale.ROOT, "llama-server %s: %s%n", api, describe(records));
  }

  /**
   * The prefill time of the other requests in flight while {@code r} waited for its first token:
   * the server may process their prompts before or with {@code r}'s, which its own {@code
   * prompt_ms} does not count.
   */
  static double othersPrefillMs(RequestRecord r, List<RequestRecord> all) {
    double sum = 0;
    for (RequestRecord o : all) {
      if (o != r && o.startMs() < r.startMs() + r.ttftMs() && o.endMs() > r.startMs()) {
        sum += o.serverTimings().promptMs();
      }
    }
    return sum;
  }

  static String describe(List<RequestRecord> records) {
    StringBuilder b = new StringBuilder();
    for (RequestRecord r : records) {
      ServerTimings t = r.serverTimings();
      b.append(
          String.format(
              Locale.ROOT,
              "%n  %s ttft %.0f (prompt_ms %.1f, n %d) span %.0f (predicted_ms %.1f) mean itl %.2f (per token %.2f)",
              r.id(),
              r.ttftMs(),
              t.promptMs(),
              t.promptN(),
              r.e2elMs() - r.ttftMs(),
              t.predictedMs(),
              (r.e2elMs() - r.ttftMs()) / (r.outputTokens() - 1),
              t.predictedPerTokenMs()));
    }
    return b.toString();
  }
}
