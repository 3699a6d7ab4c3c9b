package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings.DatasetKind;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void aSessionDatasetNamesItsKindAndItsFile() {
    WorkloadSettings w =
        read(Map.of("dataset", "sessions:prompts/agent-sessions.jsonl")).workload();
    assertEquals(DatasetKind.SESSIONS, w.dataset());
    assertEquals("sessions:prompts/agent-sessions.jsonl", w.describe());
    assertEquals(Optional.empty(), w.sessions().get().header());
    assertEquals(DatasetKind.WEKA, read(Map.of("dataset", "weka:t.json")).workload().dataset());
    assertEquals("agents", read(Map.of("dataset", "agents")).workload().describe());
    assertTrue(read(Map.of()).workload().sessions().isEmpty(), "random prompts have no sessions");
  }

  @Test
  void theShapeTakesAnyOfItsKeysOverTheDefaults() {
    SessionSettings.Shape s =
        read(Map.of("dataset", "agents", "session.shape", "depth:5, think:250.5,system:0"))
            .workload()
            .sessions()
            .get()
            .shape();
    assertEquals(new SessionSettings.Shape(5, 2, 256, 64, 128, 0, 64, 250.5), s);
    assertEquals(
        SessionSettings.Shape.DEFAULT,
        read(Map.of("dataset", "agents")).workload().sessions().get().shape());
  }

  @Test
  void aBadShapeNamesTheValueAndTheKeys() {
    for (String bad : new String[] {"depth:0", "fanout:1.5", "width:3", "depth", "task:x"}) {
      String e = error(Map.of("dataset", "agents", "session.shape", bad));
      assertTrue(e.startsWith("Invalid -Dsession.shape=" + bad + ": expected KEY:VALUE"), e);
      assertTrue(e.contains("depth (1-20), fanout (0-16)"), e);
    }
  }

  @Test
  void theSessionHeaderIsAHeaderNameNotTheKitsOwn() {
    assertEquals(
        Optional.of("X-Session-ID"),
        read(Map.of("dataset", "agents", "session.header", "X-Session-ID"))
            .workload()
            .sessions()
            .get()
            .header());
    for (String bad : new String[] {"x-request-id", "Content-Type", "Session ID", "a:b"}) {
      assertTrue(
          error(Map.of("dataset", "agents", "session.header", bad))
              .startsWith("Invalid -Dsession.header=" + bad + ": expected an HTTP header name"),
          bad);
    }
  }

  @Test
  void sessionSettingsApplyToSessionsAndConversationSettingsDoNot() {
    assertEquals(
        "-Dsession.header applies to agent sessions: -Ddataset=sessions:PATH, weka:PATH or agents",
        error(Map.of("session.header", "X-Session-ID")));
    assertEquals(
        "-Dsession.shape applies to -Ddataset=agents",
        error(Map.of("dataset", "sessions:s.jsonl", "session.shape", "depth:2")));
    assertEquals(
        "-Dsession.idle.cap applies to -Ddataset=weka:PATH",
        error(Map.of("dataset", "agents", "session.idle.cap", "5")));
    assertTrue(
        error(Map.of("dataset", "agents", "turns", "3"))
            .startsWith("-Dturns and -Dthink.time do not apply to agent sessions"));
  }
}
