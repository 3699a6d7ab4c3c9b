package io.github.llmbench.workload.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionRunTest {
  private static final List<AgentSession> EXAMPLE =
      SessionFile.read(Path.of("prompts/agent-sessions.jsonl"));
  private static final MessageTemplate.FillerText FILLER = (n, key) -> "<" + n + "@" + key + ">";

  private static SessionRun run(String id, long seed) {
    return new SessionRun(
        EXAMPLE.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(), seed, FILLER);
  }

  private static SessionRun.Answer says(String text) {
    return new SessionRun.Answer(text, List.of());
  }

  private static List<String> calls(List<SessionRun.Due> due) {
    return due.stream().map(SessionRun.Due::call).toList();
  }

  private static String lastContent(SessionRun.Request r) {
    return (String) r.messages().get(r.messages().size() - 1).get("content");
  }

  @Test
  void fanOutWaitsForItsParentAndFanInForAllItsParents() {
    SessionRun run = run("research", 1);
    assertEquals(List.of("split"), calls(run.start()));
    assertThrows(IllegalStateException.class, () -> run.request("q1"));
    assertEquals(List.of("q1", "q2", "q3"), calls(run.answered("split", says("A\nB\nC"))));
    SessionRun.Request q2 = run.request("q2");
    assertEquals(
        "Answer the second of these sub-questions in two sentences: A\nB\nC", lastContent(q2));
    assertEquals(2, q2.step());
    assertEquals(List.of("split"), q2.parents());
    assertEquals(List.of(), run.answered("q2", says("two")));
    assertEquals(List.of(), run.answered("q3", says("three")));
    List<SessionRun.Due> merge = run.answered("q1", says("one"));
    assertEquals(List.of("merge"), calls(merge));
    double wait = merge.get(0).delayMs();
    assertTrue(wait >= 20 && wait <= 80, "uniform 20-80 ms drew " + wait);
    assertEquals(
        "Merge these answers into one paragraph:\n1. one\n2. two\n3. three",
        lastContent(run.request("merge")));
    assertFalse(run.finished());
    run.answered("merge", says("done"));
    assertTrue(run.finished());
    assertTrue(run.succeeded());
  }

  @Test
  void aWaitIsTheSameWhateverOrderTheCallsEndIn() {
    SessionRun a = run("research", 9);
    a.start();
    a.answered("split", says("x"));
    a.answered("q1", says("1"));
    a.answered("q2", says("2"));
    double first = a.answered("q3", says("3")).get(0).delayMs();
    SessionRun b = run("research", 9);
    b.start();
    b.answered("split", says("x"));
    b.answered("q3", says("3"));
    b.answered("q2", says("2"));
    assertEquals(first, b.answered("q1", says("1")).get(0).delayMs());
    SessionRun other = run("research", 10);
    other.start();
    other.answered("split", says("x"));
    other.answered("q3", says("3"));
    other.answered("q2", says("2"));
    assertFalse(first == other.answered("q1", says("1")).get(0).delayMs());
  }

  @Test
  void toolCallsGetTheToolsResultUpToTheRoundLimit() {
    SessionRun run = run("weather-agent", 3);
    assertEquals(List.of("ask"), calls(run.start()));
    SessionRun.Answer call =
        new SessionRun.Answer(
            "",
            List.of(
                new SessionRun.ToolCall(
                    "call_1", "get_forecast", "{\"city\":\"Lyon\",\"day\":\"tomorrow\"}")));
    List<SessionRun.Due> next = run.answered("ask", call);
    assertEquals(List.of(new SessionRun.Due("ask", 1, next.get(0).delayMs())), next);
    SessionRun.Request round1 = run.request("ask");
    assertEquals(1, round1.round());
    List<Map<String, Object>> m = round1.messages();
    assertEquals(3, m.size());
    assertEquals("assistant", m.get(1).get("role"));
    assertEquals(
        List.of(
            Map.of(
                "id", "call_1",
                "type", "function",
                "function",
                    Map.of(
                        "name", "get_forecast",
                        "arguments", "{\"city\":\"Lyon\",\"day\":\"tomorrow\"}"))),
        m.get(1).get("tool_calls"));
    assertEquals("tool", m.get(2).get("role"));
    assertEquals("call_1", m.get(2).get("tool_call_id"));
    assertTrue(((String) m.get(2).get("content")).contains("rain_mm"));
    List<SessionRun.Due> round2 = run.answered("ask", call);
    assertEquals(List.of("ask"), calls(round2));
    assertEquals(2, round2.get(0).round());
    assertEquals(5, run.request("ask").messages().size());
    // the limit (2 rounds) reached: an answer with tool calls ends the call
    assertEquals(List.of("reply"), calls(run.answered("ask", call)));
    SessionRun.Request reply = run.request("reply");
    assertEquals(7, reply.messages().size()); // ask's 5, its last answer, the reply's own
    assertEquals("Say it in one sentence for a text message.", lastContent(reply));
  }

  @Test
  void aFailedCallSkipsWhatWaitsForItAndTheRestGoesOn() {
    SessionRun run = run("code-review", 5);
    run.start();
    run.answered("plan", says("Cache.java, CacheTest.java"));
    run.failed("read-cache");
    assertFalse(run.finished());
    assertEquals(List.of(), run.answered("read-tests", says("no eviction test")));
    assertTrue(run.finished());
    assertFalse(run.succeeded());
    assertEquals(List.of("verdict"), run.skipped());
  }

  @Test
  void aContextIsTheConversationOfTheCallItContinues() {
    SessionRun run = run("code-review", 5);
    run.start();
    SessionRun.Request plan = run.request("plan");
    assertEquals(2, plan.messages().size());
    run.answered("plan", says("read both"));
    run.answered("read-cache", says("stale counters"));
    run.answered("read-tests", says("size only"));
    SessionRun.Request verdict = run.request("verdict");
    List<Map<String, Object>> m = verdict.messages();
    assertEquals(4, m.size()); // plan's system and user, its answer, the verdict's own
    assertEquals(Map.of("role", "assistant", "content", "read both"), m.get(2));
    assertEquals(
        "On the cache: stale counters\n"
            + "On the tests: size only\n"
            + "Give your verdict in three sentences.",
        lastContent(verdict));
    assertEquals(3, verdict.step());
  }
}
