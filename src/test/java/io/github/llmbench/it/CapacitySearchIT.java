package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dsearch=conc}: one command brackets the capacity at an objective on the embedded
 * simulator, within its budget; a plain ladder over the two bracketing levels agrees (within the
 * noise of a short level); a capacity gate above the capacity fails.
 */
class CapacitySearchIT {
  private static final double TTFT_MEAN_MS = 150; // TTFT grows steeply with concurrency here: levels far apart

  @Test
  void theSearchBracketsTheCapacityAPlainLadderAgreesAndItsGateFails(@TempDir Path dir) throws Exception {
    Map<String, String> common = Map.of("input.len", "256", "output.len", "64", "duration", "6", "seed", "5", "metrics.interval", "0");
    Map<String, String> search = new java.util.HashMap<>(common);
    search.putAll(Map.of("search", "conc", "slo", "ttft.mean:" + TTFT_MEAN_MS, "search.min", "4", "search.max", "64",
        "search.precision", "0.2", "search.budget", "3", "gate.capacity.min", "64"));
    long start = System.currentTimeMillis();
    GatlingRun.Result run = GatlingRun.run(ServingBenchmarkSimulation.class, dir.resolve("search"), search);
    assertTrue(System.currentTimeMillis() - start < 210_000, "within the 3-minute budget (and Gatling's start and end)");
    assertEquals(0, run.exitCode(), run.console());
    JsonNode capacity = new ObjectMapper().readTree(run.llm("summary.json").toFile()).path("capacity");
    assertEquals("bracketed", capacity.path("status").asText(), capacity.toString());
    int met = capacity.path("capacity").asInt();
    int broke = capacity.path("lowest_broken").asInt();
    assertTrue(broke > met && (broke - met <= 0.2 * met || broke - met == 1), "within the precision: " + capacity);
    assertTrue(run.console().contains("Capacity:  c" + met + " meets every objective; c" + broke + " broke ttft.mean"), run.console());
    assertTrue(run.console().contains("FAIL search   capacity.min"), "the capacity is below 64: " + run.console());
    assertTrue(run.console().matches("(?s).*Probes: +c4 met \\(\\d+ requests\\), c8 met.*"), run.console());
    assertTrue(capacity.path("probes").get(0).path("requests").asInt() > 0, capacity.toString());
    assertTrue(Files.readString(run.llm("gates.xml")).contains("capacity.min"));
    // llm.html: the answer first, one chart per objective drawn (with the ladder's 3, in flight, tokens, roofline, server)
    String page = Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(page.contains("Capacity at SLO: c" + met + " meets every objective"), "the answer on the page");
    io.github.llmbench.testing.Chromium.assertChartsDrawn(io.github.llmbench.testing.Chromium.open(run.runDir().resolve("llm.html")), 7);

    // the two bracketing levels re-run as a plain ladder: the same verdicts (within 10% of the
    // objective: a few seconds of a level is a noisy sample)
    Map<String, String> ladder = new java.util.HashMap<>(common);
    ladder.put("ladder", met + "," + broke);
    // a warmup: the search's bracketing probes came after others, on a warm client and simulator
    ladder.put("warmup.prompts", "64");
    ladder.put("warmup.conc", "16");
    GatlingRun.Result plain = GatlingRun.run(ServingBenchmarkSimulation.class, dir.resolve("ladder"), ladder);
    assertEquals(0, plain.exitCode(), plain.console());
    JsonNode levels = new ObjectMapper().readTree(plain.llm("summary.json").toFile()).path("levels");
    double atMet = levels.path("c" + met).path("steady_state").path("mean_ttft_ms").asDouble();
    double atBroke = levels.path("c" + broke).path("steady_state").path("mean_ttft_ms").asDouble();
    System.out.printf(java.util.Locale.ROOT, "search: c%d met, c%d broke; ladder: c%d %.1f ms, c%d %.1f ms (objective %.0f ms)%n",
        met, broke, met, atMet, broke, atBroke, TTFT_MEAN_MS);
    assertTrue(atMet <= TTFT_MEAN_MS * 1.10, "c" + met + " meets it again: " + atMet);
    assertTrue(atBroke > TTFT_MEAN_MS * 0.90, "c" + broke + " breaks it again: " + atBroke);

  }
}
