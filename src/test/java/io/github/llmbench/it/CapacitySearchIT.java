package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dsearch=conc}: one command brackets the capacity at an objective on the embedded
 * simulator, within its budget, each probe judged on its own level's figures; a capacity gate above
 * the capacity fails. One search for the class, shared by its tests ({@link RateSearchIT}: over
 * request rates).
 *
 * <p>Each probe's verdict is checked against the figures its level has in {@code summary.json}, not
 * against a second, plain run of the bracketing levels: that comparison read a few seconds of a
 * level twice and failed on the noise of a busy machine, and cost a run. The search's logic is
 * {@code CapacitySearchTest}'s, on scripted per-level results.
 */
class CapacitySearchIT {
  /**
   * The engine runs {@value #SEQS} requests at once ({@code sim.max_num_seqs}), each for about 1 s
   * (64 tokens of the tiny model's steps stretched 16 times, about 15 ms each): up to {@value
   * #SEQS} users a request's TTFT is the request path and a step or two (about 65 ms), well under
   * the objective; above, each request first waits for a running one to end, (c - {@value #SEQS}) /
   * {@value #SEQS} of a request's time on average, well over it (about 380 ms at c32). A verdict so
   * decided by the engine's slots, not by a few ms of TTFT, holds on a busy machine (with the
   * default model TTFT grew with concurrency by its prefills, and a loaded machine broke c16).
   */
  private static final double TTFT_MEAN_MS = 150;

  private static final int SEQS = 24;

  private static final double PRECISION = 0.35;

  @TempDir static Path dir;

  private static GatlingRun.Result run;
  private static Summary summary;
  private static CapacityFigures capacity;

  @BeforeAll
  static void search() throws Exception {
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            dir.resolve("search"),
            SlottedSearch.settings(
                SEQS,
                PRECISION,
                Map.of(
                    "duration", "4",
                    "seed", "5",
                    "search", "conc",
                    "slo", "ttft.mean:" + TTFT_MEAN_MS,
                    "search.max", "64",
                    "search.budget", "3",
                    "gate.capacity.min", "64")));
    assertEquals(0, run.exitCode(), run.console());
    summary = TestReports.summary(run.runDir());
    capacity = summary.run().capacity();
  }

  private static int met() {
    return capacity.capacity().intValue();
  }

  private static int broke() {
    return capacity.lowestBroken().intValue();
  }

  @Test
  void theSearchBracketsTheCapacityWithinItsPrecision() {
    assertEquals("bracketed", capacity.status(), capacity.toString());
    assertTrue(
        broke() > met() && (broke() - met() <= PRECISION * met() || broke() - met() == 1),
        "within the precision: " + capacity);
  }

  /**
   * Within its budget, said by what it ran rather than by the time it took: it bracketed (a search
   * out of time says so instead), and the run's levels are its probes and nothing else.
   */
  @Test
  void theSearchRunsItsProbesAndNothingElse() {
    assertEquals(
        capacity.probes().stream().map(CapacityFigures.Probe::level).collect(Collectors.toSet()),
        summary.levels().keySet(),
        capacity.toString());
    assertTrue(
        capacity.probes().stream().allMatch(p -> p.requests() > 0), "each probe sent requests");
  }

  /**
   * A concurrency probe is judged on its steady window (the whole level where it reached none): met
   * where that mean TTFT is within the objective, the figure its level has in {@code summary.json}.
   */
  @Test
  void eachProbesVerdictIsWhatItsLevelsSteadyWindowSays() {
    LatencyFigure meanTtft = LatencyFigure.of(Metric.TTFT, Statistic.MEAN);
    for (CapacityFigures.Probe p : capacity.probes()) {
      LevelSummary level = summary.levels().get(p.level());
      double ttft =
          level.steadyState() != null && level.steadyState().reached()
              ? level.steadyState().latency(meanTtft)
              : level.figures().latency(meanTtft);
      assertEquals(ttft, p.figures().get("ttft.mean"), 1e-9, p.toString());
      assertEquals(ttft <= TTFT_MEAN_MS, p.met(), p + ": steady mean TTFT " + ttft);
    }
  }

  @Test
  void theConsoleSaysTheCapacityAndEachProbe() {
    String console = run.console();
    assertTrue(
        console.contains(
            "Capacity:  c" + met() + " meets every objective; c" + broke() + " broke ttft.mean"),
        console);
    assertTrue(console.matches("(?s).*Probes: +c16 met \\(\\d+ requests\\), c32 broke.*"), console);
  }

  @Test
  void aCapacityGateAboveTheCapacityFails() throws Exception {
    assertTrue(run.console().contains("FAIL search   capacity.min"), run.console());
    assertTrue(Files.readString(run.llm("gates.xml")).contains("capacity.min"), "in gates.xml");
  }

  @Test
  void thePageGivesTheAnswerFirst() throws Exception {
    String page = Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(
        page.contains("Capacity at SLO: c" + met() + " meets every objective"),
        "the answer on the page");
  }

  @Test
  @Tag("chromium")
  void thePageDrawsItsCharts() throws Exception {
    // one chart per objective, with the ladder's 3, in flight, tokens, roofline, server
    Chromium.assertChartsDrawn(Chromium.open(run.runDir().resolve("llm.html")), 7);
  }
}
