package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Level;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A three-level ladder stopped by request counts, after a warmup, as one run: the run once for the
 * class, each {@code @Test} one thing it must show.
 */
class LadderIT {
  @TempDir static Path results;

  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static Summary summary;

  @BeforeAll
  static void runLadder() throws Exception {
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "ladder", "2,3,4",
                "prompts", "6,8,10",
                "warmup.prompts", "3",
                "warmup.conc", "3",
                "input.len", "64",
                "output.len", "8",
                "seed", "11",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(RunFiles.ofRun(run.runDir()).requests());
    summary = TestReports.summary(run.runDir());
  }

  @Test
  void everyLevelSendsExactlyItsPrompts() {
    assertTrue(records.stream().allMatch(RequestRecord::ok), records.toString());
    assertEquals(3, level(Level.WARMUP).size());
    assertEquals(6, level(Level.closed(2)).size());
    assertEquals(8, level(Level.closed(3)).size());
    assertEquals(10, level(Level.closed(4)).size());
    assertEquals(27, records.size());
  }

  @Test
  void eachLevelDrainsBeforeTheNextAndKeepsItsConcurrency() {
    List<RequestRecord> warmup = level(Level.WARMUP);
    List<RequestRecord> c2 = level(Level.closed(2));
    List<RequestRecord> c3 = level(Level.closed(3));
    List<RequestRecord> c4 = level(Level.closed(4));
    assertTrue(last(warmup) <= first(c2), "warmup overlaps c2");
    assertTrue(last(c2) <= first(c3), "c2 overlaps c3");
    assertTrue(last(c3) <= first(c4), "c3 overlaps c4");
    assertTrue(peak(c2) <= 2, "c2 peak " + peak(c2));
    assertTrue(peak(c4) <= 4, "c4 peak " + peak(c4));
  }

  @Test
  void summaryLeavesTheWarmupOut() {
    assertEquals(24, summary.overall().completed(), "warmup requests are not in the summary");
    assertEquals(3, summary.run().warmupRequests());
    assertEquals(11, summary.run().seed());
    assertEquals("random", summary.run().dataset());
    assertEquals(List.of("c2", "c3", "c4"), List.copyOf(summary.levels().keySet()));
    assertEquals(6, summary.levels().get("c2").figures().completed());
    assertEquals(2, summary.levels().get("c2").figures().maxConcurrency());
    assertFalse(summary.levels().containsKey(Level.WARMUP.tag()));
  }

  @Test
  void steadyStateRooflineAndKneeInTheConsoleAndSummary() {
    for (String level : List.of("c2", "c3", "c4")) {
      LevelSummary l = summary.levels().get(level);
      assertTrue(l.steadyState() != null && l.roofline().peakFlops() != null, level + ": " + l);
      assertTrue(
          run.console().contains("Serving Benchmark Result (" + level + ")"), "block of " + level);
    }
    assertEquals(3, summary.knee().levels().size());
    assertTrue(run.console().contains("Steady-State Metrics"), "steady-state block in the console");
    assertTrue(
        run.console().contains("Ladder (output throughput basis"),
        "ladder verdicts in the console");
  }

  @Test
  void pageIsLinkedAndAgreesWithTheSummary() throws Exception {
    double steadyC4 = summary.levels().get("c4").steadyState().outputThroughput();
    Path page = RunFiles.ofRun(run.runDir()).page();
    String html = Files.readString(page);
    assertTrue(
        Files.readString(run.runDir().resolve("index.html")).contains(RunFiles.PAGE), "menu link");
    assertTrue(html.contains("<div id=\"llm-server\""), "the simulator's /metrics read");
    assertTrue(
        html.contains(String.format(Locale.ROOT, "%.2f", steadyC4)),
        "page and summary.json agree on c4's steady output throughput " + steadyC4);
  }

  @Test
  @Tag("chromium")
  void pageChartsDrawInChromium() throws Exception {
    Chromium.Dump dump = Chromium.open(RunFiles.ofRun(run.runDir()).page());
    // 3 against concurrency, in flight, tokens, the roofline, and the simulator's
    // running/waiting/KV and its (simulated) GPU power
    Chromium.assertChartsDrawn(dump, 8);
  }

  private static List<RequestRecord> level(Level level) {
    return records.stream().filter(r -> r.level().equals(level.tag())).toList();
  }

  private static long first(List<RequestRecord> rs) {
    return rs.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
  }

  private static long last(List<RequestRecord> rs) {
    return rs.stream().mapToLong(RequestRecord::endMs).max().orElseThrow();
  }

  private static int peak(List<RequestRecord> rs) {
    int peak = 0;
    for (RequestRecord r : rs) {
      int n = 0;
      for (RequestRecord o : rs) {
        if (o.startMs() <= r.startMs() && r.startMs() < o.endMs()) {
          n++;
        }
      }
      peak = Math.max(peak, n);
    }
    return peak;
  }
}
