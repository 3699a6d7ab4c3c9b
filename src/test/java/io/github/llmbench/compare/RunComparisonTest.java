package io.github.llmbench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.Change;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.cli.CompareMain;
import io.github.llmbench.compare.RunComparison.Cell;
import io.github.llmbench.compare.RunComparison.ComparedLevel;
import io.github.llmbench.compare.RunComparison.Row;
import io.github.llmbench.compare.RunComparison.Verdict;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.summary.Summary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two hand-written summaries compared; every expected figure worked out by hand. */
class RunComparisonTest {

  /** The baseline: c8 and c16 (and a warmup, left out). */
  static final String TP1 =
      """
      {"date": "20250101-120000", "backend": "openai-chat", "model_id": "Qwen/Qwen2.5-7B-Instruct",
       "base_url": "http://gpu1:8000", "dataset": "random 1024/128", "seed": 42,
       "output_throughput": 300.0,
       "levels": {
         "warmup": {"output_throughput": 1.0},
         "c16": {"max_concurrency": 16, "request_throughput": 3.0, "output_throughput": 400.0,
           "mean_ttft_ms": 200.0, "median_ttft_ms": 100.0, "p99_ttft_ms": 300.0,
           "mean_tpot_ms": 25.0, "p99_tpot_ms": 40.0, "mean_itl_ms": 25.0, "p99_itl_ms": 50.0,
           "mean_e2el_ms": 3375.0, "p99_e2el_ms": 4000.0, "failed": 0,
           "steady_state": {"reached": true, "output_throughput": 410.0}},
         "c8": {"max_concurrency": 8, "request_throughput": 2.0, "output_throughput": 256.0,
           "mean_ttft_ms": 100.0, "median_ttft_ms": 90.0, "p99_ttft_ms": 200.0,
           "mean_tpot_ms": 20.0, "p99_tpot_ms": 30.0, "mean_itl_ms": 20.0, "p99_itl_ms": 40.0,
           "mean_e2el_ms": 2640.0, "p99_e2el_ms": 3000.0, "failed": 0,
           "steady_state": {"reached": true, "output_throughput": 250.0}}
       }}
      """;

  /** c16 and c32 (no c8); its c16 never reached a steady state and has no P99 ITL. */
  static final String TP2 =
      """
      {"date": "20250102-120000", "model_id": "Qwen/Qwen2.5-7B-Instruct",
       "base_url": "http://gpu2:8000", "seed": "7",
       "output_throughput": 500.0,
       "levels": {
         "c32": {"max_concurrency": 32, "request_throughput": 5.0, "output_throughput": 700.0,
           "mean_ttft_ms": 250.0, "median_ttft_ms": 200.0, "p99_ttft_ms": 600.0,
           "mean_tpot_ms": 30.0, "p99_tpot_ms": 45.0, "mean_itl_ms": 30.0, "p99_itl_ms": 60.0,
           "mean_e2el_ms": 4060.0, "p99_e2el_ms": 5000.0, "failed": 1,
           "steady_state": {"reached": true, "output_throughput": 690.0}},
         "c16": {"max_concurrency": 16, "request_throughput": 4.5, "output_throughput": 600.0,
           "mean_ttft_ms": 150.0, "median_ttft_ms": 100.5, "p99_ttft_ms": 450.0,
           "mean_tpot_ms": 20.0, "p99_tpot_ms": 40.0, "mean_itl_ms": 20.0, "p99_itl_ms": null,
           "mean_e2el_ms": "NaN", "p99_e2el_ms": 3000.0, "failed": 2,
           "steady_state": {"reached": false, "output_throughput": 0.0}}
       }}
      """;

  static RunComparison compare() throws Exception {
    return RunComparison.of(
        List.of(
            new RunComparison.Input("tp1", Summary.parse(TP1)),
            new RunComparison.Input("tp2", Summary.parse(TP2))));
  }

  /** A c8 level with one trial per P99 TPOT given (and a fixed throughput). */
  private static Summary withTrials(double... p99Tpot) throws Exception {
    StringBuilder trials = new StringBuilder();
    for (int t = 0; t < p99Tpot.length; t++) {
      trials
          .append(t == 0 ? "" : ",")
          .append("{\"trial\": ")
          .append(t + 1)
          .append(", \"completed\": 50, \"output_throughput\": 400.0, \"p99_tpot_ms\": ")
          .append(p99Tpot[t])
          .append("}");
    }
    return Summary.parse(
        "{\"levels\": {\"c8\": {\"max_concurrency\": 8, \"completed\": 150,"
            + " \"output_throughput\": 400.0, \"p99_tpot_ms\": "
            + p99Tpot[0]
            + ", \"trials\": ["
            + trials
            + "]}}}");
  }

