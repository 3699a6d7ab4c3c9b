package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dgate.run.noise}: a declared run-to-run noise, read as its own setting (not a gate on a
 * level), checked in one line before any load, and listed by {@code -Dhelp}.
 */
class GateRunNoiseSettingTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static String error(String value) {
    return assertThrows(SettingsException.class, () -> read(Map.of("gate.run.noise", value)))
        .getMessage();
  }

  private static final String ACCEPTED =
      ": expected a log standard deviation above 0 and below 1, e.g. 0.07 (about 7% from run to"
          + " run)";

  @Test
  void aDeclaredRunNoiseIsReadAsANumberAndIsNoGate() {
    GateSettings g = read(Map.of("gate.run.noise", "0.07", "gate.tpot.mean", "+10%")).gates();
    assertEquals(Optional.of(0.07), g.entries().runNoise());
    assertEquals(Map.of("tpot.mean", "+10%"), g.entries().entries());
    assertEquals(Optional.empty(), read(Map.of()).gates().entries().runNoise());
  }

  @Test
  void aBadValueIsOneLineNamingTheSettingTheValueAndWhatIsAccepted() {
    for (String bad : new String[] {"0", "1", "1.5", "-0.07", "7%", "abc", "NaN", "Infinity"}) {
      String message = error(bad);
      assertEquals("Invalid -Dgate.run.noise=" + bad + ACCEPTED, message);
      assertFalse(message.contains("\n"), message);
    }
  }

  @Test
  void helpListsIt() {
    String help = SettingsTable.help();
    assertTrue(help.contains("gate.run.noise"), help);
    String gates = SettingsTable.help("gates");
    assertTrue(gates.contains("gate.run.noise"), gates);
    assertTrue(gates.contains("a log standard deviation above 0 and below 1"), gates);
  }
}
