package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RampFigures;
import io.github.llmbench.summary.ServerLevelFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads shaped as AIPerf, GuideLLM and inference-perf shape them, against the embedded
 * simulator, judged by what the server counted: a normal length distribution, prefix groups whose
 * hit rate a perfect cache would get, cancelled requests, and rate and concurrency ramps.
 */
class WorkloadShapesIT {

  @Test
  void aNormalInputDistributionReachesTheServerWithItsMeanAndStdev(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            onTinySim(
                Map.of(
                    "api", "completions",
                    "conc", "64",
                    "prompts", "500",
                    "input.len", "512",
                    "input.stdev", "128",
                    "output.len", "2",
                    "seed", "3",
                    "metrics.interval", "0")));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(500, records.size());
    // the server's own count of each prompt (usage.prompt_tokens): completions add no template
    double[] in = records.stream().mapToDouble(r -> r.inputTokens()).toArray();
    double mean = java.util.Arrays.stream(in).average().orElse(0);
    double var =
        java.util.Arrays.stream(in).map(x -> (x - mean) * (x - mean)).sum() / (in.length - 1);
    assertEquals(512, mean, 512 * 0.05, "mean of the server-counted lengths");
    assertEquals(128, Math.sqrt(var), 128 * 0.05, "stdev of the server-counted lengths");
    assertTrue(records.stream().allMatch(r -> r.outputTokens() == 2), "outputs stay fixed");
    assertTrue(
        run.console().contains("distribution input normal, mean 512, stdev 128: drawn mean"),
        run.console());
    Map<String, String> checks = TestReports.summary(run.runDir()).run().serverChecks();
    assertTrue(checks.get("distribution").contains("(the first 500 requests)"), checks.toString());
  }

  @Test
  void fourPrefixGroupsGetThePredictedHitRateOnTheSimulator(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            onTinySim(
                Map.of(
                    "api", "completions",
                    "conc", "4",
                    "prompts", "80",
                    "prefix.len", "500",
                    "prefix.groups", "4",
                    "input.len", "100",
                    "output.len", "4",
                    "metrics.interval", "0.25")));
    assertEquals(0, run.exitCode(), run.console());
    assertTrue(
        run.console()
            .contains(
                "4 prefixes of 500 tokens, taken in turn: a perfect prefix cache"
                    + " serves 83.3% of the prompt tokens"),
        run.console());
    ServerLevelFigures level = TestReports.summary(run.runDir()).levels().get("c4").server();
    double ideal = level.levelFigure(ServerFigures.IDEAL_HIT_RATE);
    // 76 of 80 requests hit 500 of their 600 tokens
    assertEquals(500.0 * 76 / (80 * 600), ideal, 1e-9, level.toString());
    double measured = level.levelFigure(CommonServerFigures.PREFIX_CACHE_HIT_RATE);
    assertEquals(ideal, measured, 0.05, "the server's hit rate within 5 points: " + level);
    assertTrue(run.console().contains("client prefix_cache_hit_rate: what a perfect prefix cache"));
  }

  @Test
  void tenPercentCancelledAreCountedApartAndTheServerStopsTheirWork(@TempDir Path results)
      throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            onTinySim(
                Map.of(
                    "conc", "10",
                    "prompts", "100",
                    "input.len", "32",
                    "output.len", "400",
                    "cancel.pct", "10",
                    "cancel.after", "0.3",
                    "seed", "11",
                    "metrics.interval", "0.25")));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(100, records.size());
    List<RequestRecord> cancelled = records.stream().filter(RequestRecord::cancelled).toList();
    long completed = records.stream().filter(RequestRecord::ok).count();
    assertTrue(
        cancelled.size() >= 4 && cancelled.size() <= 18, "about 10 of 100: " + cancelled.size());
    assertEquals(100, completed + cancelled.size(), "no other request failed");
    // each cut once its answer was under way (the server's 200 had come), and not before its 0.3 s
    // (cancel.after): a busy machine only delays the cut, so no upper bound (300 ms within 60
    // failed there); the server's side below says the answers stopped short
    for (RequestRecord r : cancelled) {
      assertEquals(200, r.httpStatus(), r.toString());
      assertTrue(r.endMs() - r.startMs() >= 300, "cut before cancel.after's 300 ms: " + r);
    }
    LevelSummary level = TestReports.summary(run.runDir()).levels().get("c10");
    assertEquals(cancelled.size(), level.figures().cancelled(), level.toString());
    assertEquals(0, level.figures().failed());
    assertTrue(
        run.console().matches("(?s).*Cancelled requests:\\s+" + cancelled.size() + "\\s*\\n.*"),
        run.console());
    // the server's side: the cancelled requests stopped generating when their client went
    double generated = level.server().levelFigure(CommonServerFigures.GENERATION_TOKENS);
    assertTrue(
        generated < 400.0 * completed + 0.9 * 400 * cancelled.size(),
        "the server generated " + generated + " tokens for " + completed + " answers of 400");
    assertTrue(generated >= 400.0 * completed, "every completed answer: " + generated);
    // each request reached the server once: a cancel closes its connection, never resends it
    int promptTokens = records.stream().filter(RequestRecord::ok).findFirst().get().inputTokens();
    assertEquals(
        100.0 * promptTokens,
        level.server().levelFigure(CommonServerFigures.PROMPT_TOKENS),
        level.toString());
  }

  @Test
  void aRateRampSendsMoreAsItGrowsAndSaysWhereLatencyBroke(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            onTinySim(
                Map.of(
                    "ramp", "linear",
                    "ramp.start", "2",
                    "ramp.end", "30",
                    "duration", "8",
                    "input.len", "64",
                    "output.len", "128",
                    "sim.max_num_seqs", "2",
                    "seed", "5")));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.stream().allMatch(r -> r.level().equals("r2-30")), "one level, the ramp's");
    // (2 + 30) / 2 x 8 = 128 expected, 36 of them in the first half: 2.6 times as many in the
    // second (a constant rate: 1)
    assertTrue(records.size() > 90 && records.size() < 170, "requests: " + records.size());
    long first = records.stream().mapToLong(RequestRecord::startMs).min().getAsLong();
    long firstHalf = records.stream().filter(r -> r.startMs() - first < 4000).count();
    double ratio = (records.size() - firstHalf) / (double) firstHalf;
    assertTrue(ratio > 1.6, "sent in the second half over the first: " + ratio);

    LevelSummary level = TestReports.summary(run.runDir()).levels().get("r2-30");
    RampFigures ramp = level.ramp();
    assertEquals("linear", ramp.shape(), ramp.toString());
    assertEquals(8.0, ramp.durationS());
    assertTrue(ramp.broke(), ramp.toString());
    // two engine slots of about 190 ms each serve about 10 requests/s
    double brokeAt = ramp.brokeAtLoad();
    assertTrue(brokeAt > 5 && brokeAt < 20, "broke at " + brokeAt + " req/s: " + ramp);
    assertTrue(
        run.console().contains("Ramp linear 2 to 30 req/s: latency broke at "), run.console());
    assertTrue(
        Files.readString(run.runDir().resolve("llm.html")).contains("llm-chart-ramp-0"),
        "the ramp's chart");
    // the server's side: each arrival reached it once
    int promptTokens = records.get(0).inputTokens();
    assertEquals(
        (double) records.size() * promptTokens,
        level.server().levelFigure(CommonServerFigures.PROMPT_TOKENS),
        level.server().toString());
  }

  @Test
  void aConcurrencyRampGrowsTheRequestsTheServerRuns(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            onTinySim(
                Map.of(
                    "ramp", "exponential",
                    "ramp.conc", "1:16",
                    "duration", "6",
                    "input.len", "32",
                    "output.len", "64",
                    "metrics.interval", "0.25")));
    assertEquals(0, run.exitCode(), run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.stream().allMatch(r -> r.level().equals("c1-16exp")), "the ramp's level");
    // in flight by the client's records: a couple at first, up to the 16 at the end
    long first = records.stream().mapToLong(RequestRecord::startMs).min().getAsLong();
    assertTrue(inFlightMax(records, first, first + 1500) <= 3, "the first 1.5 s: 1 to 2 asked");
    int peak = inFlightMax(records, first, first + 6000);
    assertTrue(peak >= 12 && peak <= 16, "peak in flight " + peak);
    LevelSummary level = TestReports.summary(run.runDir()).levels().get("c1-16exp");
    // the server's side: it ran many at once near the ramp's end. Its count is sampled every
    // 0.25 s, and the ramp asks 12 or more only in its last 0.6 s (8 or more in its last 1.5 s),
    // so a sample may miss the peak: at least 8, far above the 1 or 2 it ran at the start
    double running = level.server().levelFigure(CommonServerFigures.RUNNING_MAX);
    assertTrue(running >= 8 && running <= 16, "the server ran at most " + running);
    List<RampFigures.Window> windows = level.ramp().windows();
    assertTrue(
        windows.get(0).asked() < windows.get(windows.size() - 1).asked(), windows.toString());
  }

  /** The most records of {@code records} in flight at once between two instants (epoch ms). */
  private static int inFlightMax(List<RequestRecord> records, long fromMs, long toMs) {
    int max = 0;
    for (RequestRecord at : records) {
      long t = at.startMs();
      if (t < fromMs || t > toMs) {
        continue;
      }
      int n = 0;
      for (RequestRecord r : records) {
        if (r.startMs() <= t && r.endMs() > t) {
          n++;
        }
      }
      max = Math.max(max, n);
    }
    return max;
  }

  /** A run's settings on the simulator's tiny model and an RTX 4090, as every run here. */
  private static Map<String, String> onTinySim(Map<String, String> own) {
    Map<String, String> all = new HashMap<>(own);
    all.put("sim.model", "sim-tiny");
    all.put("sim.gpu", "rtx4090");
    return all;
  }
}