  @Test
  void withTrialsAVerdictRestsOnTheDataNotOnOnePercent() throws Exception {
    Summary base = withTrials(20.0, 20.6, 19.5, 20.2, 19.8);
    RunComparison c =
        RunComparison.of(
            List.of(
                new RunComparison.Input("a", base),
                new RunComparison.Input("slower", withTrials(23.0, 23.5, 22.4, 23.1, 22.8)),
                new RunComparison.Input("noisy", withTrials(18.0, 24.0, 21.0, 17.5, 25.0))));
    Row p99 = c.level("c8").row("p99_tpot_ms");
    assertNull(p99.cells().get(0).test(), "the baseline is not compared with itself");
    Cell slower = p99.cells().get(1);
    assertEquals(Verdict.WORSE, slower.verdict());
    assertEquals(Interval.Basis.TRIALS, slower.test().ratio().basis());
    assertTrue(slower.test().ratio().low() > 1.05, slower.test().toString());
    Cell noisy = p99.cells().get(2);
    assertEquals(Change.NO_DETECTABLE_DIFFERENCE, noisy.test().change(), noisy.test().toString());
    assertEquals(Verdict.SAME, noisy.verdict(), "no detectable difference is not coloured");
    assertTrue(noisy.test().minimumDetectableRatio() > 1.1, noisy.test().toString());
    String text = CompareMain.consoleText(c);
    assertTrue(text.contains("[2] P99 TPOT"), text);
    assertTrue(
        text.matches("(?s).*\\[3] P99 TPOT +1\\.0\\d\\d \\[.*no detectable difference.*"), text);
    // a figure given in every trial but equal everywhere: no spread, an exact ratio
    assertEquals(
        1.0,
        c.level("c8").row("output_throughput").cells().get(1).test().ratio().estimate(),
        1e-12);
  }

  @Test
  void aOneTrialSideGetsNoVerdictAndSaysWhy() {
    assertEquals(
        "one run a side: run-to-run noise unknown; -Dtrials=N, or --history DIR of runs kept with"
            + " -Dhistory",
        RunComparison.noVerdict(1, 1));
    assertTrue(
        RunComparison.noVerdict(1, 5).startsWith("the bases differ: 1 trial against 5"),
        RunComparison.noVerdict(1, 5));
  }

  @Test
  void aHistoryJudgesEachPairOfItsKeyWithItsEarlierRunsNoise(@TempDir Path dir) throws Exception {
    // the history holds the compared runs too (by their folders' names): left out of the noise
    Path h = CompareHistoryFixtures.history(dir, 12, "run-a", 20.0, "run-b", 24.0);
    Summary a = CompareHistoryFixtures.summary(CompareHistoryFixtures.settings(64), 20.0);
    Summary b = CompareHistoryFixtures.summary(CompareHistoryFixtures.settings(64), 24.0);
    Summary other = CompareHistoryFixtures.summary(CompareHistoryFixtures.settings(128), 24.0);
    CompareHistory history =
        CompareHistory.of(
            "h",
            HistoryFile.read(h),
            List.of(
                new CompareHistory.Run("run-a", a),
                new CompareHistory.Run("run-b", b),
                new CompareHistory.Run("run-c", other)));
    assertTrue(history.keys().get(0).fromLine() && history.keys().get(1).fromLine());
    assertFalse(history.keys().get(2).fromLine(), "run-c is not in the history");
    RunComparison c =
        RunComparison.of(
            List.of(
                new RunComparison.Input("a", a),
                new RunComparison.Input("b", b),
                new RunComparison.Input("c", other)),
            history);
    Row tpot = c.level("c8").row("mean_tpot_ms");
    Cell slower = tpot.cells().get(1);
    assertEquals(Verdict.WORSE, slower.verdict());
    assertEquals(Noise.Source.HISTORY, slower.noise().source());
    assertEquals(12, slower.noise().runs(), "the two compared runs left out");
    assertEquals(11.0, slower.noise().df(), 1e-12, "single-trial runs: runs - 1");
    assertNull(slower.noVerdict());
    // another key: as without a history, and why
    Cell otherKey = tpot.cells().get(2);
    assertNull(otherKey.verdict());
    assertNull(otherKey.noise());
    assertTrue(otherKey.noVerdict().contains("keys differ"), otherKey.noVerdict());
    assertTrue(
        otherKey.noVerdict().endsWith(": output.len), the history gives this pair no noise"));
    // without the history, the same pair gets no verdict
    Cell without =
        RunComparison.of(List.of(new RunComparison.Input("a", a), new RunComparison.Input("b", b)))
            .level("c8")
            .row("mean_tpot_ms")
            .cells()
            .get(1);
    assertNull(without.verdict());
    assertEquals(RunComparison.ONE_RUN_A_SIDE, without.noVerdict());
  }

