package io.github.llmbench.it;

import static io.github.llmbench.testing.ScriptedServer.Behaviour.CUT_MID_STREAM;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.END_WITHOUT_DONE;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.ERROR_EVENT;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.HTTP_500;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.INVALID_JSON;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.OK;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.SILENT;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.STALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each way a stream can fail becomes a failed request with a short reason (the server's own words
 * where it gave some), is left out of the latency figures, is never sent twice, and fails when it
 * happens: a cut at once, a silent or stalled server at the request timeout. One run of eight
 * requests, each answered its own way, for the class; on keep-alive connections: {@link
 * KeepAliveFailuresIT}.
 */
class FailureHandlingIT {
  @TempDir static Path results;

  private static ScriptedServer server;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;

  @BeforeAll
  static void runEightRequestsEachFailingItsOwnWay() throws Exception {
    server =
        new ScriptedServer(
            List.of(
                OK,
                HTTP_500,
                ERROR_EVENT,
                CUT_MID_STREAM,
                END_WITHOUT_DONE,
                INVALID_JSON,
                STALL,
                SILENT));
    run =
        GatlingRun.run(
            FixedRequestsSimulation.class,
            results,
            Map.of(
                "base.url", server.baseUrl(),
                "conc", "8",
                "it.requests", "8",
                "output.len", "5",
                "input.len", "20",
                "timeout", "5"));
    assertEquals(0, run.exitCode());
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
  }

  @AfterAll
  static void stopTheServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static RequestRecord failedWith(String error) {
    return records.stream().filter(x -> error.equals(x.error())).findFirst().orElseThrow();
  }

  @Test
  void everyRequestIsRecordedAndNoneIsSentAgain() {
    assertEquals(8, records.size());
    assertEquals(8, server.completionBodies().size(), "a cut stream must not be sent again");
  }

  @Test
  void eachFailureHasItsReasonAndStatus() {
    Map<String, Integer> statusByError =
        records.stream()
            .filter(r -> !r.ok())
            .collect(
                Collectors.toMap(
                    RequestRecord::error,
                    r -> r.httpStatus() == null ? -1 : r.httpStatus(),
                    (a, b) -> a,
                    TreeMap::new));
    assertEquals(7, statusByError.size(), statusByError.toString());
    assertEquals(500, statusByError.get("HTTP 500: boom"));
    assertEquals(-1, statusByError.get("timeout: no response within 5 s"));
    assertEquals(
        200, statusByError.get("error event: engine <script>alert(1)</script> died (code 500)"));
    assertEquals(200, statusByError.get("stream ended without [DONE]"));
    assertEquals(200, statusByError.get("timeout: no [DONE] within 5 s"));
    assertTrue(
        statusByError.keySet().stream()
            .anyMatch(e -> e.startsWith("invalid JSON chunk: {\"choices\"")),
        statusByError.toString());
    assertTrue(
        statusByError.keySet().stream().anyMatch(e -> e.startsWith("stream cut before [DONE]")),
        statusByError.toString());
  }

  @Test
  void aCutStreamFailsAtOnce() {
    RequestRecord cut =
        records.stream()
            .filter(r -> !r.ok() && r.error().startsWith("stream cut"))
            .findFirst()
            .orElseThrow();
    long cutLatency = cut.endMs() - server.cutAtMs().get(0);
    assertTrue(
        cutLatency < 100, "a cut stream fails within 100 ms of the cut, not " + cutLatency + " ms");
  }

  @Test
  void aSilentOrStalledServerFailsAtTheTimeoutFromTheSend() {
    for (String timedOut :
        List.of("timeout: no response within 5 s", "timeout: no [DONE] within 5 s")) {
      RequestRecord r = failedWith(timedOut);
      long ms = r.endMs() - r.startMs();
      assertTrue(
          ms >= 5000 && ms < 5500,
          timedOut + " after " + ms + " ms: the timeout bounds a request from its send");
    }
  }

  @Test
  void aFailureHasNoLatencies() {
    for (RequestRecord r : records) {
      if (!r.ok()) {
        assertNull(r.ttftMs(), r.toString());
        assertNull(r.e2elMs(), r.toString());
      }
    }
  }

  @Test
  void theGoodRequestCountsItsTokens() {
    RequestRecord ok = records.stream().filter(RequestRecord::ok).findFirst().orElseThrow();
    assertEquals(5, ok.outputTokens());
    assertEquals(7, ok.inputTokens());
  }

  @Test
  void gatlingCountsEachStreamOnceAFailedOneKo() throws Exception {
    GatlingReport.Row global = GatlingReport.of(run.runDir()).global();
    assertEquals(new GatlingReport.Row(8, 1, 7, global.meanMs()), global);
  }

  @Test
  void serverTextReachesGatlingsReportOnlyEscaped() throws Exception {
    String index = Files.readString(run.runDir().resolve("index.html"));
    assertTrue(
        index.contains("engine &lt;script&gt;alert(1)&lt;/script&gt; died"),
        "error not in the report");
    assertFalse(index.contains("<script>alert(1)"), "unescaped server text in the report");
  }

  @Test
  void theSummaryCountsTheGoodAndTheFailed() {
    Summary summary = TestReports.summary(run.runDir());
    assertEquals(1, summary.overall().completed());
    assertEquals(7, summary.overall().failed());
    assertEquals(5, summary.overall().totalOutputTokens());
  }
}
