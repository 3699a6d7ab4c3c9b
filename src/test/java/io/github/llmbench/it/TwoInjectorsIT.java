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
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.GatlingRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two injectors on this machine share one level against one server ({@code -Dinjector=i/2}, {@code
 * -Dstart.at}), merge into one report, and give what one process running the whole load gives: the
 * same request count and peak concurrency, and the same throughput within noise.
 *
 * <p>They write into one results folder, as two {@code mvn gatling:test} in one checkout do: each
 * run's files land in its own Gatling run folder, whole (when the kit took the newest folder for
 * its own, both wrote into the later one and the first run's records were lost).
 */
class TwoInjectorsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Gatling's last console line names its report: {@code file:///.../<run folder>/index.html}. */
  private static final Pattern GATLING_REPORT = Pattern.compile("(file:\\S+)/index\\.html");

  private static final Pattern KIT_RECORDS =
      Pattern.compile("Per-request records: (.+)/llm/requests\\.jsonl");
  private static final String CONC = "6";
  private static final String SECONDS = "6";

  @Test
  void twoInjectorsMergeIntoTheRunOneProcessGives(@TempDir Path dir) throws Exception {
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"))) {
      String[] common = {
        "base.url=" + sim.baseUrl(),
        "conc=" + CONC,
        "duration=" + SECONDS,
        "input.len=64",
        "output.len=64",
        "seed=11"
      };
      // both JVMs started, their run folders made, before either sends (2 busy cores): the first
      // requests of both runs come when both folders exist, where a guess by time goes wrong
      long startAt = System.currentTimeMillis() + 15_000;
      Path results = dir.resolve("injectors");
      List<CompletableFuture<GatlingProcess.Outcome>> runs =
          Stream.of(0, 1)
              .map(
                  i ->
                      CompletableFuture.supplyAsync(
                          () -> {
                            try {
                              String[] props =
                                  Stream.concat(
                                          Stream.of(common),
                                          Stream.of("injector=" + i + "/2", "start.at=" + startAt))
                                      .toArray(String[]::new);
                              return GatlingProcess.run(
                                  ServingBenchmarkSimulation.class, results, 120, props);
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
        assertTrue(o.stdout().contains("injector     "), o.stdout());
        assertFalse(console.contains("folder of their own"), console);
        Matcher gatling = GATLING_REPORT.matcher(o.stdout());
        assertTrue(gatling.find(), o.stdout());
        Path gatlingsFolder = Paths.get(URI.create(gatling.group(1))).toRealPath();
        Matcher kit = KIT_RECORDS.matcher(o.stdout());
        assertTrue(kit.find(), o.stdout());
        assertEquals(
            gatlingsFolder,
            Paths.get(kit.group(1)).toRealPath(),
            "the kit wrote where Gatling wrote this run");
        runFolders[i] = gatlingsFolder;
      }
      assertFalse(runFolders[0].equals(runFolders[1]), "two runs, two folders: " + runFolders[0]);
      try (Stream<Path> listed = Files.list(results)) {
        assertEquals(
            Set.of(runFolders[0], runFolders[1]),
            listed.map(TwoInjectorsIT::real).collect(Collectors.toSet()),
            "nothing else in the results folder");
      }
      Path a = runFolders[0];
      Path b = runFolders[1];
      List<RequestRecord> ra = RequestsJsonl.read(a.resolve("llm/requests.jsonl"));
      List<RequestRecord> rb = RequestsJsonl.read(b.resolve("llm/requests.jsonl"));
      for (Path run : runFolders) {
        List<RequestRecord> records = RequestsJsonl.read(run.resolve("llm/requests.jsonl"));
        JsonNode summary = JSON.readTree(run.resolve("llm/summary.json").toFile());
        assertEquals(
            records.size(),
            records.stream().map(RequestRecord::id).distinct().count(),
            "each request once in " + run);
        assertEquals(
            records.size(),
            summary.path("completed").asInt() + summary.path("failed").asInt(),
            "the summary counts this run's records, " + run);
        assertTrue(
            Files.isRegularFile(run.resolve("llm.html")),
            "llm.html beside Gatling's index.html in " + run);
      }
      assertEquals(
          "0/2", JSON.readTree(a.resolve("llm/summary.json").toFile()).path("injector").asText());
      assertTrue(
          ra.stream().allMatch(r -> r.origin().injector() == 0 && r.level().equals("c" + CONC)),
          "tagged, whole level's name");
      assertTrue(rb.stream().allMatch(r -> r.origin().injector() == 1), "tagged");
      // both started on -Dstart.at: their first sends after it, within Gatling's start latency
      // (a chained population starts on the injector's next tick, up to about a second later)
      long firstA = ra.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
      long firstB = rb.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
      for (long first : new long[] {firstA, firstB}) {
        assertTrue(
            first >= startAt && first - startAt < 1500,
            (firstA - startAt) + " / " + (firstB - startAt));
      }

      ByteArrayOutputStream console = new ByteArrayOutputStream();
      Path merged = dir.resolve("merged");
      int rc =
          MergeMain.run(
              new String[] {a.toString(), b.toString(), "--out", merged.toString()},
              new PrintStream(console, true, StandardCharsets.UTF_8),
              System.err);
      assertEquals(0, rc, console.toString(StandardCharsets.UTF_8));
      JsonNode m = JSON.readTree(merged.resolve("llm/summary.json").toFile());
      assertEquals(ra.size() + rb.size(), m.path("completed").asInt());
      assertEquals(2, m.path("injectors").size(), m.toString());
      assertTrue(
          Files.readString(merged.resolve("llm/gates.xml")).contains("failed.pct"),
          "the injectors' gates over the whole load");
      String page = Files.readString(merged.resolve("llm.html"));
      assertTrue(
          page.contains("<a href=\"../injectors/" + a.getFileName() + "/index.html\">"),
          "each injector's Gatling report linked");

      GatlingRun.Result single =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              dir.resolve("single"),
              Map.of(
                  "base.url",
                  sim.baseUrl(),
                  "conc",
                  CONC,
                  "duration",
                  SECONDS,
                  "input.len",
                  "64",
                  "output.len",
                  "64",
                  "seed",
                  "12"));
      assertEquals(0, single.exitCode(), single.console());
      JsonNode s = JSON.readTree(single.llm("summary.json").toFile());
      String both = "merged " + m.path("levels") + "\nsingle " + s.path("levels");
      System.out.printf(
          Locale.ROOT,
          "two injectors merged: %d requests, peak %d, %.1f tok/s (steady %.1f); one process: %d requests, peak %d, %.1f tok/s (steady %.1f)%n",
          m.path("completed").asInt(),
          m.path("max_concurrent_requests").asInt(),
          m.path("output_throughput").asDouble(),
          m.path("levels")
              .path("c" + CONC)
              .path("steady_state")
              .path("output_throughput")
              .asDouble(),
          s.path("completed").asInt(),
          s.path("max_concurrent_requests").asInt(),
          s.path("output_throughput").asDouble(),
          s.path("levels")
              .path("c" + CONC)
              .path("steady_state")
              .path("output_throughput")
              .asDouble());
      assertEquals(
          s.path("max_concurrent_requests").asInt(),
          m.path("max_concurrent_requests").asInt(),
          both);
      assertEquals(Integer.parseInt(CONC), m.path("max_concurrent_requests").asInt(), both);
      assertEquals(
          s.path("completed").asDouble(),
          m.path("completed").asDouble(),
          0.15 * s.path("completed").asDouble(),
          both);
      // the steady window's: a late start of one injector (a JVM slow to start on a busy machine)
      // stretches the merged level's edges, not its steady middle
      String c = "c" + CONC;
      double steadySingle =
          s.path("levels").path(c).path("steady_state").path("output_throughput").asDouble();
      double steadyMerged =
          m.path("levels").path(c).path("steady_state").path("output_throughput").asDouble();
      assertEquals(steadySingle, steadyMerged, 0.15 * steadySingle, both);
    }
  }

  /** A path as the file system resolves it (a temporary folder may be under a link). */
  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
