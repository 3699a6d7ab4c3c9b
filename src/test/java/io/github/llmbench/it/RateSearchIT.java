package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.summary.TraceLatenessFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dsearch=rate}: request rates of the open model after a warmup, each probe judged on its
 * whole level, each sending its rate's arrivals; the goodput at the capacity. One search for the
 * class, shared by its tests ({@link CapacitySearchIT}: over concurrencies).
 *
 * <p>Each probe's verdict is checked against the figures its level has in {@code summary.json}, not
 * against plain {@code -Drate} runs at the bracketing rates: that comparison read a few seconds of
 * a level twice and failed on the noise of a busy machine, and cost two runs.
 */
class RateSearchIT {
  /**
   * The engine runs {@value #SEQS} requests at once ({@code sim.max_num_seqs}), each for about 1 s
   * (64 tokens of the tiny model's steps stretched 16 times): it serves about 20 requests a second.
   * At r16 arrivals seldom wait for a slot (mean TTFT about the request path and a step or two); at
   * r32 a queue grows over the whole level, its waits up to seconds. A verdict so decided by the
   * engine's slots, not by a few ms of TTFT, holds on a busy machine (with the default model near
   * its knee, TTFT swung by half from run to run).
   */
  private static final double OBJECTIVE_MS = 400;

  private static final int SEQS = 28;
  private static final double PRECISION = 0.35;
  private static final int DURATION_S = 4;

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
                    "duration", String.valueOf(DURATION_S),
                    "seed", "7",
                    "search", "rate",
                    "slo", "ttft.mean:" + OBJECTIVE_MS,
                    "search.max", "48",
                    "search.budget", "2",
                    "warmup.prompts", "16",
                    "warmup.conc", "4")));
    assertEquals(0, run.exitCode(), run.console());
    summary = TestReports.summary(run.runDir());
    capacity = summary.run().capacity();
  }

  private static String metLevel() {
    return Level.open(capacity.capacity()).tag();
  }

  @Test
  void theWarmupComesBeforeTheProbes() {
    assertTrue(run.console().contains("warmup done: 16 requests"), run.console());
  }

  @Test
  void theSearchBracketsTheRateWithinItsPrecision() {
    assertTrue(capacity.overRates(), capacity.toString());
    assertEquals("bracketed", capacity.status(), capacity.toString());
    double met = capacity.capacity();
    double broke = capacity.lowestBroken();
    assertTrue(
        broke > met && broke - met <= PRECISION * met + 1e-9, "within the precision: " + capacity);
  }

  /**
   * A rate probe is judged on its whole level: met where the level's mean TTFT is within the
   * objective, the figure its level has in {@code summary.json}.
   */
  @Test
  void eachProbesVerdictIsWhatItsLevelSays() {
    LatencyFigure meanTtft = LatencyFigure.of(Metric.TTFT, Statistic.MEAN);
    for (CapacityFigures.Probe p : capacity.probes()) {
      double ttft = summary.levels().get(p.level()).figures().latency(meanTtft);
      assertEquals(ttft, p.figures().get("ttft.mean"), 1e-9, p.toString());
      assertEquals(ttft <= OBJECTIVE_MS, p.met(), p + ": mean TTFT " + ttft);
    }
  }

  @Test
  void theConsoleSaysTheCapacityAndEachProbe() {
    String console = run.console();
    String brokeLevel = Level.open(capacity.lowestBroken()).tag();
    assertTrue(
        console.contains(
            "Capacity:  "
                + metLevel()
                + " meets every objective; "
                + brokeLevel
                + " broke ttft.mean"),
        console);
    assertTrue(console.matches("(?s).*Probes: +r16 met \\(\\d+ requests\\), r32 .*"), console);
  }

  /**
   * Each probe sent about its rate's requests in the duration (Poisson: within 4 standard
   * deviations), each measured against its drawn arrival time, as a trace replay's (how late is
   * printed, not bounded: on a busy machine the sends are late by what the machine did).
   */
  @Test
  void eachProbeSendsItsRatesArrivalsEachAgainstItsTime() {
    for (CapacityFigures.Probe p : capacity.probes()) {
      double expected = p.load() * DURATION_S;
      assertTrue(Math.abs(p.requests() - expected) <= 4 * Math.sqrt(expected) + 2, p.toString());
      TraceLatenessFigures late = summary.levels().get(p.level()).traceLateness();
      System.out.println("rate probe " + p.level() + " sent late by " + late);
      assertEquals(p.requests(), late.requests(), late.toString());
    }
    assertTrue(run.console().contains("Arrivals (" + metLevel() + "): "), run.console());
  }

  /**
   * No probe's request went before its drawn arrival time, on the kit's own clock ({@code sent_ms}
   * and {@code trace_ms} both from the probe's start; 1 ms spare for their rounding to µs): the
   * one-sided bound a busy machine only meets more easily.
   */
  @Test
  void noProbeRequestIsSentBeforeItsArrivalTime() throws Exception {
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    for (CapacityFigures.Probe p : capacity.probes()) {
      List<RequestRecord> sent = records.stream().filter(r -> r.level().equals(p.level())).toList();
      assertEquals(p.requests(), sent.size(), "the probe's requests: " + p);
      for (RequestRecord r : sent) {
        assertTrue(
            r.origin().sentMs() >= r.origin().traceMs() - 1, "sent before its arrival: " + r);
      }
    }
  }

  /**
   * An open model without {@code -Dmax.conc}: no request waited for a slot (none carries a client
   * queue time, as vLLM's {@code client_queue_time}).
   */
  @Test
  void uncappedProbesHaveNoClientQueue() throws Exception {
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.size() > 0);
    assertTrue(
        records.stream().allMatch(r -> r.origin() == null || r.origin().clientQueueMs() == null),
        "no slot to wait for");
  }

  /** Goodput at the capacity, by vLLM's definition: requests within 400 ms TTFT each, a second. */
  @Test
  void theGoodputAtTheCapacityIsSaid() throws Exception {
    double goodput = capacity.requestGoodputAtCapacity();
    assertTrue(
        goodput > 0 && goodput <= capacity.requestThroughputAtCapacity() + 1e-9,
        capacity.toString());
    assertEquals("ttft:400", capacity.goodputObjectives());
    assertTrue(run.console().contains("Goodput:   at " + metLevel() + ", "), run.console());
    String page = Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(page.contains("Goodput at the capacity: "), "the goodput on the page");
  }
}
