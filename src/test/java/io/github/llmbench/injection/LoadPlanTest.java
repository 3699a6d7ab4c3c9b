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
  void aSearchPlansOnlyItsWarmupAndItsHardStopHoldsItsBudget() {
    BenchSettings.Load load = load(Map.of("search", "conc", "slo", "ttft.p99:2000", "warmup.prompts", "10", "warmup.conc", "2"));
    List<Phase> phases = LoadPlan.search(load);
    assertEquals(List.of("warmup"), phases.stream().map(Phase::scenarioName).toList(), "no -Dconc level: the probes are the levels");
    // warmup: 5 requests a slot of at most 300 s, then 310 s; the 30-minute budget, then 310 s; 30 s
    assertEquals(5 * 300 + 310 + 1800 + 310 + 30, LoadPlan.maxDuration(phases, 300, 1800).toSeconds());
    assertEquals(0, LoadPlan.search(load(Map.of("search", "rate", "slo", "ttft.p99:2000"))).size());
    assertEquals(60 + 310 + 30, LoadPlan.maxDuration(LoadPlan.of(load(Map.of()), List.of()), 300, 0).toSeconds());
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

  private static BenchSettings settings(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  @Test
  void eachInjectorRunsItsShareUnderTheWholeLevelsName() {
    Map<String, String> props = Map.of("ladder", "8,13", "warmup.prompts", "10", "warmup.conc", "5", "injector", "1/3");
    BenchSettings s = settings(props);
    List<Phase> phases = LoadPlan.of(s.load(), List.of(), s.injector());
    assertEquals(List.of("warmup", "c8", "c13"), phases.stream().map(Phase::level).toList());
    assertEquals(List.of(2, 3, 4), phases.stream().map(Phase::conc).toList(), "5 = 2+2+1, 8 = 3+3+2, 13 = 5+4+4: injector 1's");
    assertEquals(3, phases.get(0).prompts().getAsInt());
    int total = 0;
    for (int i = 0; i < 3; i++) {
      total += LoadPlan.of(s.load(), List.of(), settings(Map.of("ladder", "8,13", "injector", i + "/3")).injector()).get(2).conc();
    }
    assertEquals(13, total, "the shares add up to the level");
    BenchSettings open = settings(Map.of("rate", "9", "prompts", "10", "max.conc", "2", "injector", "2/3"));
    Phase p = LoadPlan.of(open.load(), List.of(), open.injector()).get(0);
    assertEquals("r9", p.level());
    assertEquals(3.0, p.rate());
    assertEquals(3, p.prompts().getAsInt());
    assertEquals(1, p.conc(), "a cap of 2 over 3 injectors: at least 1 each");
  }

  @Test
  void aSharedLadderKeepsOneTimeline() {
    BenchSettings s = settings(Map.of("ladder", "4,8", "duration", "60", "warmup.prompts", "8", "warmup.conc", "4", "injector", "0/2",
        "start.at", "2026-12-01T10:00:00Z", "drain", "20"));
    List<Phase> phases = LoadPlan.of(s.load(), List.of("SS", "LL"), s.injector());
    List<java.util.OptionalLong> t = LoadPlan.timeline(phases, s.injector().startAtMs().getAsLong(), 60, 20);
    long start = java.time.Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    // warmup at the start, c4 after the warmup's drain, its second profile as the first drains, c8 a level later
    assertEquals(List.of(java.util.OptionalLong.of(start), java.util.OptionalLong.of(start + 20_000), java.util.OptionalLong.empty(),
        java.util.OptionalLong.of(start + 100_000), java.util.OptionalLong.empty()), t);
  }
}
