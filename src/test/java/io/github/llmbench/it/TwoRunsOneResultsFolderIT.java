package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.report.MergeMain;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Gatling processes started at the same moment into one results folder (two injectors in one
 * checkout, as {@code mvn gatling:test} run twice): each run's files land in its own Gatling run
 * folder, whole. When the kit took the newest folder as its own, both wrote into the later one and
 * the first run's records were lost.
 */
class TwoRunsOneResultsFolderIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Gatling's last console line names its report: {@code file:///.../<run folder>/index.html}. */
  private static final Pattern GATLING_REPORT = Pattern.compile("(file:\\S+)/index\\.html");
  private static final Pattern KIT_RECORDS = Pattern.compile("Per-request records: (.+)/llm/requests\\.jsonl");

  @Test
  void eachRunKeepsItsOwnFilesInItsOwnRunFolder(@TempDir Path dir) throws Exception {
    Path results = dir.resolve("gatling");
    // both JVMs started, their run folders made, before either sends (2 busy cores); the first
    // requests of both runs then come when both folders exist, where a guess by time goes wrong
    long startAt = System.currentTimeMillis() + 20_000;
    List<CompletableFuture<GatlingProcess.Outcome>> runs = Stream.of(0, 1)
        .map(i -> CompletableFuture.supplyAsync(() -> {
          try {
            return GatlingProcess.run(ServingBenchmarkSimulation.class, results, 120, "sim.model=sim-tiny", "conc=4",
                "duration=3", "input.len=16", "output.len=16", "seed=5", "injector=" + i + "/2", "start.at=" + startAt);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }))
        .toList();
    Path[] runFolders = new Path[2];
    for (int i = 0; i < 2; i++) {
      GatlingProcess.Outcome o = runs.get(i).get();
      String console = o.stdout() + o.stderr();
      assertEquals(0, o.exitCode(), console);
      assertFalse(console.contains("folder of their own"), console);
      Matcher gatling = GATLING_REPORT.matcher(o.stdout());
      assertTrue(gatling.find(), o.stdout());
      Path gatlingsFolder = Paths.get(URI.create(gatling.group(1))).toRealPath();
      Matcher kit = KIT_RECORDS.matcher(o.stdout());
      assertTrue(kit.find(), o.stdout());
      assertEquals(gatlingsFolder, Paths.get(kit.group(1)).toRealPath(), "the kit wrote where Gatling wrote this run");
      runFolders[i] = gatlingsFolder;
    }
    assertFalse(runFolders[0].equals(runFolders[1]), "two runs, two folders: " + runFolders[0]);
    try (Stream<Path> s = Files.list(results)) {
      assertEquals(Set.of(runFolders[0], runFolders[1]), s.map(TwoRunsOneResultsFolderIT::real).collect(Collectors.toSet()),
          "nothing else in the results folder");
    }

    int completed = 0;
    for (int i = 0; i < 2; i++) {
      Path run = runFolders[i];
      List<RequestRecord> records = RequestsJsonl.read(run.resolve("llm/requests.jsonl"));
      int injector = i;
      assertFalse(records.isEmpty(), run.toString());
      assertTrue(records.stream().allMatch(r -> r.origin() != null && r.origin().injector() == injector),
          "only injector " + i + "'s requests in " + run);
      assertEquals(records.size(), records.stream().map(RequestRecord::id).distinct().count(), "each request once in " + run);
      JsonNode summary = JSON.readTree(run.resolve("llm/summary.json").toFile());
      assertEquals(i + "/2", summary.path("injector").asText(), run.toString());
      assertEquals(records.size(), summary.path("completed").asInt() + summary.path("failed").asInt(),
          "the summary counts this run's records, " + run);
      assertTrue(Files.isRegularFile(run.resolve("llm.html")), "llm.html beside Gatling's index.html in " + run);
      assertTrue(Files.isRegularFile(run.resolve("index.html")), run.toString());
      completed += summary.path("completed").asInt();
    }

    // the injectors' folders merge (the command refused a folder without llm/)
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path merged = dir.resolve("merged");
    int rc = MergeMain.run(new String[] {runFolders[0].toString(), runFolders[1].toString(), "--out", merged.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, rc, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    assertEquals(completed, JSON.readTree(merged.resolve("llm/summary.json").toFile()).path("completed").asInt());
  }

  /** A path as the file system resolves it (a temporary folder may be under a link). */
  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
