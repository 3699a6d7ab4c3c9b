package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open model: arrivals at a rate, a fixed count, at most max.conc in flight, from a dataset file.
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
}
