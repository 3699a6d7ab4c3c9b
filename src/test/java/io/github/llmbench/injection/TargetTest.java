package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dsim.faults}: typed in the settings, parsed by the simulator's grammar before it starts.
 */
class TargetTest {

  private static BenchSettings.SimEngine engine(String faults) {
    return BenchSettings.from(Map.of("sim.faults", faults), Map.<String, String>of()::get)
        .simEngine();
  }

  private static String error(String faults) {
    return assertThrows(SettingsException.class, () -> Target.simFaults(engine(faults)))
        .getMessage();
  }

  @Test
  void simFaultsAreParsedBeforeTheSimulatorStarts() {
    assertEquals(
        "429:0.1,stall:0.05:30.0", Target.simFaults(engine("429:0.1,stall:0.05:30")).toString());
    assertFalse(Target.simFaults(engine("none")).any());
    assertFalse(engine("none").anyFaults());
    assertFalse(
        Target.simFaults(BenchSettings.from(Map.of(), Map.<String, String>of()::get).simEngine())
            .any(),
        "none by default");
    String faults = error("teapot:0.5");
    assertTrue(
        faults.contains("-Dsim.faults=teapot:0.5")
            && faults.contains("429, 500, error, cut or stall"),
        faults);
    assertTrue(
        error("429:0.7,500:0.7").startsWith("Invalid -Dsim.faults=429:0.7,500:0.7: expected "));
  }
}
