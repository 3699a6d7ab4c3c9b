package io.github.llmbench.it;

import static io.github.llmbench.testing.ScriptedServer.Behaviour.CLOSE_BEFORE_HEADERS;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.CUT_MID_STREAM;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.ERROR_EVENT;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.HTTP_500;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.INVALID_UTF8;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.JSON_ANSWER;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.MALFORMED_CHUNK;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.OK;
import static io.github.llmbench.testing.ScriptedServer.Behaviour.RESET_BEFORE_HEADERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On keep-alive connections, as vLLM's server keeps them, each failure is followed by a request on
 * a reused connection: the server's log of {@code x-request-id}s shows every request arrived
 * exactly once, and each record's error is the one the server gave that id. One run for the class.
 */
class KeepAliveFailuresIT {
  @TempDir static Path results;

  private static ScriptedServer server;
  private static int requests;
  private static List<RequestRecord> records;

  @BeforeAll
  static void runAGoodAnswerBeforeEachFault() throws Exception {
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
    requests = 2 * script.size();
    server = new ScriptedServer(script, true);
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
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
  }

  @AfterAll
  static void stopTheServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static Map<String, Long> arrivals() {
    return server.requestIds().stream()
        .collect(Collectors.groupingBy(id -> id, TreeMap::new, Collectors.counting()));
  }

  @Test
  void noRequestReachesTheServerTwice() {
    Map<String, Long> twice = new TreeMap<>(arrivals());
    twice.values().removeIf(n -> n == 1);
    assertEquals(Map.of(), twice, "request ids the server received more than once");
  }

  @Test
  void theServerReceivedExactlyTheRecordedRequests() {
    assertEquals(requests, records.size());
    assertEquals(
        new TreeSet<>(arrivals().keySet()),
        records.stream().map(RequestRecord::id).collect(Collectors.toCollection(TreeSet::new)),
        "the server received exactly the recorded requests");
  }

  @Test
  void eachRecordFailsWithTheReasonItsServerAnswerGave() {
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
