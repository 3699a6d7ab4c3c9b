package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Server B of an A/B run, checked before any load as the base is. */
class CandidateServerTest {
  private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

  private static BenchSettings settings(String candidate, String... more) {
    Map<String, String> m =
        new HashMap<>(Map.of("base.url", "http://127.0.0.1:1", "candidate.url", candidate));
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return BenchSettings.from(m, Map.<String, String>of()::get);
  }

  private static CandidateServer check(BenchSettings s, String runModel) {
    AbSettings ab = s.ab().orElseThrow();
    return CandidateServer.check(
        s, ((AbSettings.Given) ab.servers()).candidateUrl(), ab.candidateModel(), runModel, QUIET);
  }

  @Test
  void aCandidateServingTheModelIsTakenWithTheRunsModelOrItsOwn() {
    SimulatorConfig config = SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090");
    try (VllmSimulator b = VllmSimulator.start(config)) {
      CandidateServer c = check(settings(b.baseUrl()), "llmbench/sim-tiny");
      assertEquals("llmbench/sim-tiny", c.model());
      assertEquals(b.baseUrl(), c.baseUrl().toString());
      TargetException other =
          assertThrows(
              TargetException.class,
              () -> check(settings(b.baseUrl(), "candidate.model", "other"), "llmbench/sim-tiny"));
      assertEquals(
          "Invalid -Dcandidate.model=other: the candidate server at "
              + b.baseUrl()
              + " serves llmbench/sim-tiny",
          other.getMessage());
      TargetException runs =
          assertThrows(TargetException.class, () -> check(settings(b.baseUrl()), "m-of-a"));
      assertTrue(runs.getMessage().startsWith("The run's model m-of-a (no -Dcandidate.model)"));
    }
  }

  @Test
  void anUnreachableCandidateStopsTheRunBeforeAnyLoad() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    String url = "http://127.0.0.1:" + port;
    assertThrows(TargetException.class, () -> check(settings(url), "m"));
  }
}
