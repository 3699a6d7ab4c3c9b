package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.FigureInterval;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.summary.TrialFigures;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A two-level ladder with {@code -Dtrials=3}, run once for the class. */
class TrialsIT {
  @TempDir static Path results;

  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static Summary summary;

  @BeforeAll
  static void runTrials() throws Exception {
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "ladder", "2,4",
                "prompts", "6",
                "trials", "3",
                "trials.cooldown", "1",
                "input.len", "64",
                "output.len", "8",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(RunFiles.ofRun(run.runDir()).requests());
    summary = TestReports.summary(run.runDir());
  }

  private static List<RequestRecord> of(String level, int trial) {
    return records.stream()
        .filter(r -> r.level().equals(level) && RequestOrigin.trialOf(r.origin()) == trial)
        .toList();
  }

  private static long min(List<RequestRecord> rs, ToLongFunction<RequestRecord> f) {
    return rs.stream().mapToLong(f).min().orElseThrow();
  }

  private static long max(List<RequestRecord> rs, ToLongFunction<RequestRecord> f) {
    return rs.stream().mapToLong(f).max().orElseThrow();
  }

  @Test
  void eachTrialSendsItsPromptsAfterTheOneBeforeDrainedAndCooledDown() {
    assertEquals(2 * 3 * 6, records.size());
    for (String level : List.of("c2", "c4")) {
      for (int t = 1; t <= 3; t++) {
        assertEquals(6, of(level, t).size(), level + " trial " + t);
        assertTrue(of(level, t).stream().allMatch(RequestRecord::ok), of(level, t).toString());
      }
      for (int t = 2; t <= 3; t++) {
        long gap =
            min(of(level, t), RequestRecord::startMs) - max(of(level, t - 1), RequestRecord::endMs);
        assertTrue(gap >= 1000, level + " trial " + t + " started " + gap + " ms after the last");
      }
    }
    assertTrue(
        max(of("c2", 3), RequestRecord::endMs) <= min(of("c4", 1), RequestRecord::startMs),
        "a level's trials run back to back, before the next level");
  }

  @Test
  void theSummaryHoldsEachTrialAndTheLevelAddsTheirDurations() {
    for (String level : List.of("c2", "c4")) {
      LevelSummary l = summary.levels().get(level);
      assertEquals(3, l.trials().size(), level);
      assertEquals(18, l.figures().completed());
      double duration = 0;
      for (int t = 1; t <= 3; t++) {
        TrialFigures f = l.trials().get(t - 1);
        assertEquals(t, f.trial());
        assertEquals(6, f.figures().completed());
        duration += f.figures().duration();
      }
      assertEquals(duration, l.figures().duration(), 1e-9, "the gaps between trials are no load");
      FigureInterval out = l.intervals().get("output_throughput");
      assertEquals("trials", out.basis(), l.intervals().toString());
      assertTrue(out.ciLow() <= out.estimate() && out.estimate() <= out.ciHigh(), out.toString());
      assertEquals(3, l.samples().get("output_throughput").n());
    }
  }

  @Test
  void thePageHasATrialsTablePerLevelWithItsIntervals() throws Exception {
    String html = Files.readString(RunFiles.ofRun(run.runDir()).page());
    int section = html.indexOf("<div id=\"llm-trials\"");
    assertTrue(section > 0, "a Trials section");
    String trials = html.substring(section, html.indexOf("<div id=\"llm-errors\"", section));
    assertTrue(trials.contains("Trials (c2)") && trials.contains("Trials (c4)"), trials);
    assertTrue(trials.contains("95% interval"), trials);
  }

  @Test
  @Tag("chromium")
  void theLadderChartsDrawTheTrialsIntervals() throws Exception {
    Chromium.Dump dump = Chromium.open(RunFiles.ofRun(run.runDir()).page());
    // 3 against concurrency, in flight, tokens, the roofline, and the simulator's
    // running/waiting/KV and its (simulated) GPU power
    Chromium.assertChartsDrawn(dump, 8);
    assertTrue(dump.dom().contains("95% interval across trials"), "the interval series");
  }

  @Test
  void theConsoleShowsATrialsBlockPerLevel() {
    for (String level : List.of("c2", "c4")) {
      assertTrue(run.console().contains(" Trials (" + level + ") "), run.console());
    }
    assertTrue(run.console().contains("trials       3 per level, back to back, 1 s apart"));
    assertTrue(run.console().contains("95% across trials: out tok/s "), run.console());
    assertTrue(
        run.console()
            .contains("! P99 figures of trials with fewer than 100 requests (the fewest: 6)"),
        run.console());
  }
}
