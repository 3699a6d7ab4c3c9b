package io.github.llmbench.workload.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.workload.DatasetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionFileTest {

  private static Path file(Path dir, String... lines) throws Exception {
    Path f = dir.resolve("sessions.jsonl");
    Files.writeString(f, String.join("\n", lines) + "\n");
    return f;
  }

  /** The error a one-line file gives, with the file's name taken out. */
  private static String error(Path dir, String line) throws Exception {
    Path f = file(dir, line);
    DatasetException e = assertThrows(DatasetException.class, () -> SessionFile.read(f));
    return e.getMessage().replace(f.toString(), "F");
  }

  @Test
  void theShippedExampleFansOutAndIn() {
    List<AgentSession> s = SessionFile.read(Path.of("prompts/agent-sessions.jsonl"));
    assertEquals(
        List.of("code-review", "weather-agent", "research"),
        s.stream().map(AgentSession::id).toList());
    AgentSession review = s.get(0);
    assertEquals(
        List.of("read-cache", "read-tests"),
        review.children("plan").stream().map(SessionCall::id).toList());
    assertEquals(Map.of("plan", 1, "read-cache", 2, "read-tests", 2, "verdict", 3), review.steps());
    SessionCall verdict = review.call("verdict");
    assertEquals(List.of("read-cache", "read-tests"), verdict.after());
    assertEquals("plan", verdict.context());
    assertEquals(List.of("plan", "read-cache", "read-tests"), List.copyOf(verdict.needs()));
    SessionCall ask = s.get(1).call("ask");
    assertEquals(2, ask.toolLoop().rounds());
    assertTrue(ask.toolLoop().resultText().contains("rain_mm"));
    assertEquals(300.0, ask.toolLoop().toolTime().meanMs());
    assertEquals(3, s.get(2).children("split").size());
    assertEquals(3, s.get(2).depth());
  }

  @Test
  void quotesAreFilledWithTheAnswersGiven() {
    AgentSession s =
        SessionFile.session(
            "{\"calls\":[{\"id\":\"a\",\"prompt\":\"go\"},{\"id\":\"b\",\"after\":\"a\",\"prompt\":\"You"
                + " said {{answer:a}}; calls: {{ tool_calls : a }}. {{not a quote}}\"}]}",
            "line-1");
    assertEquals("line-1", s.id());
    CallOutcome a =
        new CallOutcome(
            "yes",
            "[{\"name\":\"f\"}]",
            List.of(Map.<String, Object>of("role", "user", "content", "go")));
    String text = s.call("b").messages().get(0).render(id -> a, (n, key) -> "", "s/b");
    assertEquals("You said yes; calls: [{\"name\":\"f\"}]. {{not a quote}}", text);
  }

  @Test
  void fillersAreMadeByLengthAndSharedByKey() {
    AgentSession s =
        SessionFile.session(
            "{\"calls\":[{\"id\":\"a\",\"messages\":[{\"role\":\"system\",\"content\":\"{{tokens:30:sys}}\"},{\"role\":\"user\",\"content\":\"Q"
                + " {{tokens:5}} and {{tokens:7}}\"}]}]}",
            "s");
    List<MessageTemplate> m = s.call("a").messages();
    assertEquals(30, m.get(0).fillerTokens());
    assertEquals(12, m.get(1).fillerTokens());
    MessageTemplate.FillerText echo = (n, key) -> "<" + n + "@" + key + ">";
    assertEquals("<30@sys>", m.get(0).render(id -> null, echo, "s/a/0"));
    assertEquals("Q <5@s/a/1#1> and <7@s/a/1#3>", m.get(1).render(id -> null, echo, "s/a/1"));
  }

  @Test
  void aCallQuotesOnlyWhatItWaitsFor(@TempDir Path dir) throws Exception {
    assertEquals(
        "Malformed sessions F line 1: session \"s\": call \"c\" quotes or continues \"b\", which it"
            + " does not wait for (expected a call named in its \"after\", or one those wait for)",
        error(
            dir,
            "{\"session\":\"s\",\"calls\":[{\"id\":\"a\",\"prompt\":\"x\"},{\"id\":\"b\",\"prompt\":\"y\"},"
                + "{\"id\":\"c\",\"after\":\"a\",\"prompt\":\"{{answer:b}}\"}]}"));
    // through another call is fine: c waits for b, b for a
    AgentSession ok =
        SessionFile.session(
            "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\"},{\"id\":\"b\",\"after\":\"a\",\"prompt\":\"y\"},"
                + "{\"id\":\"c\",\"after\":\"b\",\"context\":\"a\",\"prompt\":\"{{answer:a}}\"}]}",
            "s");
    assertEquals(3, ok.depth());
  }

  @Test
  void cyclesAndUnknownCallsAreNamed(@TempDir Path dir) throws Exception {
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\": calls a, b wait for each other (a cycle"
            + " in \"after\")",
        error(
            dir,
            "{\"calls\":[{\"id\":\"a\",\"after\":\"b\",\"prompt\":\"x\"},{\"id\":\"b\",\"after\":\"a\",\"prompt\":\"y\"}]}"));
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\": call \"a\": \"after\" names \"z\""
            + " (expected a call of this session: a)",
        error(dir, "{\"calls\":[{\"id\":\"a\",\"after\":[\"z\"],\"prompt\":\"x\"}]}"));
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\": two calls are named \"a\"",
        error(
            dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\"},{\"id\":\"a\",\"prompt\":\"y\"}]}"));
  }

  @Test
  void badFieldsNameTheLineTheCallAndWhatIsAccepted(@TempDir Path dir) throws Exception {
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": \"max_tokens\" is 0"
            + " (expected a whole number of tokens from 1 to 10000000)",
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":0}]}"));
    assertTrue(
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"afer\":\"b\"}]}")
            .startsWith(
                "Malformed sessions F line 1: session \"line-1\" call \"a\": unknown field \"afer\""
                    + " (expected id, after, delay_ms,"));
    assertTrue(
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"delay_ms\":-5}]}")
            .startsWith(
                "Malformed sessions F line 1: session \"line-1\" call \"a\": \"delay_ms\" is -5"
                    + " (expected ms as a number from 0, or"));
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": \"body\" sets \"stream\" (set"
            + " by the kit (it always streams))",
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"body\":{\"stream\":false}}]}"));
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": \"tool_rounds\" without"
            + " \"tools\" (a tool round needs tools to call)",
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"tool_rounds\":2}]}"));
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": message 1: \"role\" is"
            + " \"robot\" (expected system, user, assistant, tool)",
        error(
            dir,
            "{\"calls\":[{\"id\":\"a\",\"messages\":[{\"role\":\"robot\",\"content\":\"x\"}]}]}"));
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": \"prompt\" quotes"
            + " {{answr:b}} (expected {{answer:ID}}, {{tool_calls:ID}}, {{tokens:N}} or"
            + " {{tokens:N:KEY}})",
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"{{answr:b}}\"}]}"));
    assertEquals("Malformed sessions F line 1: not a JSON object", error(dir, "[1, 2]"));
  }

  @Test
  void aHeaderValueIsNeverEchoed(@TempDir Path dir) throws Exception {
    String e =
        error(
            dir,
            "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"headers\":{\"Authorization\":[\"sk-secret\"]}}]}");
    assertFalse(e.contains("sk-secret"), e);
    assertTrue(e.contains("header \"Authorization\" is not a string"), e);
    assertTrue(
        error(
                dir,
                "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"headers\":{\"X-Request-Id\":\"1\"}}]}")
            .contains("header \"X-Request-Id\" is the kit's own"));
  }

  @Test
  void sessionNamesAreUniqueAndAFileHoldsOne(@TempDir Path dir) throws Exception {
    Path twice =
        file(
            dir,
            "{\"session\":\"s\",\"calls\":[{\"id\":\"a\",\"prompt\":\"x\"}]}",
            "{\"session\":\"s\",\"calls\":[{\"id\":\"a\",\"prompt\":\"x\"}]}");
    assertEquals(
        "Malformed sessions "
            + twice
            + " line 2: session \"s\" is named twice (expected unique"
            + " names)",
        assertThrows(DatasetException.class, () -> SessionFile.read(twice)).getMessage());
    Path empty = file(dir, "", " ");
    assertEquals(
        "Invalid -Ddataset=sessions:" + empty + ": it holds no session",
        assertThrows(DatasetException.class, () -> SessionFile.read(empty)).getMessage());
  }

  /**
   * Issue 62 item 2: every length of a call ({@code max_tokens}, {@code {{tokens:N}}}, a synthetic
   * tool result) past the one maximum is refused as the file is read, not when a call is sent.
   */
  @Test
  void lengthsPastTheMaximumAreRefusedWithTheCall(@TempDir Path dir) throws Exception {
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": \"max_tokens\" is"
            + " 2147483647 (expected a whole number of tokens from 1 to 10000000)",
        error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":2147483647}]}"));
    for (String n : List.of("2147483647", "10000001", "99999999999999999999999")) {
      assertEquals(
          "Malformed sessions F line 1: session \"line-1\" call \"a\": \"prompt\" quotes"
              + " {{tokens:"
              + n
              + "}} (expected N a whole number of tokens from 1 to 10000000)",
          error(dir, "{\"calls\":[{\"id\":\"a\",\"prompt\":\"{{tokens:" + n + "}}\"}]}"));
    }
    assertEquals(
        "Malformed sessions F line 1: session \"line-1\" call \"a\": \"tool_result\":"
            + " \"tokens\" is 4294967296 (expected a whole number of tokens from 1 to 10000000)",
        error(
            dir,
            "{\"calls\":[{\"id\":\"a\",\"prompt\":\"x\",\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"f\"}}],\"tool_result\":{\"tokens\":4294967296}}]}"));
    AgentSession top =
        SessionFile.read(
                file(
                    dir,
                    "{\"calls\":[{\"id\":\"a\",\"prompt\":\"{{tokens:10000000}}\",\"max_tokens\":10000000}]}"))
            .get(0);
    assertEquals(10_000_000, top.calls().get(0).maxTokens(), "the maximum itself is accepted");
  }
}
