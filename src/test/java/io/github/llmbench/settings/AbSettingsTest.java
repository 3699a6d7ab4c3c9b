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
    assertEquals(new AbSettings.Given(URI.create(B), 3, 20), ab.servers());
    assertEquals(new AbSettings.Units("pair", 1, 3, 20), ab.units());
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
    assertEquals(new AbSettings.Units("pair", 1, 4, 8), ab.units());
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

  private static final String SERVE = "vllm serve m --port {port}";

  /** An A/B run in blocks of fresh deployments, the kit starting A and B. */
  private static Map<String, String> deployed(String... more) {
    Map<String, String> m =
        new HashMap<>(Map.of("serve.cmd", SERVE, "candidate.serve.cmd", "simulator --model x"));
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }

  @Test
  void twoServeCommandsMakeAnAbRunInBlocksOfFreshDeploymentsNotASweep() {
    BenchSettings s = read(deployed());
    AbSettings ab = s.ab().orElseThrow();
    assertEquals(
        new AbSettings.Deployed(
            SERVE,
            "simulator --model x",
            2,
            10,
            java.time.Duration.ofSeconds(SweepSettings.DEFAULT_READY_SECONDS),
            SweepSettings.DEFAULT_GRACE),
        ab.servers());
    assertEquals(new AbSettings.Units("block", 2, 3, 10), ab.units());
    assertTrue(s.sweep().isEmpty(), "-Dserve.cmd is A, not a sweep's server");
    assertTrue(!s.server().embeddedSimulator(), "the kit starts the servers: no embedded one");
    AbSettings.Units set =
        read(deployed("ab.block.pairs", "4", "ab.max.blocks", "5")).ab().orElseThrow().units();
    assertEquals(new AbSettings.Units("block", 4, 3, 5), set);
    assertEquals(20, set.maxPairs());
  }

  @Test
  void blocksNeedBothCommandsAndNoUrls() {
    assertTrue(
        error(Map.of("candidate.serve.cmd", SERVE)).contains("needs -Dserve.cmd"), "A's command");
    assertTrue(error(deployed("base.url", A)).contains("drop -Dbase.url"));
    assertTrue(error(deployed("candidate.url", B)).contains("give server B once"));
    assertTrue(
        error(deployed("candidate.serve.cmd", "vllm serve m"))
            .startsWith(
                "Invalid -Dcandidate.serve.cmd=vllm serve m: expected a command with {port}"),
        "a command the kit cannot point at a port");
    assertTrue(
        error(deployed("candidate.serve.cmd", "vllm serve {model} --port {port}"))
            .contains("not {model}"),
        "no parameters to fill: a sweep's");
  }

  @Test
  void blocksCountInBlocksNotPairs() {
    assertTrue(error(deployed("ab.max.pairs", "8")).contains("-Dab.max.blocks"));
    assertTrue(error(deployed("ab.min.pairs", "4")).contains("-Dab.max.blocks"));
    assertTrue(error(deployed("ab.block.pairs", "3")).contains("an even whole number"));
    assertTrue(error(deployed("ab.max.blocks", "2")).contains("from 3"));
    assertTrue(error(ab("ab.block.pairs", "2")).contains("-Dcandidate.serve.cmd"), "URLs");
    assertTrue(
        error(deployed("ab.budget", "1", "duration", "20"))
            .contains("enough for a block, 4 trials"));
  }

  @Test
  void blocksRefuseASweepsAxes() {
    assertTrue(error(deployed("serve.params", "max-num-seqs:1,2")).contains("drop -Dsweep and"));
    assertTrue(error(deployed("sweep", "output.len:8,16")).contains("drop -Dsweep and"));
  }
}
