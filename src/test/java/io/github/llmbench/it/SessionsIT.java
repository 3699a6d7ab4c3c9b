package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.SessionsFigures;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agent sessions from a session file ({@code -Ddataset=sessions:PATH}) against a scripted server
 * that logs what it received and calls a tool when offered one: run once for the class, checked
 * from the server's side.
 */
class SessionsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Fan-out and fan-in with quotes and a context; a tool loop of one round, then a reply. */
  private static final String SESSIONS =
      """
      {"session":"fan","calls":[{"id":"a","prompt":"start","max_tokens":5},\
      {"id":"b","after":"a","prompt":"B saw: {{answer:a}}"},\
      {"id":"c","after":"a","delay_ms":100,"prompt":"C saw: {{answer:a}}"},\
      {"id":"d","after":["b","c"],"context":"a","prompt":"B said {{answer:b}}; C said {{answer:c}}"}]}
      {"session":"tool","calls":[{"id":"t","prompt":"look it up",\
      "tools":[{"type":"function","function":{"name":"lookup","parameters":{"type":"object"}}}],\
      "tool_rounds":1,"tool_result":"42","tool_ms":150},\
      {"id":"u","after":"t","context":"t","prompt":"now say it"}]}
      """;

  @TempDir static Path results;

  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static Map<String, ScriptedServer.Exchange> received;
  private static List<String> receivedIds;
  private static Summary summary;

  @BeforeAll
  static void runSessions() throws Exception {
    Path file = results.resolve("sessions.jsonl");
    Files.writeString(file, SESSIONS);
    List<ScriptedServer.Exchange> exchanges;
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results,
              Map.of(
                  "base.url", server.baseUrl(),
                  "dataset", "sessions:" + file,
                  "conc", "2",
                  "prompts", "4",
                  "warmup", "0",
                  "output.len", "5",
                  "seed", "11",
                  "session.header", "X-Session-ID",
                  "gate.goodput", "task:60000"));
      exchanges = List.copyOf(server.exchanges());
    }
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(RunFiles.ofRun(run.runDir()).requests());
    receivedIds = exchanges.stream().map(e -> e.headers().get("x-request-id")).toList();
    received =
        exchanges.stream()
            .collect(Collectors.toMap(e -> e.headers().get("x-request-id"), e -> e, (a, b) -> a));
    summary = TestReports.summary(run.runDir());
  }

  private static RequestOrigin.SessionPlace place(RequestRecord r) {
    return r.origin().sessionPlace();
  }

  private static RequestRecord call(String session, String call, int round) {
    return records.stream()
        .filter(r -> place(r).session().equals(session) && place(r).call().equals(call))
        .filter(r -> place(r).round() == round)
        .findFirst()
        .orElseThrow(() -> new AssertionError(session + " " + call + " round " + round));
  }

  private static JsonNode messages(RequestRecord r) throws Exception {
    return JSON.readTree(received.get(r.id()).body()).get("messages");
  }

  private static String lastUserText(RequestRecord r) throws Exception {
    JsonNode m = messages(r);
    return m.get(m.size() - 1).get("content").asText();
  }

  @Test
  void eachCallOfEachSessionIsSentOnceAndTheServerGotEveryRequest() {
    // -Dprompts counts sessions: two of each, 4 calls a fan, 2 calls and a tool round a tool
    assertEquals(2 * 4 + 2 * 3, records.size(), records.toString());
    assertTrue(records.stream().allMatch(RequestRecord::ok), records.toString());
    assertEquals(
        received.keySet(), records.stream().map(RequestRecord::id).collect(Collectors.toSet()));
    assertEquals(
        records.stream().map(RequestRecord::id).sorted().toList(),
        receivedIds.stream().sorted().toList(),
        "each x-request-id arrived exactly once");
    Map<String, Long> perSession =
        records.stream()
            .collect(Collectors.groupingBy(r -> place(r).session(), Collectors.counting()));
    assertEquals(Map.of("fan#1", 4L, "tool#2", 3L, "fan#3", 4L, "tool#4", 3L), perSession);
  }

  @Test
  void aCallIsSentOnlyAfterEveryCallItWaitsForHasEnded() {
    for (RequestRecord r : records) {
      for (String parent : place(r).parents()) {
        RequestRecord p = call(place(r).session(), parent, 0);
        long lastRound =
            records.stream()
                .filter(x -> place(x).session().equals(place(r).session()))
                .filter(x -> place(x).call().equals(parent))
                .mapToLong(RequestRecord::endMs)
                .max()
                .orElseThrow();
        assertTrue(r.startMs() >= lastRound, r + " started before " + p + " ended");
      }
    }
    for (String s : List.of("fan#1", "fan#3")) {
      assertTrue(
          call(s, "c", 0).startMs() >= call(s, "a", 0).endMs() + 100, "c waits 100 ms after a");
      assertEquals(List.of("b", "c"), place(call(s, "d", 0)).parents());
      assertEquals(3, place(call(s, "d", 0)).step(), "one more than b's and c's step");
    }
  }

  @Test
  void quotesAndContextsCarryWhatTheServerStreamed() throws Exception {
    for (String s : List.of("fan#1", "fan#3")) {
      String a = received.get(call(s, "a", 0).id()).answer();
      String b = received.get(call(s, "b", 0).id()).answer();
      String c = received.get(call(s, "c", 0).id()).answer();
      assertEquals("B saw: " + a, lastUserText(call(s, "b", 0)));
      assertEquals(
          "C saw: " + c.isEmpty() + a, "C saw: false" + lastUserText(call(s, "c", 0)).substring(7));
      JsonNode d = messages(call(s, "d", 0));
      // a's conversation (its prompt and its answer), then d's own message
      assertEquals(3, d.size(), d.toString());
      assertEquals("start", d.get(0).get("content").asText());
      assertEquals(a, d.get(1).get("content").asText());
      assertEquals("B said " + b + "; C said " + c, d.get(2).get("content").asText());
    }
  }

  @Test
  void aToolCallGetsTheToolsResultAfterTheToolsTime() throws Exception {
    for (String s : List.of("tool#2", "tool#4")) {
      RequestRecord first = call(s, "t", 0);
      RequestRecord second = call(s, "t", 1);
      JsonNode m = messages(second);
      assertEquals(3, m.size(), m.toString());
      JsonNode assistant = m.get(1);
      String id = assistant.get("tool_calls").get(0).get("id").asText();
      assertTrue(id.startsWith("call_r"), assistant.toString());
      assertEquals(
          "lookup", assistant.get("tool_calls").get(0).get("function").get("name").asText());
      assertEquals(
          "{\"q\":\"" + id.substring(5) + "\"}",
          assistant.get("tool_calls").get(0).get("function").get("arguments").asText());
      assertEquals("", assistant.get("content").asText(), "the call's pieces are not its content");
      assertEquals("tool", m.get(2).get("role").asText());
      assertEquals(id, m.get(2).get("tool_call_id").asText());
      assertEquals("42", m.get(2).get("content").asText());
      assertTrue(second.startMs() >= first.endMs() + 150, "the tool takes 150 ms");
      // u continues t's whole conversation: its tool round and the final answer
      JsonNode u = messages(call(s, "u", 0));
      assertEquals(5, u.size(), u.toString());
      assertEquals(received.get(second.id()).answer(), u.get(3).get("content").asText());
    }
  }

  @Test
  void eachCallNamesItsSessionInTheSessionHeader() {
    for (RequestRecord r : records) {
      assertEquals(place(r).session(), received.get(r.id()).headers().get("x-session-id"));
    }
  }

  @Test
  void thePageDrawsTheContextGrowthChart() throws Exception {
    Chromium.Dump dump = Chromium.open(RunFiles.ofRun(run.runDir()).page());
    Matcher status = Pattern.compile("data-expected=\"(\\d+)\"").matcher(dump.dom());
    assertTrue(status.find(), dump.log());
    Chromium.assertChartsDrawn(dump, Integer.parseInt(status.group(1)));
    assertTrue(dump.dom().contains("TTFT and prompt length by step (c2)"), "the steps chart");
    assertTrue(dump.dom().contains("Task time and where it went"), "the sessions table");
  }

  @Test
  void theSummaryAndTheConsoleHaveTheTaskFigures() {
    SessionsFigures s = summary.levels().get("c2").sessions();
    assertNotNull(s, "levels.c2.sessions");
    assertEquals(4, s.sessions());
    assertEquals(4, s.completed());
    assertEquals(3.0, s.meanCalls(), 1e-9);
    assertEquals(3.5, s.meanRequests(), 1e-9);
    assertEquals(List.of(1, 2, 3), s.steps().stream().map(SessionsFigures.Step::step).toList());
    assertTrue(s.toolShare() > 0, "the tool's 150 ms is the tool's share: " + s);
    assertEquals(100.0, summary.levels().get("c2").goodputPct(), 1e-9, "every task within 60 s");
    assertTrue(run.console().contains("Agent sessions"), run.console());
  }
}
