package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.LoadSettings;
import io.github.llmbench.workload.PreparedWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LoadPlanTest {
  private static LoadSettings load(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get).load();
  }

  @Test
  void warmupThenOnePhasePerLevelAndProfile() {
    List<Phase> phases =
        LoadPlan.of(
            load(
                Map.of(
                    "ladder",
                    "8,16",
                    "prompts",
                    "30,50",
                    "warmup.prompts",
                    "10",
                    "warmup.conc",
                    "4")),
            List.of("SS", "LL"));
    assertEquals(
        List.of("warmup", "c8 SS", "c8 LL", "c16 SS", "c16 LL"),
        phases.stream().map(Phase::scenarioName).toList());
    Phase.Warmup warmup = assertInstanceOf(Phase.Warmup.class, phases.get(0));
    assertEquals(Level.WARMUP, warmup.level());
    assertEquals(4, warmup.conc());
    assertEquals(OptionalInt.of(10), warmup.prompts());
    Phase.Closed c16 = assertInstanceOf(Phase.Closed.class, phases.get(4));
    assertEquals(Level.closed(16), c16.level());
    assertEquals(16, c16.conc());
    assertEquals("LL", c16.profile());
    assertEquals(OptionalInt.of(50), c16.prompts());
    assertFalse(phases.get(1).lastOfLevel());
    assertTrue(phases.get(2).lastOfLevel());
  }

  @Test
  void trialsRunEachLevelBackToBackAndOnlyTheLastEndsTheLevel() {
    LoadSettings load =
        load(
            Map.of(
                "ladder",
                "2,4",
                "duration",
                "10",
                "trials",
                "3",
                "trials.cooldown",
                "5",
                "warmup.prompts",
                "4"));
    List<Phase> phases = LoadPlan.of(load, List.of());
    assertEquals(
        List.of(
            "warmup",
            "c2 trial 1",
            "c2 trial 2",
            "c2 trial 3",
            "c4 trial 1",
            "c4 trial 2",
            "c4 trial 3"),
        phases.stream().map(Phase::scenarioName).toList());
    assertEquals(
        List.of(true, false, false, true, false, false, true),
        phases.stream().map(Phase::lastOfLevel).toList());
    assertEquals(
        List.of(0, 0, 5, 5, 0, 5, 5),
        phases.stream().map(p -> p.trial().pauseBeforeSeconds()).toList(),
        "a cool-down before every trial but a level's first");
    assertEquals(Phase.Trial.ONLY, phases.get(0).trial(), "the warmup runs once");
    // the hard stop holds every trial and its cool-down
    Duration once =
        LoadPlan.maxDuration(
            LoadPlan.of(
                load(Map.of("ladder", "2,4", "duration", "10", "warmup.prompts", "4")), List.of()),
            300,
            0);
    assertEquals(
        once.plusSeconds(4 * (10 + 300 + 10) + 4 * 5L), LoadPlan.maxDuration(phases, 300, 0));
  }

  @Test
  void aSearchPlansOnlyItsWarmupAndItsHardStopHoldsItsBudget() {
    LoadSettings load =
        load(
            Map.of(
                "search",
                "conc",
                "slo",
                "ttft.p99:2000",
                "warmup.prompts",
                "10",
                "warmup.conc",
                "2"));
    List<Phase> phases = LoadPlan.search(load);
    assertEquals(
        List.of("warmup"),
        phases.stream().map(Phase::scenarioName).toList(),
        "no -Dconc level: the probes are the levels");
    // warmup: 5 requests a slot of at most 300 s, then 310 s; the 30-minute budget, then 310 s; 30
    // s
    assertEquals(
        5 * 300 + 310 + 1800 + 310 + 30, LoadPlan.maxDuration(phases, 300, 1800).toSeconds());
    assertEquals(0, LoadPlan.search(load(Map.of("search", "rate", "slo", "ttft.p99:2000"))).size());
    assertEquals(
        60 + 310 + 30,
        LoadPlan.maxDuration(LoadPlan.of(load(Map.of()), List.of()), 300, 0).toSeconds());
  }

  @Test
  void openModel() {
    List<Phase> phases =
        LoadPlan.of(
            load(Map.of("rate", "2.5", "burstiness", "0.5", "max.conc", "8", "duration", "30")),
            List.of());
    assertEquals(1, phases.size());
    Phase.Open p = assertInstanceOf(Phase.Open.class, phases.get(0));
    assertEquals(Level.open(2.5), p.level());
    assertEquals(2.5, p.rate());
    assertEquals(OptionalInt.of(8), p.maxConc());
    assertEquals(0.5, p.burstiness());
    assertEquals(30, p.durationSeconds());
    assertEquals(OptionalInt.empty(), p.prompts(), "stopped by its duration");
    Phase.Open uncapped =
        assertInstanceOf(
            Phase.Open.class, LoadPlan.of(load(Map.of("rate", "4")), List.of()).get(0));
    assertEquals(OptionalInt.empty(), uncapped.maxConc());
  }

  @Test
  void aCountOfRequestsIsBoundedByItsRequestsInFlight() {
    // 10 requests: 4 at a time take at most 3 timeouts; an uncapped open model's, as if one at a
    // time, 10
    List<Phase> capped =
        LoadPlan.of(load(Map.of("rate", "2", "prompts", "10", "max.conc", "4")), List.of());
    assertEquals(3 * 300 + 310 + 30, LoadPlan.maxDuration(capped, 300, 0).toSeconds());
    List<Phase> uncapped = LoadPlan.of(load(Map.of("rate", "2", "prompts", "10")), List.of());
    assertEquals(10 * 300 + 310 + 30, LoadPlan.maxDuration(uncapped, 300, 0).toSeconds());
    List<Phase> closed = LoadPlan.of(load(Map.of("conc", "4", "prompts", "10")), List.of());
    assertEquals(3 * 300 + 310 + 30, LoadPlan.maxDuration(closed, 300, 0).toSeconds());
  }

  @Test
  void aTraceReplayIsOnePhaseAtItsSendTimes() {
    List<Double> sendTimes = new ArrayList<>(List.of(0.0, 0.5, 2.25));
    List<Phase> phases =
        LoadPlan.trace(load(Map.of("warmup.prompts", "4", "warmup.conc", "2")), sendTimes);
    assertEquals(List.of(Level.WARMUP, Level.TRACE), phases.stream().map(Phase::level).toList());
    Phase.Trace trace = assertInstanceOf(Phase.Trace.class, phases.get(1));
    sendTimes.add(9.0);
    assertEquals(List.of(0.0, 0.5, 2.25), trace.sendTimes(), "its own copy");
    assertEquals(OptionalInt.of(3), trace.prompts());
    assertEquals(3, trace.durationSeconds(), "to its last send, in whole seconds");
    assertTrue(trace.lastOfLevel());
    // the warmup: 2 requests a slot of at most 300 s; the replay: its 3 s; each then 310 s; 30 s
    assertEquals(2 * 300 + 310 + 3 + 310 + 30, LoadPlan.maxDuration(phases, 300, 0).toSeconds());
  }

  @Test
  void theRunsPhasesAreATraceElseTheLadderAndASearchPlansItsWarmup() {
    BenchSettings search =
        settings(Map.of("search", "conc", "slo", "ttft.p99:2000", "warmup.prompts", "4"));
    assertEquals(
        List.of(Level.WARMUP, Level.TRACE),
        LoadPlan.forRun(search, Optional.of(List.of(0.0, 1.0)), List.of()).stream()
            .map(Phase::level)
            .toList(),
        "a trace is replayed as it is");
    assertEquals(
        List.of("warmup"),
        LoadPlan.search(search.load()).stream().map(Phase::scenarioName).toList(),
        "a search plans its warmup only");
    BenchSettings ladder = settings(Map.of("ladder", "8,16", "injector", "1/2", "seed", "7"));
    assertEquals(
        List.of("c8 SS", "c8 LL", "c16 SS", "c16 LL"),
        LoadPlan.forRun(ladder, Optional.empty(), List.of("SS", "LL")).stream()
            .map(Phase::scenarioName)
            .toList());
    assertEquals(
        List.of(4, 4, 8, 8),
        LoadPlan.forRun(ladder, Optional.empty(), List.of("SS", "LL")).stream()
            .map(p -> ((Phase.Closed) p).conc())
            .toList(),
        "this injector's share");
  }

  private static final Ramp RATE_RAMP = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 1, 8);

  @Test
  void aRampIsOneLevelOfItsOwnTagSharedByInjectors() {
    List<Phase> rate =
        LoadPlan.forRun(
            settings(
                Map.of("ramp", "linear", "ramp.start", "1", "ramp.end", "8", "duration", "20")),
            Optional.empty(),
            List.of());
    assertEquals(1, rate.size());
    Phase.Ramped r = assertInstanceOf(Phase.Ramped.class, rate.get(0));
    assertEquals("r1-8", r.level().tag());
    assertTrue(r.rate());
    assertEquals(Map.of("r1-8", 20.0), LoadPlan.rampSeconds(rate));
    // the expected arrivals, (1 + 8) / 2 x 20 s, and 20% more
    assertEquals(
        108, LoadPlan.plannedRequests(rate, Optional.empty(), 20, 1, false), "prompts made");

    List<Phase> shared =
        LoadPlan.forRun(
            settings(
                Map.of(
                    "ramp",
                    "exponential",
                    "ramp.start",
                    "2",
                    "ramp.end",
                    "16",
                    "injector",
                    "1/2",
                    "seed",
                    "7")),
            Optional.empty(),
            List.of());
    Phase.Ramped half = (Phase.Ramped) shared.get(0);
    assertEquals("r2-16exp", half.level().tag(), "the whole ramp's tag on each injector");
    assertEquals(1.0, half.ramp().from());
    assertEquals(8.0, half.ramp().to());

    List<Phase> conc =
        LoadPlan.forRun(
            settings(Map.of("ramp.conc", "4:64", "warmup.prompts", "4")),
            Optional.empty(),
            List.of());
    Phase.Ramped c = (Phase.Ramped) conc.get(1);
    assertEquals("c4-64", c.level().tag());
    assertFalse(c.rate());
    assertEquals(16, ((Phase.Warmup) conc.get(0)).conc(), "the warmup at a quarter of the peak");
    assertEquals(
        64,
        LoadPlan.planned(conc, Optional.empty(), 10, 1).peakConcurrency(),
        "the peak in flight");
  }

  @Test
  void eachKindOfPhaseIsMatchedByItsOwnFunction() {
    List<Phase> phases =
        List.of(
            new Phase.Closed(Level.closed(2), null, 2, OptionalInt.empty(), 10, true),
            new Phase.Open(
                Level.open(1.5),
                "SS",
                1.5,
                1.0,
                OptionalInt.empty(),
                OptionalInt.empty(),
                10,
                true),
            new Phase.Ramped(
                new Level.Ramped(RATE_RAMP),
                null,
                RATE_RAMP,
                1.0,
                OptionalInt.empty(),
                OptionalInt.empty(),
                10,
                true,
                Phase.Trial.ONLY),
            new Phase.Trace(List.of(1.0)),
            new Phase.Warmup(1, 1));
    List<Class<?>> matched =
        phases.stream()
            .<Class<?>>map(
                p ->
                    p.<Class<?>>match(
                        closed -> Phase.Closed.class,
                        open -> Phase.Open.class,
                        ramped -> Phase.Ramped.class,
                        trace -> Phase.Trace.class,
                        warmup -> Phase.Warmup.class))
            .toList();
    assertEquals(phases.stream().map(Object::getClass).toList(), matched);
    assertEquals("r1.5 SS", phases.get(1).scenarioName());
  }

  @Test
  void aPhaseRefusesWhatItCannotSend() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new Phase.Closed(Level.closed(2), null, 0, OptionalInt.empty(), 10, true));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new Phase.Open(
                Level.open(1), null, 0, 1.0, OptionalInt.empty(), OptionalInt.empty(), 10, true));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new Phase.Open(
                Level.open(1), null, 1, 1.0, OptionalInt.of(0), OptionalInt.empty(), 10, true));
    assertThrows(IllegalArgumentException.class, () -> new Phase.Trace(List.of()));
    assertThrows(IllegalArgumentException.class, () -> new Phase.Warmup(1, 0));
  }

  private static BenchSettings settings(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  @Test
  void eachInjectorRunsItsShareUnderTheWholeLevelsName() {
    Map<String, String> props =
        Map.of(
            "ladder",
            "8,13",
            "warmup.prompts",
            "10",
            "warmup.conc",
            "5",
            "injector",
            "1/3",
            "seed",
            "7");
    BenchSettings s = settings(props);
    List<Phase> phases = LoadPlan.of(s.load(), List.of(), s.injector());
    assertEquals(
        List.of(Level.WARMUP, Level.closed(8), Level.closed(13)),
        phases.stream().map(Phase::level).toList());
    Phase.Warmup warmup = assertInstanceOf(Phase.Warmup.class, phases.get(0));
    assertEquals(
        List.of(2, 3, 4),
        List.of(
            warmup.conc(),
            assertInstanceOf(Phase.Closed.class, phases.get(1)).conc(),
            assertInstanceOf(Phase.Closed.class, phases.get(2)).conc()),
        "5 = 2+2+1, 8 = 3+3+2, 13 = 5+4+4: injector 1's");
    assertEquals(3, warmup.promptCount());
    int total = 0;
    for (int i = 0; i < 3; i++) {
      List<Phase> share =
          LoadPlan.of(
              s.load(),
              List.of(),
              settings(Map.of("ladder", "8,13", "injector", i + "/3", "seed", "7")).injector());
      total += assertInstanceOf(Phase.Closed.class, share.get(2)).conc();
    }
    assertEquals(13, total, "the shares add up to the level");
    BenchSettings open =
        settings(
            Map.of("rate", "9", "prompts", "10", "max.conc", "2", "injector", "2/3", "seed", "7"));
    Phase.Open p =
        assertInstanceOf(
            Phase.Open.class, LoadPlan.of(open.load(), List.of(), open.injector()).get(0));
    assertEquals(Level.open(9), p.level());
    assertEquals(3.0, p.rate());
    assertEquals(3, p.prompts().getAsInt());
    assertEquals(OptionalInt.of(1), p.maxConc(), "a cap of 2 over 3 injectors: at least 1 each");
  }

  @Test
  void aSharedLadderKeepsOneTimeline() {
    BenchSettings s =
        settings(
            Map.of(
                "ladder",
                "4,8",
                "duration",
                "60",
                "warmup.prompts",
                "8",
                "warmup.conc",
                "4",
                "injector",
                "0/2",
                "seed",
                "7",
                "start.at",
                "2026-12-01T10:00:00Z",
                "drain",
                "20"));
    List<Phase> phases = LoadPlan.of(s.load(), List.of("SS", "LL"), s.injector());
    List<OptionalLong> t = LoadPlan.timeline(phases, s.injector().startAtMs().getAsLong(), 60, 20);
    long start = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    // warmup at the start, c4 after the warmup's drain, its second profile as the first drains, c8
    // a level later
    assertEquals(
        List.of(
            OptionalLong.of(start),
            OptionalLong.of(start + 20_000),
            OptionalLong.empty(),
            OptionalLong.of(start + 100_000),
            OptionalLong.empty()),
        t);
  }

  @Test
  void promptsMadeBeforeTheLoadFollowThePlan() {
    // a fixed number of requests: that many, each turn of a conversation its own
    List<Phase> fixed =
        LoadPlan.of(
            load(
                Map.of(
                    "ladder",
                    "4,8",
                    "prompts",
                    "30,50",
                    "warmup.prompts",
                    "10",
                    "warmup.conc",
                    "2")),
            List.of());
    assertEquals(80, LoadPlan.plannedRequests(fixed, Optional.empty(), 60, 1, false));
    assertEquals(10, LoadPlan.plannedRequests(fixed, Optional.empty(), 60, 1, true));
    assertEquals(240, LoadPlan.plannedRequests(fixed, Optional.empty(), 60, 3, false));
    assertFalse(LoadPlan.reusesPlannedRequests(fixed, Optional.empty()));
    // levels that run for a time: a pool per request in flight, used in turn
    List<Phase> timed = LoadPlan.of(load(Map.of("ladder", "4,8", "duration", "60")), List.of());
    assertEquals(
        12 * LoadPlan.POOL_PER_SLOT,
        LoadPlan.plannedRequests(timed, Optional.empty(), 60, 1, false));
    assertTrue(LoadPlan.reusesPlannedRequests(timed, Optional.empty()));
    // the open model: the expected arrivals + 20%
    List<Phase> open = LoadPlan.of(load(Map.of("rate", "5", "duration", "10")), List.of());
    assertEquals(60, LoadPlan.plannedRequests(open, Optional.empty(), 10, 1, false));
    List<Phase> wide = LoadPlan.of(load(Map.of("ladder", "2000", "duration", "60")), List.of());
    assertEquals(
        LoadPlan.MAX_PREPARED, LoadPlan.plannedRequests(wide, Optional.empty(), 60, 1, false));
  }

  @Test
  void aSearchMakesPromptsForItsLargestProbe() {
    BenchSettings conc =
        settings(
            Map.of(
                "search",
                "conc",
                "slo",
                "ttft.p99:2000",
                "search.max",
                "16",
                "warmup.prompts",
                "10"));
    List<Phase> phases = LoadPlan.search(conc.load());
    assertEquals(
        16 * LoadPlan.POOL_PER_SLOT, LoadPlan.plannedRequests(phases, conc.search(), 60, 1, false));
    assertEquals(
        10, LoadPlan.plannedRequests(phases, conc.search(), 60, 1, true), "the warmup's own");
    assertTrue(LoadPlan.reusesPlannedRequests(phases, conc.search()));
    assertEquals(
        new PreparedWorkload.PlannedRequests(16 * LoadPlan.POOL_PER_SLOT, 10, true, 16),
        LoadPlan.planned(phases, conc.search(), 60, 1),
        "the preparation's: both counts and the reuse");
    BenchSettings rate =
        settings(
            Map.of("search", "rate", "slo", "ttft.p99:2000", "search.max", "10", "duration", "30"));
    assertEquals(
        360, LoadPlan.plannedRequests(LoadPlan.search(rate.load()), rate.search(), 30, 1, false));
  }

  @Test
  void thePeakConcurrencyIsTheHighestLevelsOrUnknownForAnUncappedOpenLevel() {
    assertEquals(
        32,
        LoadPlan.peakConcurrency(
            LoadPlan.of(load(Map.of("ladder", "8,32,16")), List.of()), Optional.empty()));
    assertEquals(
        0,
        LoadPlan.peakConcurrency(
            LoadPlan.of(load(Map.of("rate", "4")), List.of()), Optional.empty()));
    assertEquals(
        6,
        LoadPlan.peakConcurrency(
            LoadPlan.of(load(Map.of("rate", "4", "max.conc", "6")), List.of()), Optional.empty()));
  }

  @Test
  void aLadderOverImagesIsALevelPerCountAtTheOneLoad() {
    List<Phase> closed =
        LoadPlan.of(load(Map.of("conc", "4", "images", "0,2", "prompts", "6,9")), List.of());
    assertEquals(List.of("c4-img0", "c4-img2"), closed.stream().map(p -> p.level().tag()).toList());
    assertEquals(OptionalInt.of(9), closed.get(1).prompts());
    List<Phase> open =
        LoadPlan.of(load(Map.of("rate", "2", "images", "1,3", "prompts", "5")), List.of());
    assertEquals(List.of("r2-img1", "r2-img3"), open.stream().map(p -> p.level().tag()).toList());
    assertEquals(
        List.of("c4"),
        LoadPlan.of(load(Map.of("conc", "4", "images", "2")), List.of()).stream()
            .map(p -> p.level().tag())
            .toList(),
        "one count: the run's, no ladder");
  }
}
