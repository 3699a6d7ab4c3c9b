package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadPlanTest {
  private static BenchSettings.Load load(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get).load();
  }

  @Test
  void warmupThenOnePhasePerLevelAndProfile() {
    List<Phase> phases =
        LoadPlan.of(load(Map.of("ladder", "8,16", "prompts", "30,50", "warmup.prompts", "10", "warmup.conc", "4")), List.of("SS", "LL"));
    assertEquals(List.of("warmup", "c8 SS", "c8 LL", "c16 SS", "c16 LL"), phases.stream().map(Phase::scenarioName).toList());
    assertTrue(phases.get(0).warmup());
    assertEquals(4, phases.get(0).conc());
    assertEquals(10, phases.get(0).prompts().getAsInt());
    assertEquals(50, phases.get(4).prompts().getAsInt());
    assertFalse(phases.get(1).lastOfLevel());
    assertTrue(phases.get(2).lastOfLevel());
  }

  @Test
  void openModel() {
    List<Phase> phases = LoadPlan.of(load(Map.of("rate", "2.5", "burstiness", "0.5", "max.conc", "8", "duration", "30")), List.of());
    assertEquals(1, phases.size());
    Phase p = phases.get(0);
    assertEquals("r2.5", p.level());
    assertTrue(p.open());
    assertEquals(8, p.conc());
    assertEquals(0.5, p.burstiness());
    assertEquals(30, p.durationSeconds());
    assertEquals("r4", LoadPlan.openLevel(4.0));
  }
}
