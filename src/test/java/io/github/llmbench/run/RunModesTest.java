package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Level;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The run's mode is chosen once from the settings, and each mode answers the decisions that depend
 * on it: the gates' baseline, the phases, the hard stop, the servers named and scraped, the
 * percentiles judged.
 */
class RunModesTest {
  private static final String A = "http://127.0.0.1:8000";
  private static final String B = "http://127.0.0.1:8001";

  private static BenchSettings settings(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return BenchSettings.from(m, Map.<String, String>of()::get);
  }

  private static BenchSettings search() {
    return settings(
        "search",
        "conc",
        "slo",
        "ttft.p99:2000,tpot.p90:50",
        "search.budget",
        "10",
        "warmup.prompts",
        "4");
  }

  private static BenchSettings ab() {
    return settings(
        "base.url",
        A,
        "candidate.url",
        B,
        "gate.tpot.mean",
        "+10%",
        "ab.max.pairs",
        "5",
        "duration",
        "20");
  }

  @Test
  void eachKindOfSettingsHasExactlyOneMode() {
    assertInstanceOf(PlannedLevels.class, RunModes.of(settings()));
    assertInstanceOf(CapacitySearchMode.class, RunModes.of(search()));
    assertInstanceOf(InterleavedAbMode.class, RunModes.of(ab()));
    assertInstanceOf(SweepLeader.class, RunModes.of(settings("sweep", "conc:1,2")));
  }

  @Test
  void aSweepIsNoLoadOfThisJvm() {
    BenchSettings sweep = settings("sweep", "conc:1,2");
    assertFalse(RunModes.of(sweep) instanceof LoadMode);
    assertThrows(
        SettingsException.class,
        () -> io.github.llmbench.LlmBench.create(sweep),
        "a sweep runs from LlmBench.start()");
  }

  @Test
  void aSearchPlansItsWarmupAloneAndStopsWithinItsBudget() {
    BenchSettings s = search();
    LoadMode mode = (LoadMode) RunModes.of(s);
    List<Phase> phases = LoadPlan.search(s.load());
    assertEquals(List.of(Level.WARMUP), phases.stream().map(Phase::level).distinct().toList());
    assertEquals(
        LoadPlan.maxDuration(phases, s.server().timeoutSeconds(), 10 * 60),
        mode.maxDuration(phases, s),
        "the planned warmup's limit, then the budget's");
    assertEquals(Set.of(99.0, 90.0), mode.percentilesJudged(), "the objectives' percentiles");
    assertTrue(mode.titlesLevels(phases), "each probe's block names its level");
  }

  @Test
  void anAbRunNamesAndScrapesBothServersAndRunsItsPairsAfterThePlan() {
    BenchSettings s = ab();
    LoadMode mode = (LoadMode) RunModes.of(s);
    assertTrue(mode.namesServers());
    assertEquals(List.of(URI.create(B)), mode.otherServers());
    List<Phase> phases = LoadPlan.forRun(s, java.util.Optional.empty(), List.of());
    Duration pairs = mode.maxDuration(phases, s).minus(new PlannedLevels().maxDuration(phases, s));
    // 5 pairs of two trials, each 20 s + the timeout + 2 s of a slot's tick, 2 s a pair besides
    int timeout = s.server().timeoutSeconds();
    assertEquals(Duration.ofSeconds(2L * 5 * (20 + timeout + 2) + 2L * 5), pairs);
  }

  @Test
  void plannedLevelsNameNoServerAndTitleALevelOnlyAmongSeveral() {
    BenchSettings one = settings("conc", "4");
    LoadMode mode = (LoadMode) RunModes.of(one);
    assertFalse(mode.namesServers());
    assertEquals(List.of(), mode.otherServers());
    assertFalse(mode.titlesLevels(LoadPlan.forRun(one, java.util.Optional.empty(), List.of())));
    BenchSettings ladder = settings("ladder", "4,8");
    assertTrue(mode.titlesLevels(LoadPlan.forRun(ladder, java.util.Optional.empty(), List.of())));
  }

  @Test
  void aRelativeGateNeedsABaselineExceptInAnAbRun() {
    BenchSettings planned = settings("gate.tpot.mean", "+10%");
    SettingsException e =
        assertThrows(
            SettingsException.class, () -> ((LoadMode) RunModes.of(planned)).gates(planned));
    assertTrue(e.getMessage().startsWith("A relative gate (+N%) needs a baseline run"));
    BenchSettings ab = ab();
    assertEquals(
        Set.of("tpot.mean", "failed.pct"),
        ((LoadMode) RunModes.of(ab))
            .gates(ab).set().gates().stream()
                .map(g -> g.name())
                .collect(java.util.stream.Collectors.toSet()),
        "the pairs are the A/B run's evidence");
  }
}
