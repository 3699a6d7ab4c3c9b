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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
  void everyFailureIsRecordedWithItsReasonAndNothingIsResent(@TempDir Path results) throws Exception {
    List<ScriptedServer.Behaviour> script =
        List.of(OK, HTTP_500, ERROR_EVENT, CUT_MID_STREAM, END_WITHOUT_DONE, INVALID_JSON, STALL, SILENT);
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
              .collect(Collectors.toMap(RequestRecord::error, r -> r.httpStatus() == null ? -1 : r.httpStatus(), (a, b) -> a, TreeMap::new));
      assertEquals(7, statusByError.size(), statusByError.toString());
      assertEquals(500, statusByError.get("HTTP 500: boom"));
      assertEquals(-1, statusByError.get("timeout: no response within 5 s"));
      assertEquals(200, statusByError.get("error event: engine <script>alert(1)</script> died (code 500)"));
      assertEquals(200, statusByError.get("stream ended without [DONE]"));
      assertEquals(200, statusByError.get("timeout: no [DONE] within 5 s"));
      assertTrue(statusByError.keySet().stream().anyMatch(e -> e.startsWith("invalid JSON chunk: {\"choices\"")), statusByError.toString());
      assertTrue(statusByError.keySet().stream().anyMatch(e -> e.startsWith("stream cut before [DONE]")), statusByError.toString());

      RequestRecord cut = records.stream().filter(r -> !r.ok() && r.error().startsWith("stream cut")).findFirst().orElseThrow();
      long cutLatency = cut.endMs() - server.cutAtMs().get(0);
      assertTrue(cutLatency < 100, "a cut stream fails within 100 ms of the cut, not " + cutLatency + " ms");
      for (String timedOut : List.of("timeout: no response within 5 s", "timeout: no [DONE] within 5 s")) {
        RequestRecord r = records.stream().filter(x -> timedOut.equals(x.error())).findFirst().orElseThrow();
        long ms = r.endMs() - r.startMs();
        assertTrue(ms >= 5000 && ms < 5500, timedOut + " after " + ms + " ms: the timeout bounds a request from its send");
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

      // server text reaches Gatling's shared HTML report only escaped
      String index = Files.readString(run.runDir().resolve("index.html"));
      assertTrue(index.contains("engine &lt;script&gt;alert(1)&lt;/script&gt; died"), "error not in the report");
      assertFalse(index.contains("<script>alert(1)"), "unescaped server text in the report");

      JsonNode summary = new ObjectMapper().readTree(run.llm("summary.json").toFile());
      assertEquals(1, summary.get("completed").asInt());
      assertEquals(7, summary.get("failed").asInt());
      assertEquals(5, summary.get("total_output_tokens").asInt());
    }
  }
}