  @Test
  void levelsInLadderOrderWithMissingOnes() throws Exception {
    RunComparison c = compare();
    assertEquals(
        List.of("c8", "c16", "c32"), c.levels().stream().map(ComparedLevel::name).toList());
    assertEquals(8, c.level("c8").concurrency());
    assertEquals(32, c.level("c32").concurrency());
    assertEquals(List.of(true, false), c.level("c8").present());
    assertEquals(List.of(true, true), c.level("c16").present());
    assertEquals(List.of(false, true), c.level("c32").present());
    assertNull(c.level("warmup"));
    assertEquals(RunComparison.METRICS.size(), c.level("c16").rows().size());
  }

  @Test
  void valuesRatiosAndVerdictsAgainstTheBaseline() throws Exception {
    ComparedLevel c16 = compare().level("c16");
    // higher throughput is better: 600 / 400 = 1.5
    assertCells(c16, "output_throughput", 400.0, 600.0, 1.5, Verdict.BETTER);
    assertCells(c16, "request_throughput", 3.0, 4.5, 1.5, Verdict.BETTER);
    // lower latency is better: 20 / 25 = 0.8; 150 / 200 = 0.75; 450 / 300 = 1.5 worse
    assertCells(c16, "mean_tpot_ms", 25.0, 20.0, 0.8, Verdict.BETTER);
    assertCells(c16, "mean_ttft_ms", 200.0, 150.0, 0.75, Verdict.BETTER);
    assertCells(c16, "p99_ttft_ms", 300.0, 450.0, 1.5, Verdict.WORSE);
    assertCells(c16, "mean_itl_ms", 25.0, 20.0, 0.8, Verdict.BETTER);
    assertCells(c16, "p99_e2el_ms", 4000.0, 3000.0, 0.75, Verdict.BETTER);
    // equal, and within 1%: the same
    assertCells(c16, "p99_tpot_ms", 40.0, 40.0, 1.0, Verdict.SAME);
    assertCells(c16, "median_ttft_ms", 100.0, 100.5, 1.005, Verdict.SAME);
    // 2 failures against none: worse, no finite ratio
    assertCells(c16, "failed", 0.0, 2.0, null, Verdict.WORSE);
    // missing, never zero: a null field, a NaN, a steady state never reached
    assertCells(c16, "p99_itl_ms", 50.0, null, null, null);
    assertCells(c16, "mean_e2el_ms", 3375.0, null, null, null);
    assertCells(c16, "steady_output_throughput", 410.0, null, null, null);
    // the baseline's own ratio is 1
    assertEquals(1.0, c16.row("output_throughput").cells().get(0).ratio());
    assertEquals(Verdict.SAME, c16.row("output_throughput").cells().get(0).verdict());
  }

  @Test
  void aLevelMissingInOneRunIsMissingNotZero() throws Exception {
    RunComparison c = compare();
    ComparedLevel c8 = c.level("c8");
    assertCells(c8, "output_throughput", 256.0, null, null, null);
    assertCells(c8, "failed", 0.0, null, null, null);
    assertCells(c8, "steady_output_throughput", 250.0, null, null, null);
    ComparedLevel c32 = c.level("c32");
    assertCells(c32, "output_throughput", null, 700.0, null, null);
    assertNull(c32.row("failed").cells().get(0).value());
    assertEquals(1.0, c32.row("failed").cells().get(1).value());
  }

  @Test
  void runMetadata() throws Exception {
    RunComparison c = compare();
    RunComparison.ComparedRun tp1 = c.runs().get(0);
    assertEquals("tp1", tp1.label());
    assertEquals("Qwen/Qwen2.5-7B-Instruct", tp1.model());
    assertEquals("http://gpu1:8000", tp1.baseUrl());
    assertEquals("random 1024/128", tp1.dataset());
    assertEquals("20250101-120000", tp1.date());
    assertEquals("42", tp1.seed());
    assertEquals(List.of("c16", "c8"), tp1.levels());
    RunComparison.ComparedRun tp2 = c.runs().get(1);
    assertNull(tp2.dataset());
    assertEquals("7", tp2.seed());
  }

