package io.github.llmbench.workload.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.workload.DatasetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WekaTracesTest {

  /** A conversation of the spec's shape: two requests, a sub-agent, a request after it. */
  private static final String CONVERSATION =
      """
      {
        "id": "8712b46f-04e",
        "models": ["m"],
        "block_size": 64,
        "tool_tokens": 300,
        "system_tokens": 200,
        "requests": [
          {"t": 0.0, "type": "s", "in": 1000, "out": 50, "api_time": 2.0, "stop": "tool_use"},
          {"t": 3.5, "type": "s", "in": 1150, "out": 40, "api_time": 1.0},
          {"t": 5.0, "type": "subagent", "agent_id": "96624242", "duration_ms": 6000,
           "status": "completed", "tool_tokens": 100, "system_tokens": 20,
           "requests": [
             {"t": 0.0, "type": "s", "in": 400, "out": 30, "api_time": 1.5},
             {"t": 2.5, "type": "s", "in": 480, "out": 20, "api_time": 1.0}
           ]},
          {"t": 100000.0, "type": "s", "in": 900, "out": 10, "think_time": 0.25}
        ]
      }
      """;

  @Test
  void aConversationIsAChainWithItsSubAgentJoined(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("trace.json");
    Files.writeString(f, CONVERSATION);
    List<AgentSession> sessions = WekaTraces.read(f, WekaTraces.DEFAULT_IDLE_CAP_MS);
    assertEquals(1, sessions.size());
    AgentSession s = sessions.get(0);
    assertEquals("8712b46f-04e", s.id());
    assertEquals(
        List.of("r1", "r2", "96624242/r1", "96624242/r2", "r4"),
        s.calls().stream().map(SessionCall::id).toList());
    // the first opens with the shared prefix, then its own 500 tokens
    SessionCall r1 = s.call("r1");
    assertEquals(
        List.of(new MessageTemplate.Filler(500, WekaTraces.PREFIX_KEY)),
        r1.messages().get(0).parts());
    assertEquals(500, r1.messages().get(1).fillerTokens());
    assertEquals(50, r1.maxTokens());
    // the second continues it, adds 1150 - 1000 - 50 tokens, 1.5 s after r1 ended (t 0 + 2.0)
    SessionCall r2 = s.call("r2");
    assertEquals("r1", r2.context());
    assertEquals(100, r2.messages().get(0).fillerTokens());
    assertEquals(new Delay.Fixed(1500), r2.delay());
    // the sub-agent starts 5.0 - (3.5 + 1.0) s after r2 ended, with a context of its own
    SessionCall sub1 = s.call("96624242/r1");
    assertEquals(List.of("r2"), sub1.after());
    assertEquals(null, sub1.context());
    assertEquals(new Delay.Fixed(500), sub1.delay());
    assertEquals(
        List.of(new MessageTemplate.Filler(120, WekaTraces.PREFIX_KEY)),
        sub1.messages().get(0).parts());
    assertEquals(new Delay.Fixed(1000), s.call("96624242/r2").delay());
    // r4 waits for r2 and the sub-agent; its context shrank (900 < 1150 + 40): it starts afresh
    SessionCall r4 = s.call("r4");
    assertEquals(List.of("r2", "96624242/r2"), r4.after());
    assertEquals(null, r4.context());
    assertEquals(new Delay.Fixed(250), r4.delay());
    assertEquals(5, s.steps().get("r4")); // r1, r2, the sub-agent's two, r4
  }

  @Test
  void longWaitsAreCutAndLinesAreConversations(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("traces.jsonl");
    Files.writeString(
        f,
        "{\"id\":\"a\",\"requests\":[{\"t\":0,\"in\":10,\"out\":5},{\"t\":900,\"in\":30,\"out\":5}]}\n"
            + "{\"id\":\"b\",\"requests\":[{\"t\":0,\"in\":10,\"out\":0}]}\n");
    List<AgentSession> s = WekaTraces.read(f, 60_000);
    assertEquals(List.of("a", "b"), s.stream().map(AgentSession::id).toList());
    assertEquals(new Delay.Fixed(60_000), s.get(0).call("r2").delay());
    assertEquals(1, s.get(1).call("r1").maxTokens());
  }

  @Test
  void aBadFieldNamesTheConversationAndTheRequest(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.jsonl");
    Files.writeString(
        f,
        "{\"id\":\"a\",\"requests\":[{\"t\":0,\"in\":10,\"out\":5},{\"t\":1,\"in\":-3,\"out\":5}]}\n");
    DatasetException e = assertThrows(DatasetException.class, () -> WekaTraces.read(f, 60_000));
    assertEquals(
        "Malformed Weka trace "
            + f
            + ": conversation \"a\" request 2: \"in\" is -3 (expected a"
            + " whole number of tokens from 1 to 10000000)",
        e.getMessage());
    assertTrue(
        assertThrows(DatasetException.class, () -> WekaTraces.read(dir.resolve("none"), 1))
            .getMessage()
            .endsWith(": no such file or folder"));
  }

  /** Issue 62 item 2: a Weka request's length past the one maximum is refused as it is read. */
  @Test
  void lengthsPastTheMaximumAreRefused(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("big.jsonl");
    for (String field : List.of("in", "out", "system_tokens")) {
      String line =
          "{\"id\":\"a\",\"system_tokens\":0,\"requests\":[{\"t\":0,\"in\":10,\"out\":5}]}"
              .replaceFirst("\"" + field + "\":[0-9]+", "\"" + field + "\":2147483648");
      Files.writeString(f, line + "\n");
      String message =
          assertThrows(DatasetException.class, () -> WekaTraces.read(f, 60_000)).getMessage();
      assertTrue(
          message.endsWith(
              "\""
                  + field
                  + "\" is 2147483648 (expected a whole number of tokens from "
                  + (field.equals("in") ? 1 : 0)
                  + " to 10000000)"),
          message);
    }
  }
}
