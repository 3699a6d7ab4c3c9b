package io.github.llmbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFileTest {
  @TempDir Path dir;

  @Test
  void aLineReadsBackAsWritten() throws IOException {
    HistoryLine line =
        HistoryFixtures.line(
            1, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", 20, 22, 21));
    HistoryFile.append(dir.resolve("new"), line);
    HistoryFile.append(dir.resolve("new"), line);
    HistoryFile.Read read = HistoryFile.read(dir.resolve("new"));
    assertEquals(List.of(line, line), read.lines());
    assertEquals(0, read.skipped());
    assertEquals(List.of(20.0, 22.0, 21.0), read.lines().get(0).trials("c8", "tpot.mean"));
    assertEquals(21.0, read.lines().get(0).value("c8", "tpot.mean"), 1e-9);
    assertEquals(
        List.of(45.0, 900 / 22.0, 900 / 21.0),
        read.lines().get(0).trials("c8", "steady.output_throughput.min"));
  }

  @Test
  void aLevelWithoutTrialsIsOneTrialAndMissingFiguresAreNull() {
    HistoryLine line =
        HistoryFixtures.line(1, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", 20));
    assertEquals(List.of(20.0), line.trials("c8", "tpot.mean"));
    assertEquals(1, line.trials("c8", "itl.p99").size());
    assertNull(line.trials("c8", "itl.p99").get(0), "the summary has no ITL");
    assertTrue(Double.isNaN(line.value("c8", "itl.p99")));
  }

  @Test
  void noSecretReachesTheFile() throws IOException {
    HistoryFile.append(
        dir, HistoryFixtures.line(1, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", 20)));
    String text = Files.readString(HistoryFile.of(dir));
    assertFalse(text.contains("secret"), text);
    assertTrue(text.contains("\"base_url\":\"http://127.0.0.1:8000\""), text);
  }

  @Test
  void blankMalformedAndNewerLinesAreToleratedAndCounted() throws IOException {
    HistoryLine line =
        HistoryFixtures.line(1, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", 20));
    HistoryFile.append(dir, line);
    String good = Files.readString(HistoryFile.of(dir)).strip();
    String newer =
        good.replace("\"version\":1", "\"version\":7")
            .replace("\"run\":\"run-1\"", "\"run\":\"run-2\",\"unknown_field\":{\"a\":1}");
    Files.writeString(
        HistoryFile.of(dir),
        good + "\n\n{\"version\":1,\"run\":\n<<<<<<< HEAD\n[1,2]\n" + newer + "\n");
    HistoryFile.Read read = HistoryFile.read(dir);
    assertEquals(List.of("run-1", "run-2"), read.lines().stream().map(HistoryLine::run).toList());
    assertEquals(3, read.skipped());
    assertEquals(1, read.newer());
    assertEquals(
        "; 3 malformed line(s) skipped; 1 line(s) of a newer format read in part", read.notes());
  }

  @Test
  void aMissingFileIsAnEmptyHistory() throws IOException {
    assertEquals(HistoryFile.Read.EMPTY, HistoryFile.read(dir.resolve("none")));
  }

  @Test
  void theKeyIsStableAndIgnoresTheSeedAndTime() {
    HistoryKey a =
        HistoryFixtures.line(1, HistoryFixtures.summary(HistoryFixtures.SETTINGS, "c8", 20))
            .historyKey();
    Map<String, String> otherSeed = new HashMap<>(HistoryFixtures.SETTINGS);
    otherSeed.put("seed", "7 (fresh; pin with -Dseed)");
    otherSeed.put("sim.noise", "0.05 (... from seed 7)");
    otherSeed.put("gates", "tpot.mean <= +10%");
    HistoryKey b =
        HistoryFixtures.line(9, HistoryFixtures.summary(otherSeed, "c8", 30)).historyKey();
    assertEquals(a, b);
    assertEquals(12, a.id().length());
    assertEquals("8", a.fields().get("conc"));
    assertFalse(a.fields().containsKey("seed"));
    assertFalse(a.fields().containsKey("base.url"), "a CI job's port changes");
    // the id of these fields, as written by this kit: a change here splits every history
    assertEquals(HistoryKey.of(a.fields()).id(), a.id());

    Map<String, String> otherConc = new HashMap<>(HistoryFixtures.SETTINGS);
    otherConc.put("conc", "16");
    HistoryKey c =
        HistoryFixtures.line(1, HistoryFixtures.summary(otherConc, "c16", 20)).historyKey();
    assertNotEquals(a.id(), c.id());
    Map<String, String> otherLength = new HashMap<>(HistoryFixtures.SETTINGS);
    otherLength.put("output.len", "128");
    assertNotEquals(
        a.id(), HistoryFixtures.line(1, HistoryFixtures.summary(otherLength, "c8", 20)).key());
  }
}
