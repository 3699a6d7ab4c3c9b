package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job end to end: the shipped simulation against the embedded simulator. */
class ServingBenchmarkIT {

  @Test
  void recordsSummaryAndReportAgree(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "conc", "8",
                "duration", "4",
                "input.len", "256",
                "output.len", "24",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "itl.records", "true"));
    assertEquals(0, run.exitCode());

    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.size() >= 8, "requests: " + records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals("c8", r.level());
      assertEquals(24, r.outputTokens());
      assertEquals(false, r.outputTokensEstimated());
      assertEquals(23, r.itlMs().size());
      // E2EL = TTFT + (n - 1) x TPOT within 1 ms
      assertEquals(r.e2elMs(), r.ttftMs() + (r.outputTokens() - 1) * r.tpotMs(), 1.0);
      // whole µs on both sides: the ITLs add up to E2EL - TTFT (up to double rounding)
      assertEquals(r.e2elMs() - r.ttftMs(), r.itlMs().stream().mapToDouble(Double::doubleValue).sum(), 1e-6);
      // ~256 prompt tokens plus the chat template, counted by the server
      assertTrue(r.inputTokens() > 230 && r.inputTokens() < 300, "input tokens " + r.inputTokens());
    }

    JsonNode summary = new ObjectMapper().readTree(run.llm("summary.json").toFile());
    assertEquals(records.size(), summary.get("completed").asInt());
    assertEquals(0, summary.get("failed").asInt());
    assertEquals(24L * records.size(), summary.get("total_output_tokens").asLong());
    assertEquals(
        records.stream().mapToLong(RequestRecord::inputTokens).sum(), summary.get("total_input_tokens").asLong());
    assertTrue(summary.get("max_concurrent_requests").asInt() <= 8);
    assertTrue(summary.get("mean_ttft_ms").asDouble() > 0);

    // Gatling's own report lists our records, inside the level's group
    // Gatling's own report lists our records, inside the level's group, with non-zero counts
    String index = Files.readString(run.runDir().resolve("index.html"));
    // ITL too, asked with -Ditl.records=true (off by default: it costs CPU per chunk)
    for (String name : List.of("request", "TTFT", "TPOT", "ITL", "E2EL")) {
      Matcher m =
          Pattern.compile(
                  "stats-table-req_c8---" + name.toLowerCase(Locale.ROOT)
                      + "-[-0-9]+\" class=\"ellipsed-name\">" + name
                      + "</span>[\\s\\S]*?col-2\">([0-9,]+)<")
              .matcher(index);
      assertTrue(m.find(), "c8 / " + name + " missing from the report's statistics table");
      assertTrue(Long.parseLong(m.group(1).replace(",", "")) > 0, name + " count");
    }
  }
}
