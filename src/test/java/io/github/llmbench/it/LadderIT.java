package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.Chromium;
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
                "ladder", "2,3,4",
                "prompts", "6,8,10",
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
    List<RequestRecord> c3 = records.stream().filter(r -> r.level().equals("c3")).toList();
    List<RequestRecord> c4 = records.stream().filter(r -> r.level().equals("c4")).toList();
    assertEquals(3, warmup.size());
    assertEquals(6, c2.size());
    assertEquals(8, c3.size());
    assertEquals(10, c4.size());
    assertEquals(27, records.size());
    // each phase drained before the next started: no level's requests under another
    assertTrue(last(warmup) <= first(c2), "warmup overlaps c2");
    assertTrue(last(c2) <= first(c3), "c2 overlaps c3");
    assertTrue(last(c3) <= first(c4), "c3 overlaps c4");
    // at most N in flight within a level
    assertTrue(peak(c2) <= 2, "c2 peak " + peak(c2));
    assertTrue(peak(c4) <= 4, "c4 peak " + peak(c4));

    JsonNode summary = new ObjectMapper().readTree(run.llm("summary.json").toFile());
    assertEquals(24, summary.get("completed").asInt(), "warmup requests are not in the summary");
    assertEquals(3, summary.get("warmup_requests").asInt());
    assertEquals(11, summary.get("seed").asLong());
    assertEquals("random", summary.get("dataset").asText());
    assertEquals(List.of("c2", "c3", "c4"), iterable(summary.get("levels")));
    assertEquals(6, summary.get("levels").get("c2").get("completed").asInt());
    assertEquals(2, summary.get("levels").get("c2").get("max_concurrency").asInt());
    assertFalse(summary.get("levels").has("warmup"));

    // steady state, roofline and knee: in the console, in summary.json and on the linked page
    for (String level : List.of("c2", "c3", "c4")) {
      JsonNode l = summary.get("levels").get(level);
      assertTrue(l.has("steady_state") && l.has("roofline"), level + ": " + l);
      assertTrue(run.console().contains("Serving Benchmark Result (" + level + ")"), "block of " + level);
    }
    assertTrue(summary.has("knee"));
    assertTrue(run.console().contains("Steady-State Metrics"), "steady-state block in the console");
    assertTrue(run.console().contains("Ladder (output throughput basis"), "ladder verdicts in the console");
    double steadyC4 = summary.get("levels").get("c4").get("steady_state").get("output_throughput").asDouble();
    String page = java.nio.file.Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(java.nio.file.Files.readString(run.runDir().resolve("index.html")).contains("llm.html"), "menu link");
    Chromium.Dump dump = Chromium.open(run.runDir().resolve("llm.html"));
    // 3 against concurrency, in flight, tokens, the roofline, and the simulator's running/waiting/KV
    Chromium.assertChartsDrawn(dump, 7);
    assertTrue(page.contains("<div id=\"llm-server\""), "the simulator's /metrics read");
    assertTrue(page.contains(String.format(java.util.Locale.ROOT, "%.2f", steadyC4)), "page and summary.json agree on c4's steady output throughput " + steadyC4);
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
