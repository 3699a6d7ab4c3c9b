package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {

  @Test
  void resultsFolderFromTheCommandLineThenThePropertyThenTheDefault() {
    assertEquals(
        Paths.get("/x/results"),
        RunDirectory.resultsFolder(List.of("-s", "Sim", "--results-folder", "/x/results"), Map.<String, String>of()::get));
    assertEquals(
        Paths.get("out"), RunDirectory.resultsFolder(List.of("-rf", "out"), Map.<String, String>of()::get));
    assertEquals(
        Paths.get("p"), RunDirectory.resultsFolder(List.of(), Map.of("gatling.resultsFolder", "p")::get));
    assertEquals(Paths.get("target/gatling"), RunDirectory.resultsFolder(List.of(), Map.<String, String>of()::get));
  }

  @Test
  void newestRunStartedAfterTheSimulation(@TempDir Path results) throws Exception {
    Path old = Files.createDirectories(results.resolve("sim-20260101000000000"));
    Files.writeString(old.resolve("simulation.log"), "x");
    Files.setLastModifiedTime(old.resolve("simulation.log"), FileTime.fromMillis(1_000_000));
    long start = System.currentTimeMillis();
    assertTrue(RunDirectory.newestRun(results, start).isEmpty());
    Path now = Files.createDirectories(results.resolve("sim-20261130000000000"));
    Files.writeString(now.resolve("simulation.log"), "x");
    assertEquals(now, RunDirectory.newestRun(results, start).get());
  }
}
