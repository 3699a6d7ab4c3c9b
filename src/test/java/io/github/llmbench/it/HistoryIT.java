package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dhistory} and {@code -Dgate.history} through Gatling's main, as the Maven plugin runs it:
 * a first run starts the history; its line, 17 copies (TPOT within 2%) and one 4 times as slow make
 * a series of 19; a second run with {@code -Dsim.slowdown=10} is the second run of the step and
 * fails (exit 2, a FAIL line, gates.xml), and is added to the history.
 */
class HistoryIT {
  @TempDir static Path results;

  private static final String[] RUN = {
    "conc=2", "prompts=8", "input.len=32", "output.len=8", "sim.model=sim-tiny", "sim.gpu=rtx4090"
  };

  private static Path history;
  private static GatlingProcess.Outcome first;
  private static GatlingProcess.Outcome slowed;

  private static GatlingProcess.Outcome run(Path out, String... more) throws Exception {
    String[] props =
        Stream.concat(
                Stream.of(RUN),
                Stream.concat(
                    Stream.of("history=" + history, "gate.history=tpot.mean:+20%"),
                    Stream.of(more)))
            .toArray(String[]::new);
    return GatlingProcess.run(ServingBenchmarkSimulation.class, out, 120, props);
  }

  @BeforeAll
  static void runs() throws Exception {
    history = results.resolve("perf history");
    first = run(results.resolve("first"));
    HistoryLine line = HistoryFile.read(history).lines().get(0);
    Files.delete(HistoryFile.of(history));
    for (int i = 1; i <= 19; i++) {
      // run 1 is the first itself, 2..18 around its TPOT, 19 the first slowed run
      double factor = i == 1 ? 1 : i == 19 ? 4 : 1 + 0.02 * Math.sin(i);
      HistoryFile.append(history, scaled(line, "copy-" + i, factor));
    }
    // 10 times as slow: sim-tiny's TPOT is about a millisecond, and a cold first run's is higher
    slowed = run(results.resolve("slowed"), "sim.slowdown=10");
  }

  private static HistoryLine scaled(HistoryLine l, String run, double factor) {
    Map<String, Map<String, List<Double>>> levels = new LinkedHashMap<>();
    l.levels()
        .forEach(
            (level, figures) -> {
              Map<String, List<Double>> f = new LinkedHashMap<>(figures);
              List<Double> tpot = new ArrayList<>();
              figures.get("tpot.mean").forEach(v -> tpot.add(v * factor));
              f.put("tpot.mean", tpot);
              levels.put(level, f);
            });
    return new HistoryLine(
        l.version(), run, l.time(), l.key(), l.keyFields(), l.baseUrl(), levels, l.gatesFailed());
  }

  @Test
  void theFirstRunStartsTheHistoryAndIsNotJudged() {
    assertEquals(0, first.exitCode(), first.stdout() + first.stderr());
    assertTrue(
        first
            .stdout()
            .contains("c2 tpot.mean: 0 earlier run(s) at the current level, 15 needed: not judged"),
        first.stdout());
    assertTrue(first.stdout().contains("History:             "), first.stdout());
  }

  @Test
  void aRunAfterAStepFailsNamingItsStartAndIsAddedToTheHistory() throws Exception {
    assertEquals(2, slowed.exitCode(), slowed.stdout() + slowed.stderr());
    assertTrue(slowed.stdout().contains("FAIL c2       tpot.mean"), slowed.stdout());
    assertTrue(
        slowed.stdout().contains("most likely started at run 19 of 20 (copy-19, "),
        slowed.stdout());
    try (Stream<Path> files = Files.walk(results.resolve("slowed"))) {
      Path xml =
          files
              .filter(p -> p.getFileName().toString().equals("gates.xml"))
              .findFirst()
              .orElseThrow();
      assertTrue(Files.readString(xml).contains("tpot.mean"), Files.readString(xml));
    }
    List<HistoryLine> lines = HistoryFile.read(history).lines();
    assertEquals(20, lines.size());
    assertEquals(lines.get(0).key(), lines.get(19).key(), "the same key");
  }
}
