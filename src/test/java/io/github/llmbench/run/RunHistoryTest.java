package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.Noise;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.RelativeBase;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryKey;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.summary.Summary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -Dhistory} and {@code -Dgate.history} as read before any load. */
class RunHistoryTest {
  private static BenchSettings settings(Map<String, String> p) {
    return BenchSettings.from(p, k -> null);
  }

  @Test
  void theHistoryGateNeedsAHistoryAndAGoodRule() {
    assertEquals(
        "-Dgate.history needs the history it judges on: -Dhistory=<folder> (a CI cache or"
            + " artefact that keeps it between runs)",
        assertThrows(
                SettingsException.class,
                () -> RunHistory.of(settings(Map.of("gate.history", "tpot.mean:+10%"))))
            .getMessage());
    assertTrue(
        assertThrows(
                SettingsException.class,
                () ->
                    RunHistory.of(
                        settings(Map.of("history", "h", "gate.history", "tpot.mean:+ten%"))))
            .getMessage()
            .startsWith("Invalid gate -Dgate.history=tpot.mean:+ten%: entry 'tpot.mean:+ten%'"));
  }

  @Test
  void relativeGatesGetTheKeysNoiseOnceItHasEnoughRuns(@TempDir Path dir) throws Exception {
    BenchSettings s = settings(Map.of("history", dir.toString()));
    HistoryKey key = HistoryKey.of(Map.of("conc", "8"));
    GateMetric tpot = GateMetric.parse("tpot.mean").orElseThrow();
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
    for (int i = 0; i < 5; i++) {
      assertEquals(
          Optional.empty(), RunHistory.of(s).forKey(key).noise(true, out).of("c8", tpot), "" + i);
      Summary run =
          Summary.parse(
              "{\"levels\":{\"c8\":{\"completed\":10,\"mean_tpot_ms\":"
                  + (20 + i)
                  + ",\"trials\":[{\"trial\":1,\"completed\":5,\"mean_tpot_ms\":"
                  + (20 + i)
                  + "},{\"trial\":2,\"completed\":5,\"mean_tpot_ms\":"
                  + (21 + i)
                  + "}]}}}");
      HistoryFile.append(dir, HistoryLine.of("run-" + i, Instant.EPOCH, key, run));
    }
    assertTrue(
        console
            .toString(StandardCharsets.UTF_8)
            .startsWith(
                "history: 0 run(s) of this key that failed no gate, 5 needed to learn the noise;"));
    Optional<Noise> noise = RunHistory.of(s).forKey(key).noise(true, out).of("c8", tpot);
    assertEquals(Noise.Source.HISTORY, noise.orElseThrow().source());
    assertEquals(10, noise.get().trials());
    assertEquals(
        Optional.empty(),
        RunHistory.of(s).forKey(key).noise(false, out).of("c8", tpot),
        "no relative gate, no history read");
  }

  @Test
  void oneInjectorOfSeveralKeepsNoHistory() {
    assertEquals(
        "-Dhistory with -Dinjector=0/2: one injector of several measures a share of the load;"
            + " keep the history of runs from one injector",
        assertThrows(
                SettingsException.class,
                () ->
                    RunHistory.of(settings(Map.of("history", "h", "injector", "0/2", "seed", "7"))))
            .getMessage());
  }

  @Test
  void theHistoryGateIsNoGateOnALevel() {
    BenchSettings s = settings(Map.of("history", "h", "gate.history", "tpot.mean:+10%"));
    RunHistory.of(s);
    // the gates of the gate. family do not see it (else: Unknown gate -Dgate.history)
    assertEquals(
        1,
        RunGates.of(s, RelativeBase.STORED_BASELINE).set().gates().size(),
        "the default failed.pct gate alone");
  }
}
