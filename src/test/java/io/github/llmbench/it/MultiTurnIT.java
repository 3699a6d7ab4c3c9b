package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.TurnFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dturns=3}: each turn carries the earlier user turns and the answers the server streamed.
 */
class MultiTurnIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void eachTurnSendsTheEarlierTurnsAndTheirStreamedAnswers(@TempDir Path results) throws Exception {
    GatlingRun.Result run;
    List<ScriptedServer.Exchange> exchanges;
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results,
              Map.of(
                  "base.url",
                  server.baseUrl(),
                  "conc",
                  "2",
                  "prompts",
                  "4",
                  "turns",
                  "3",
                  "think.time",
                  "0.1",
                  "input.len",
                  "12",
                  "output.len",
                  "5",
                  "seed",
                  "7"));
      exchanges = List.copyOf(server.exchanges());
    }
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(12, records.size(), "-Dprompts counts conversations: 4 of 3 turns");
    Map<String, ScriptedServer.Exchange> sent =
        exchanges.stream().collect(Collectors.toMap(e -> e.headers().get("x-request-id"), e -> e));
    Map<String, List<RequestRecord>> conversations =
        records.stream().collect(Collectors.groupingBy(r -> r.origin().conversation()));
    assertEquals(4, conversations.size(), conversations.keySet().toString());
    for (List<RequestRecord> conversation : conversations.values()) {
      conversation.sort(Comparator.comparingInt(r -> r.origin().turn()));
      assertEquals(List.of(1, 2, 3), conversation.stream().map(r -> r.origin().turn()).toList());
      for (int k = 0; k < 3; k++) {
        RequestRecord r = conversation.get(k);
        assertTrue(r.ok(), r.toString());
        JsonNode messages = JSON.readTree(sent.get(r.id()).body()).get("messages");
        assertEquals(2 * k + 1, messages.size(), messages.toString());
        for (int j = 0; j < k; j++) {
          // turn j's own user message, then exactly what the server streamed back to it
          JsonNode earlier =
              JSON.readTree(sent.get(conversation.get(j).id()).body()).get("messages");
          assertEquals(
              earlier.get(2 * j),
              messages.get(2 * j),
              "turn " + (k + 1) + " repeats user turn " + (j + 1));
          assertEquals("assistant", messages.get(2 * j + 1).get("role").asText());
          assertEquals(
              sent.get(conversation.get(j).id()).answer(),
              messages.get(2 * j + 1).get("content").asText());
        }
        assertEquals("user", messages.get(2 * k).get("role").asText());
        if (k > 0) {
          assertNotEquals(messages.get(2 * k - 2), messages.get(2 * k), "a new user turn");
          assertTrue(
              r.startMs() >= conversation.get(k - 1).endMs() + 100,
              "think time 0.1 s between turns");
        }
      }
    }
    assertTrue(run.console().contains("TTFT by turn"), run.console());
    List<TurnFigures> turns = TestReports.summary(run.runDir()).levels().get("c2").turns();
    assertEquals(3, turns.size(), turns.toString());
    for (int k = 0; k < 3; k++) {
      assertEquals(k + 1, turns.get(k).turn());
      assertEquals(4, turns.get(k).completed());
    }
  }
}
