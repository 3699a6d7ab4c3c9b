package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A results folder whose path holds spaces, given as Gatling's {@code --results-folder} in a forked
 * JVM (as the Maven plugin does): the kit's files land in Gatling's run folder inside it, not in a
 * folder named after the path's first word.
 */
class ResultsFolderWithSpacesIT {

  @Test
  void llmFilesLandInTheRunFolder(@TempDir Path dir) throws Exception {
    Path results = dir.resolve("my results").resolve("gatling");
    GatlingProcess.Outcome o =
        GatlingProcess.run(
            ServingBenchmarkSimulation.class,
            results,
            120,
            "sim.model=sim-tiny",
            "conc=2",
            "prompts=4",
            "input.len=16",
            "output.len=8");
    assertEquals(0, o.exitCode(), o.stdout() + o.stderr());

    List<Path> runs;
    try (Stream<Path> s = Files.list(results)) {
      runs = s.toList();
    }
    assertEquals(1, runs.size(), runs.toString());
    Path run = runs.get(0);
    assertTrue(
        Files.isRegularFile(run.resolve("simulation.log")), "Gatling's own run folder: " + run);
    assertEquals(4, RequestsJsonl.read(run.resolve("llm/requests.jsonl")).size());
    assertTrue(Files.isRegularFile(run.resolve("llm.html")), "llm.html in " + run);
    assertTrue(
        o.stdout().contains("Per-request records: " + run.resolve("llm/requests.jsonl")),
        o.stdout());
    try (Stream<Path> s = Files.list(dir)) { // nothing written beside, e.g. in dir/my/
      assertEquals(List.of(dir.resolve("my results")), s.toList());
    }
  }
}
