package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.simulator.SimulatorConfig;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dsim.faults}: typed in the settings, parsed by the simulator's grammar as they are read,
 * before the simulator starts and with a real server too; the models a run names, checked against
 * what the server lists.
 */
class TargetTest {

  private static SimulatorConfig simulator(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get).simulator().config();
  }

  private static String error(String faults) {
    return assertThrows(SettingsException.class, () -> simulator(Map.of("sim.faults", faults)))
        .getMessage();
  }

  @Test
  void simFaultsAreParsedAsTheSettingsAreRead() {
    assertEquals(
        "429:0.1,stall:0.05:30.0",
        simulator(Map.of("sim.faults", "429:0.1,stall:0.05:30")).faults().toString());
    assertFalse(simulator(Map.of("sim.faults", "none")).faults().any());
    assertFalse(simulator(Map.of("sim.faults", "NONE")).faults().any());
    assertFalse(simulator(Map.of()).faults().any(), "none by default");
    String faults = error("teapot:0.5");
    assertTrue(
        faults.contains("-Dsim.faults=teapot:0.5")
            && faults.contains("429, 500, error, cut or stall"),
        faults);
    assertTrue(
        error("429:0.7,500:0.7").startsWith("Invalid -Dsim.faults=429:0.7,500:0.7: expected "));
    assertThrows(
        SettingsException.class,
        () -> simulator(Map.of("sim.faults", "teapot:0.5", "base.url", "http://127.0.0.1:9")),
        "refused as any other bad setting, with a real server too");
  }

  private static BenchSettings settings(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  @Test
  void theEmbeddedSimulatorServesItsLoraAdaptersForAMixOfModels() {
    Map<String, String> mix =
        Map.of("sim.model", "sim-tiny", "sim.lora", "sql,chat", "model", "llmbench/sim-tiny,sql");
    try (Target t =
        Target.resolve(settings(mix), new PrintStream(OutputStream.nullOutputStream()))) {
      assertEquals(List.of("llmbench/sim-tiny", "sql"), t.models());
      assertEquals("llmbench/sim-tiny", t.model(), "the one the kit asks about");
      assertEquals(List.of("llmbench/sim-tiny", "sql", "chat"), t.api().models(), "GET /v1/models");
    }
    TargetException unknown =
        assertThrows(
            TargetException.class,
            () ->
                Target.resolve(
                    settings(Map.of("sim.model", "sim-tiny", "model", "llmbench/sim-tiny,sql")),
                    new PrintStream(OutputStream.nullOutputStream())));
    assertEquals(
        "Invalid -Dmodel=llmbench/sim-tiny,sql: the server at "
            + unknown.getMessage().replaceAll(".*the server at (\\S+) serves.*", "$1")
            + " serves llmbench/sim-tiny, not sql",
        unknown.getMessage());
  }
}
