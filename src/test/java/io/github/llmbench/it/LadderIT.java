package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A two-level ladder stopped by request counts, after a warmup, as one run. */
class LadderIT {

  @Test
  void exactCountsPerLevelDrainedInOrderWarmupLeftOut(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "ladder", "2,4",
                "prompts", "6,10",
                "warmup.prompts", "3",
                "warmup.conc", "3",
                "input.len", "64",
                "output.len", "8",
                "seed", "11",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.stream().allMatch(RequestRecord::ok), records.toString());
    List<RequestRecord> warmup = records.stream().filter(r -> r.level().equals("warmup")).toList();
    List<RequestRecord> c2 = records.stream().filter(r -> r.level().equals("c2")).toList();
    List<RequestRecord> c4 = records.stream().filter(r -> r.level().equals("c4")).toList();
    assertEquals(3, warmup.size());
    assertEquals(6, c2.size());
    assertEquals(10, c4.size());
    assertEquals(19, records.size());
    // each phase drained before the next started: no level's requests under another
    assertTrue(last(warmup) <= first(c2), "warmup overlaps c2");
    assertTrue(last(c2) <= first(c4), "c2 overlaps c4");
    // at most N in flight within a level
    assertTrue(peak(c2) <= 2, "c2 peak " + peak(c2));
    assertTrue(peak(c4) <= 4, "c4 peak " + peak(c4));

    JsonNode summary = new ObjectMapper().readTree(run.llm("summary.json").toFile());
    assertEquals(16, summary.get("completed").asInt(), "warmup requests are not in the summary");
    assertEquals(3, summary.get("warmup_requests").asInt());
    assertEquals(11, summary.get("seed").asLong());
    assertEquals("random", summary.get("dataset").asText());
    assertEquals(List.of("c2", "c4"), iterable(summary.get("levels")));
    assertEquals(6, summary.get("levels").get("c2").get("completed").asInt());
    assertEquals(2, summary.get("levels").get("c2").get("max_concurrency").asInt());
    assertFalse(summary.get("levels").has("warmup"));
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

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
