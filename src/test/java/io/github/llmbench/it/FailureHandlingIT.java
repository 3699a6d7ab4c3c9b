package io.github.llmbench.it;

import static io.github.llmbench.testing.ScriptedServer.Behaviour.CLOSE_BEFORE_HEADERS;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.CUT_MID_STREAM;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.END_WITHOUT_DONE;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.ERROR_EVENT;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.HTTP_500;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.INVALID_JSON;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.INVALID_UTF8;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.JSON_ANSWER;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.MALFORMED_CHUNK;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.OK;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.RESET_BEFORE_HEADERS;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.SILENT;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.STALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each way a stream can fail becomes a failed request with a short reason (the server's own words
 * where it gave some), is left out of the latency figures, is never sent twice, and fails when it
 * happens: a cut at once, a silent or stalled server at the request timeout.
 */
class FailureHandlingIT {

  @Test
  void everyFailureIsRecordedWithItsReasonAndNothingIsResent(@TempDir Path results)
      throws Exception {
    List<ScriptedServer.Behaviour> script =
        List.of(
            OK,
            HTTP_500,
            ERROR_EVENT,
            CUT_MID_STREAM,
            END_WITHOUT_DONE,
            INVALID_JSON,
            STALL,
            SILENT);
    try (ScriptedServer server = new ScriptedServer(script)) {
      GatlingRun.Result run =
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

      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(8, records.size());
      assertEquals(8, server.completionBodies().size(), "a cut stream must not be sent again");

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

      RequestRecord cut =
          records.stream()
              .filter(r -> !r.ok() && r.error().startsWith("stream cut"))
              .findFirst()
              .orElseThrow();
      long cutLatency = cut.endMs() - server.cutAtMs().get(0);
      assertTrue(
          cutLatency < 100,
          "a cut stream fails within 100 ms of the cut, not " + cutLatency + " ms");
      for (String timedOut :
          List.of("timeout: no response within 5 s", "timeout: no [DONE] within 5 s")) {
        RequestRecord r =
            records.stream().filter(x -> timedOut.equals(x.error())).findFirst().orElseThrow();
        long ms = r.endMs() - r.startMs();
        assertTrue(
            ms >= 5000 && ms < 5500,
            timedOut + " after " + ms + " ms: the timeout bounds a request from its send");
      }

      for (RequestRecord r : records) {
        if (!r.ok()) {
          assertEquals(null, r.ttftMs());
          assertEquals(null, r.e2elMs());
        }
      }
      RequestRecord ok = records.stream().filter(RequestRecord::ok).findFirst().orElseThrow();
      assertEquals(5, ok.outputTokens());
      assertEquals(7, ok.inputTokens());

      // Gatling counts each stream once, a failed one KO with its reason
      GatlingReport.Row global = GatlingReport.of(run.runDir()).global();
      assertEquals(new GatlingReport.Row(8, 1, 7, global.meanMs()), global);

      // server text reaches Gatling's shared HTML report only escaped
      String index = Files.readString(run.runDir().resolve("index.html"));
      assertTrue(
          index.contains("engine &lt;script&gt;alert(1)&lt;/script&gt; died"),
          "error not in the report");
      assertFalse(index.contains("<script>alert(1)"), "unescaped server text in the report");

      JsonNode summary = new ObjectMapper().readTree(run.llm("summary.json").toFile());
      assertEquals(1, summary.get("completed").asInt());
      assertEquals(7, summary.get("failed").asInt());
      assertEquals(5, summary.get("total_output_tokens").asInt());
    }
  }

  /**
   * On keep-alive connections, as vLLM's server keeps them, each failure is followed by a request
   * on a reused connection: the server's log of {@code x-request-id}s shows every request arrived
   * exactly once, and each record's error is the one the server gave that id.
   */
  @Test
  void everyRequestReachesTheServerOnceAndFailsWithItsOwnReason(@TempDir Path results)
      throws Exception {
    List<ScriptedServer.Behaviour> faults =
        List.of(
            HTTP_500,
            ERROR_EVENT,
            CUT_MID_STREAM,
            RESET_BEFORE_HEADERS,
            CLOSE_BEFORE_HEADERS,
            MALFORMED_CHUNK,
            JSON_ANSWER,
            INVALID_UTF8);
    List<ScriptedServer.Behaviour> script = new ArrayList<>();
    for (ScriptedServer.Behaviour f : faults) {
      script.add(OK); // a good answer first, so the fault meets a connection from the pool
      script.add(f);
    }
    int requests = 2 * script.size();
    try (ScriptedServer server = new ScriptedServer(script, true)) {
      GatlingRun.Result run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results,
              Map.of(
                  "base.url", server.baseUrl(),
                  "conc", "1",
                  "prompts", String.valueOf(requests),
                  "gate.failed.pct", "100",
                  "output.len", "5",
                  "input.len", "20",
                  "timeout", "5"));
      assertEquals(0, run.exitCode(), run.console());

      List<String> ids = server.requestIds();
      Map<String, Long> arrivals =
          ids.stream()
              .collect(Collectors.groupingBy(id -> id, TreeMap::new, Collectors.counting()));
      Map<String, Long> twice = new TreeMap<>(arrivals);
      twice.values().removeIf(n -> n == 1);
      assertEquals(Map.of(), twice, "request ids the server received more than once");

      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(requests, records.size());
      assertEquals(
          new TreeSet<>(arrivals.keySet()),
          records.stream().map(RequestRecord::id).collect(Collectors.toCollection(TreeSet::new)),
          "the server received exactly the recorded requests");
      Map<ScriptedServer.Behaviour, Predicate<String>> expected =
          Map.of(
              HTTP_500, e -> e.equals("HTTP 500: boom"),
              ERROR_EVENT, e -> e.startsWith("error event: engine"),
              CUT_MID_STREAM, e -> e.startsWith("stream cut before [DONE]"),
              // Netty's native (epoll) transport closes a reset connection without reporting the
              // reset; its NIO transport reports it
              RESET_BEFORE_HEADERS,
                  e ->
                      e.startsWith("connection reset by the server before the response")
                          || e.startsWith("connection closed by the server before the response"),
              CLOSE_BEFORE_HEADERS,
                  e -> e.startsWith("connection closed by the server before the response"),
              MALFORMED_CHUNK,
                  e -> e.startsWith("malformed HTTP chunk: invalid character in chunk size"),
              JSON_ANSWER,
                  e ->
                      e.startsWith(
                          "HTTP 200 without an event stream (content-type application/json)"),
              INVALID_UTF8, e -> e.startsWith("invalid UTF-8 in an event"));
      for (RequestRecord r : records) {
        ScriptedServer.Behaviour answered = server.behaviourById().get(r.id());
        if (answered == OK) {
          assertTrue(r.ok(), r.toString());
        } else {
          assertFalse(r.ok(), r.toString());
          assertTrue(
              expected.get(answered).test(r.error()),
              answered + " answered " + r.id() + ", its record says: " + r.error());
        }
      }
    }
  }
}