  @Test
  void aSummaryWithoutLevelsIsOneLevel() throws Exception {
    Summary old =
        Summary.parse(
            """
        {"max_concurrency": 16, "output_throughput": 500.0, "mean_tpot_ms": 20.0}
        """);
    RunComparison c =
        RunComparison.of(
            List.of(
                new RunComparison.Input("old", old),
                new RunComparison.Input("tp1", Summary.parse(TP1))));
    assertEquals(List.of("c8", "c16"), c.levels().stream().map(ComparedLevel::name).toList());
    assertCells(c.level("c16"), "output_throughput", 500.0, 400.0, 0.8, Verdict.WORSE);
    assertCells(c.level("c16"), "mean_tpot_ms", 20.0, 25.0, 1.25, Verdict.WORSE);
  }

  @Test
  void levelsWithoutConcurrencyComeLastInTheOrderMet() throws Exception {
    Summary open =
        Summary.parse(
            """
        {"levels": {"r8": {"output_throughput": 1.0}, "r2": {"output_throughput": 2.0},
                    "c4": {"output_throughput": 3.0}}}
        """);
    RunComparison c =
        RunComparison.of(
            List.of(
                new RunComparison.Input("a", open),
                new RunComparison.Input("b", Summary.parse(TP1))));
    assertEquals(
        List.of("c4", "c8", "c16", "r8", "r2"),
        c.levels().stream().map(ComparedLevel::name).toList());
    assertNull(c.level("r8").concurrency());
    assertEquals(4, c.level("c4").concurrency());
  }

  @Test
  void aTitleStatesTheConcurrencyOnlyWhereTheNameDoesNot() throws Exception {
    Summary capped =
        Summary.parse(
            """
        {"levels": {"r8": {"max_concurrency": 4, "output_throughput": 1.0}, "c4": {"max_concurrency": 4, "output_throughput": 3.0},
                    "feeder": {"output_throughput": 2.0}}}
        """);
    RunComparison c = RunComparison.of(List.of(new RunComparison.Input("a", capped)));
    assertTrue(c.level("r8").concurrencyNotInName(), "an open level capped at 4");
    assertFalse(c.level("c4").concurrencyNotInName());
    assertFalse(c.level("feeder").concurrencyNotInName(), "no concurrency to state");
    String text = CompareMain.consoleText(c);
    assertTrue(text.contains(" r8 (concurrency 4) "), text);
    assertFalse(text.contains("c4 (concurrency"), text);
  }

  @Test
  void consoleTable() throws Exception {
    String text = CompareMain.consoleText(compare());
    assertTrue(
        text.contains(
            "  [1] tp1: model Qwen/Qwen2.5-7B-Instruct, base URL"
                + " http://gpu1:8000, dataset random 1024/128, date 20250101-120000, seed 42\n"),
        text);
    assertTrue(text.contains(" c16 ="), text);
    assertTrue(text.contains("(level c8 not in tp2)"), text);
    assertTrue(text.matches("(?s).*Metric +tp1 +tp2 +\\[2]/\\[1]\n.*"), text);
    assertTrue(
        text.matches(
            "(?s).*\nOutput token throughput \\(tok/s\\) +400\\.00 +600\\.00"
                + " +1\\.50x better\n.*"),
        text);
    assertTrue(
        text.matches("(?s).*\nP99 TTFT \\(ms\\) +300\\.00 +450\\.00 +1\\.50x worse\n.*"), text);
    assertTrue(text.matches("(?s).*\nFailed requests +0 +2 +- worse\n.*"), text);
    assertTrue(text.matches("(?s).*\nP99 ITL \\(ms\\) +50\\.00 +- +-\n.*"), text);
  }

  private static void assertCells(
      ComparedLevel l, String key, Double base, Double value, Double ratio, Verdict verdict) {
    List<Cell> cells = l.row(key).cells();
    assertEquals(base, cells.get(0).value(), l.name() + " " + key + " baseline");
    assertEquals(value, cells.get(1).value(), l.name() + " " + key + " value");
    if (ratio == null) {
      assertNull(cells.get(1).ratio(), l.name() + " " + key + " ratio");
    } else {
      assertEquals(ratio, cells.get(1).ratio(), 1e-12, l.name() + " " + key + " ratio");
    }
    assertEquals(verdict, cells.get(1).verdict(), l.name() + " " + key + " verdict");
  }
}
