package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.CsvFeederSimulation;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own scenario with Gatling's csv feeder and {@code bench.stream()}, against the embedded
 * simulator.
 */
class CsvFeederIT {

  @Test
  void eachCsvLineIsOneStreamedRequestWithTheKitsRecordsAndBlocks(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            CsvFeederSimulation.class,
            results,
            Map.of("sim.model", "sim-tiny", "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.size() >= 8, "2 users for 6 s: " + records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals("feeder", r.level(), "the scenario's name, outside any group");
      assertTrue(
          Set.of(24, 32, 16, 12).contains(r.outputTokens()), "max_tokens from the CSV line: " + r);
    }
    assertTrue(
        records.stream().map(RequestRecord::outputTokens).distinct().count() == 4,
        "every line of the CSV was sent");
    assertTrue(run.console().contains("Serving Benchmark Result"), run.console());
    Summary summary = TestReports.summary(run.runDir());
    assertEquals(
        records.size(),
        summary.levels().get("feeder").figures().completed(),
        summary.levels().toString());
  }
}
