package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dcandidate.url} and its group: what an interleaved A/B run takes, and what it refuses.
 */
class AbSettingsTest {
  private static final String A = "http://127.0.0.1:8000";
  private static final String B = "http://127.0.0.1:8001";

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static Map<String, String> ab(String... more) {
    Map<String, String> m = new HashMap<>(Map.of("base.url", A, "candidate.url", B));
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }

  private static String error(Map<String, String> props) {
    String m = assertThrows(SettingsException.class, () -> read(props)).getMessage();
    assertTrue(!m.contains("\n"), "one line: " + m);
    return m;
  }

  @Test
  void theDefaultsAreTwentyPairsAtMostThreeBeforeTheFirstLookNoBudgetAndTheRunsModel() {
    AbSettings ab = read(ab()).ab().orElseThrow();
    assertEquals(URI.create(B), ab.candidateUrl());
    assertEquals(20, ab.maxPairs());
    assertEquals(3, ab.minPairs());
    assertTrue(ab.budgetMinutes().isEmpty());
    assertEquals(Optional.empty(), ab.candidateModel());
    assertTrue(read(Map.of()).ab().isEmpty(), "no A/B without -Dcandidate.url");
  }

  @Test
  void itsSettingsAreReadAsGiven() {
    AbSettings ab =
        read(ab(
                "candidate.model", "m2",
                "ab.max.pairs", "8",
                "ab.min.pairs", "4",
                "ab.budget", "15"))
            .ab()
            .orElseThrow();
    assertEquals(Optional.of("m2"), ab.candidateModel());
    assertEquals(8, ab.maxPairs());
    assertEquals(4, ab.minPairs());
    assertEquals(15, ab.budgetMinutes().getAsInt());
  }

  @Test
  void aCandidateNeedsABaseServerNotTheSimulator() {
    assertTrue(error(Map.of("candidate.url", B)).contains("needs -Dbase.url"));
    assertTrue(error(ab("base.url", A + "," + "http://127.0.0.1:8002")).contains("a single URL"));
    assertTrue(error(ab("candidate.url", A)).contains("is -Dbase.url itself"));
  }

  @Test
  void anAbRunIsOneTimedLevelInOneInjectorWithoutABaseline() {
    assertTrue(error(ab("ladder", "4,8")).contains("drop -Dladder"));
    assertTrue(
        error(ab("ramp", "linear", "ramp.conc", "1:8")).contains("drop -Dladder and -Dramp"));
    assertTrue(error(ab("search", "conc", "slo", "ttft.p99:100")).contains("capacity search"));
    assertTrue(error(ab("prompts", "100")).contains("drop -Dprompts"));
    assertTrue(error(ab("dataset", "trace:mooncake.jsonl")).contains("cannot replay a trace"));
    assertTrue(error(ab("injector", "0/2", "seed", "7")).contains("drop -Dinjector"));
    assertTrue(error(ab("cache.reset", "true")).contains("drop -Dcache.reset and -Dprofile"));
    assertTrue(error(ab("profile", "true")).contains("drop -Dcache.reset and -Dprofile"));
    assertTrue(error(ab("trials", "3")).contains("drop -Dtrials"));
    assertTrue(error(ab("baseline", "target/run")).contains("drop -Dbaseline"));
  }

  @Test
  void anAbRunKeepsNoHistory() {
    assertTrue(
        error(ab("history", "target/history")).contains("-Dhistory=target/history keeps one"));
  }

  @Test
  void thePairBoundsAreChecked() {
    assertTrue(error(ab("ab.min.pairs", "2")).contains("-Dab.min.pairs=2"));
    assertTrue(
        error(ab("ab.min.pairs", "9", "ab.max.pairs", "5")).contains("above -Dab.max.pairs=5"));
    assertTrue(error(ab("ab.max.pairs", "0")).contains("-Dab.max.pairs=0"));
    assertTrue(error(ab("ab.budget", "soon")).contains("-Dab.budget=soon"));
    assertTrue(
        error(ab("ab.budget", "1", "duration", "40")).contains("enough for a pair"),
        "two trials of 40 s need more than a minute");
  }

  @Test
  void itsOtherSettingsNeedACandidate() {
    assertTrue(
        error(Map.of("base.url", A, "ab.max.pairs", "5")).contains("add -Dcandidate.url=URL_B"));
    assertTrue(
        error(Map.of("base.url", A, "candidate.model", "m")).contains("add -Dcandidate.url=URL_B"));
  }
}
