package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two injectors on this machine share one level against one server ({@code -Dinjector=i/2},
 * {@code -Dstart.at}), merge into one report, and give what one process running the whole load
 * gives: the same request count and peak concurrency, and the same throughput within noise.
 */
class TwoInjectorsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONC = "6";
  private static final String SECONDS = "6";

  @Test
  void twoInjectorsMergeIntoTheRunOneProcessGives(@TempDir Path dir) throws Exception {
    try (VllmSimulator sim = VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"))) {
      String[] common = {"base.url=" + sim.baseUrl(), "conc=" + CONC, "duration=" + SECONDS, "input.len=64", "output.len=64", "seed=11"};
      long startAt = System.currentTimeMillis() + 20_000; // both JVMs started and ready by then, on 2 busy cores
      List<CompletableFuture<GatlingProcess.Outcome>> runs = Stream.of(0, 1)
          .map(i -> CompletableFuture.supplyAsync(() -> {
            try {
              String[] props = Stream.concat(Stream.of(common), Stream.of("injector=" + i + "/2", "start.at=" + startAt)).toArray(String[]::new);
              return GatlingProcess.run(ServingBenchmarkSimulation.class, dir.resolve("injector-" + i), 120, props);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }))
          .toList();
      for (CompletableFuture<GatlingProcess.Outcome> r : runs) {
        GatlingProcess.Outcome o = r.get();
        assertEquals(0, o.exitCode(), o.stdout() + o.stderr());
        assertTrue(o.stdout().contains("injector     "), o.stdout());
      }
      Path a = newestRun(dir.resolve("injector-0"));
      Path b = newestRun(dir.resolve("injector-1"));
      List<RequestRecord> ra = RequestsJsonl.read(a.resolve("llm/requests.jsonl"));
      List<RequestRecord> rb = RequestsJsonl.read(b.resolve("llm/requests.jsonl"));
      assertTrue(ra.stream().allMatch(r -> r.origin().injector() == 0 && r.level().equals("c" + CONC)), "tagged, whole level's name");
      assertTrue(rb.stream().allMatch(r -> r.origin().injector() == 1), "tagged");
      // both started on -Dstart.at: their first sends after it, within Gatling's start latency
      // (a chained population starts on the injector's next tick, up to about a second later)
      long firstA = ra.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
      long firstB = rb.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
      for (long first : new long[] {firstA, firstB}) {
        assertTrue(first >= startAt && first - startAt < 1500, (firstA - startAt) + " / " + (firstB - startAt));
      }

      ByteArrayOutputStream console = new ByteArrayOutputStream();
      Path merged = dir.resolve("merged");
      int rc = MergeMain.run(new String[] {a.toString(), b.toString(), "--out", merged.toString()},
          new PrintStream(console, true, StandardCharsets.UTF_8), System.err);
      assertEquals(0, rc, console.toString(StandardCharsets.UTF_8));
      JsonNode m = JSON.readTree(merged.resolve("llm/summary.json").toFile());
      assertEquals(ra.size() + rb.size(), m.path("completed").asInt());
      assertEquals(2, m.path("injectors").size(), m.toString());
      assertTrue(Files.readString(merged.resolve("llm/gates.xml")).contains("failed.pct"), "the injectors' gates over the whole load");
      String page = Files.readString(merged.resolve("llm.html"));
      assertTrue(page.contains("<a href=\"../injector-0/" + a.getFileName() + "/index.html\">"), "each injector's Gatling report linked");

      GatlingRun.Result single = GatlingRun.run(ServingBenchmarkSimulation.class, dir.resolve("single"),
          Map.of("base.url", sim.baseUrl(), "conc", CONC, "duration", SECONDS, "input.len", "64", "output.len", "64", "seed", "12"));
      assertEquals(0, single.exitCode(), single.console());
      JsonNode s = JSON.readTree(single.llm("summary.json").toFile());
      String both = "merged " + m.path("levels") + "\nsingle " + s.path("levels");
      System.out.printf(java.util.Locale.ROOT, "two injectors merged: %d requests, peak %d, %.1f tok/s (steady %.1f); one process: %d requests, peak %d, %.1f tok/s (steady %.1f)%n",
          m.path("completed").asInt(), m.path("max_concurrent_requests").asInt(), m.path("output_throughput").asDouble(),
          m.path("levels").path("c" + CONC).path("steady_state").path("output_throughput").asDouble(),
          s.path("completed").asInt(), s.path("max_concurrent_requests").asInt(), s.path("output_throughput").asDouble(),
          s.path("levels").path("c" + CONC).path("steady_state").path("output_throughput").asDouble());
      assertEquals(s.path("max_concurrent_requests").asInt(), m.path("max_concurrent_requests").asInt(), both);
      assertEquals(Integer.parseInt(CONC), m.path("max_concurrent_requests").asInt(), both);
      assertEquals(s.path("completed").asDouble(), m.path("completed").asDouble(), 0.15 * s.path("completed").asDouble(), both);
      // the steady window's: a late start of one injector (a JVM slow to start on a busy machine)
      // stretches the merged level's edges, not its steady middle
      String c = "c" + CONC;
      double steadySingle = s.path("levels").path(c).path("steady_state").path("output_throughput").asDouble();
      double steadyMerged = m.path("levels").path(c).path("steady_state").path("output_throughput").asDouble();
      assertEquals(steadySingle, steadyMerged, 0.15 * steadySingle, both);
    }
  }

  private static Path newestRun(Path results) throws Exception {
    try (Stream<Path> s = Files.list(results)) {
      return s.filter(Files::isDirectory).max(java.util.Comparator.comparing(Path::toString)).orElseThrow();
    }
  }
}
