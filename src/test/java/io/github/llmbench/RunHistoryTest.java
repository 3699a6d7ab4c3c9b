package io.github.llmbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.gates.RunGates;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code -Dhistory} and {@code -Dgate.history} as read before any load. */
class RunHistoryTest {
  private static BenchSettings settings(Map<String, String> p) {
    return BenchSettings.from(p, k -> null);
  }

  @Test
  void theHistoryGateNeedsAHistoryAndAGoodRule() {
    assertEquals(
        "-Dgate.history needs the history it judges on: -Dhistory=<folder> (a CI cache or"
            + " artefact that keeps it between runs)",
        assertThrows(
                SettingsException.class,
                () -> RunHistory.of(settings(Map.of("gate.history", "tpot.mean:+10%"))))
            .getMessage());
    assertTrue(
        assertThrows(
                SettingsException.class,
                () ->
                    RunHistory.of(
                        settings(Map.of("history", "h", "gate.history", "tpot.mean:+ten%"))))
            .getMessage()
            .startsWith("Invalid gate -Dgate.history=tpot.mean:+ten%: entry 'tpot.mean:+ten%'"));
  }

  @Test
  void theHistoryGateIsNoGateOnALevel() {
    BenchSettings s = settings(Map.of("history", "h", "gate.history", "tpot.mean:+10%"));
    RunHistory.of(s);
    // the gates of the gate. family do not see it (else: Unknown gate -Dgate.history)
    assertEquals(1, RunGates.of(s).set().gates().size(), "the default failed.pct gate alone");
  }
}
