package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.DeliveredFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open model: arrivals at a rate, a fixed count, at most max.conc in flight, from a dataset file.
 * An uncapped open model has no slot to wait for: {@link RateSearchIT}'s probes (this class ran the
 * same arrivals uncapped again, and bounded how late they were sent, which failed on a busy
 * machine).
 */
class OpenModelIT {

  @Test
  void arrivalsAtARateFromADatasetFile(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "rate", "40",
                "prompts", "40",
                "max.conc", "3",
                "dataset", "file:prompts/example.jsonl",
                "output.len", "6",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(40, records.size());
    assertTrue(
        records.stream().allMatch(r -> r.ok() && r.level().equals("r40")), records.toString());
    // max_tokens of the file where given (64, 48), else output.len
    assertTrue(records.stream().anyMatch(r -> r.outputTokens() == 64));
    assertTrue(records.stream().anyMatch(r -> r.outputTokens() == 6));
    for (RequestRecord r : records) {
      long inFlight =
          records.stream()
              .filter(o -> o.startMs() <= r.startMs() && r.startMs() < o.endMs())
              .count();
      assertTrue(inFlight <= 3, "max.conc exceeded: " + inFlight);
    }
  }

  @Test
  void aCappedClientFallsBehindItsArrivalsAndSaysSo(@TempDir Path results) throws Exception {
    // 40 arrivals in about a second, one request in flight at a time, each ~64 tokens long: the
    // sends fall seconds behind their arrivals
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "rate", "40",
                "prompts", "40",
                "max.conc", "1",
                "input.len", "16",
                "output.len", "64",
                "seed", "3",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode());
    DeliveredFigures d = TestReports.summary(run.runDir()).levels().get("r40").deliveredLoad();
    assertEquals("open", d.model());
    assertTrue(d.deliveredPct() < 50, d.toString());
    assertTrue(d.sendLatenessP99Ms() > 1000, d.toString());
    double e2elP99 =
        TestReports.summary(run.runDir())
            .levels()
            .get("r40")
            .figures()
            .latency(LatencyFigure.of(Metric.E2EL, Statistic.P99));
    assertTrue(d.e2elWithWaitP99Ms() > e2elP99 + 1000, d + " against E2EL p99 " + e2elP99);
    assertTrue(run.console().contains("(coordinated omission)"), run.console());
    // each request's own wait for the slot, as vLLM's client_queue_time
    List<RequestRecord> capped = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(capped.stream().allMatch(r -> r.origin().clientQueueMs() != null), "every one");
    assertTrue(d.clientQueueP99Ms() > 1000, d.toString());
    assertTrue(run.console().contains("client queue (-Dmax.conc"), run.console());
  }
}
