package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A hand-made run, every figure worked out by hand (times relative to T):
 *
 * <pre>
 * id  ok  start end   ttft itl            e2el tpot in   out        chunk arrivals (ms)
 * r1  yes 0     2000  400  [600,500,400]  1900 500  10   4          400 | 1000 1500 1900
 * r2  yes 200   1100  300  [300,100]      700  80   20   6 (3 chunks: weight 2) 500 800 900
 * r3  yes 1100  1350  250  []             250  null 30   1          1350
 * r4  NO  1000  3500  -    -              -    -    40   -          (failed)
 * r5  yes 2000  2950  500  [200,250]      950  225  null 3 (est.)   2500 2700 2950
 * </pre>
 *
 * Buckets from the earliest completed start (0): [0,1000): r1 1 + r2 3x2 = 7; [1000,2000): r1 3 +
 * r3 1 = 4; [2000,3000): r5 3. Peak 7 (unweighted chunk counting would give 4).
 *
 * <p>Intervals: r1 [0,2000) r2 [200,1100) r3 [1100,1350) r4 [1000,3500) r5 [2000,2950). In flight:
 * 3 during [1000,1350) (r1 r2 r4, then r1 r3 r4); counting touching ends (r2/r3 at 1100, r1/r5 at
 * 2000) would give 4; leaving out the failed r4 would give 2.
 */
public class ServingMetricsCalculatorTest {

  private static final long T = 1_700_000_000_000L;
  private static final double EPS = 1e-9;

  /** The run of the class comment; also used by the report tests. */
  public static List<RequestRecord> handMadeRun() {
    return List.of(
        TestRecords.ok("c4")
            .id("r1")
            .start(T)
            .end(T + 2000)
            .ttft(400)
            .itl(600, 500, 400)
            .e2el(1900)
            .tpot(500)
            .inputTokens(10)
            .outputTokens(4)
            .build(),
        TestRecords.ok("c4")
            .id("r2")
            .start(T + 200)
            .end(T + 1100)
            .ttft(300)
            .itl(300, 100)
            .e2el(700)
            .tpot(80)
            .inputTokens(20)
            .outputTokens(6)
            .build(),
        TestRecords.ok("c4")
            .id("r3")
            .start(T + 1100)
            .end(T + 1350)
            .ttft(250)
            .itl()
            .e2el(250)
            .tpot(null)
            .inputTokens(30)
            .outputTokens(1)
            .build(),
        TestRecords.failed("c4", "HTTP 500")
            .id("r4")
            .start(T + 1000)
            .end(T + 3500)
            .inputTokens(40)
            .status(500)
            .build(),
        TestRecords.ok("c4")
            .id("r5")
            .start(T + 2000)
            .end(T + 2950)
            .ttft(500)
            .itl(200, 250)
            .e2el(950)
            .tpot(225)
            .inputTokens(null)
            .outputTokens(3)
            .estimated(true)
            .build());
  }

  @Test
  void cancelledRequestsAreNeitherCompletedNorFailedAndCountedApart() {
    List<RequestRecord> run = new ArrayList<>(handMadeRun());
    RequestRecord cancelled =
        TestRecords.failed("c4", RequestRecord.CANCELLED + " after 0.300 s")
            .id("r6")
            .start(T + 100)
            .end(T + 400)
            .build();
    assertTrue(cancelled.cancelled());
    assertFalse(TestRecords.failed("c4", "HTTP 500").build().cancelled());
    run.add(cancelled);
    ServingMetrics m = ServingMetricsCalculator.compute(run, 4);
    ServingMetrics without = ServingMetricsCalculator.compute(handMadeRun(), 4);
    assertEquals(4, m.completed());
    assertEquals(1, m.failed());
    assertEquals(1, m.cancelled());
    assertEquals(0, without.cancelled());
    assertEquals(without.ttft(), m.ttft(), "left out of the latencies");
    assertEquals(1, FailureReasons.of(run, 5).failed(), "not a failure reason");
  }

  @Test
  void everyFigureOfTheHandMadeRun() {
    ServingMetrics m = ServingMetricsCalculator.compute(handMadeRun(), 4);

    assertEquals(4, m.completed());
    assertEquals(1, m.failed());
    assertEquals(4, m.maxConcurrency());
    assertEquals(3.5, m.durationS(), EPS); // 0 .. 3500 (the failed r4 ends last)
    assertEquals(60, m.totalInputTokens()); // 10 + 20 + 30 + null; failed r4's 40 not counted
    assertEquals(14, m.totalOutputTokens()); // 4 + 6 + 1 + 3
    assertEquals(4 / 3.5, m.requestThroughput(), EPS);
    assertEquals(4.0, m.outputThroughput(), EPS);
    assertEquals(74 / 3.5, m.totalTokenThroughput(), EPS);
    assertEquals(7.0, m.maxOutputTokensPerS(), EPS);
    assertEquals(3, m.maxConcurrentRequests());
    assertEquals(1, m.outputTokensEstimatedCount());
    assertEquals(List.of(99.0, 90.0), m.percentiles());

    // TTFT [250, 300, 400, 500]: mean 362.5, median 350, p90 h=2.7 -> 470, p99 h=2.97 -> 497
    // std: deviations -112.5 -62.5 37.5 137.5 -> squares sum 36875 -> sqrt(36875 / 4)
    assertStats(m.ttft(), 4, 362.5, 350.0, Math.sqrt(9218.75), 470.0, 497.0);
    // TPOT, r3 has none: [80, 225, 500]: mean 805/3, median 225, p90 h=1.8 -> 225 + 0.8 * 275,
    // p99 h=1.98 -> 225 + 0.98 * 275; std = sqrt(mean of squared deviations) = 174.1806...
    double tpotMean = 805.0 / 3;
    double tpotVar = (sq(80 - tpotMean) + sq(225 - tpotMean) + sq(500 - tpotMean)) / 3;
    assertStats(m.tpot(), 3, tpotMean, 225.0, Math.sqrt(tpotVar), 445.0, 494.5);
    assertEquals(174.1806214505187, m.tpot().std(), 1e-9); // numpy's value
    // ITL pooled [100, 200, 250, 300, 400, 500, 600]: mean 2350/7, median 300,
    // p90 h=5.4 -> 500 + 0.4 * 100 = 540, p99 h=5.94 -> 594; np.std = 161.9397721250662
    assertStats(m.itl(), 7, 2350.0 / 7, 300.0, 161.9397721250662, 540.0, 594.0);
    // E2EL [250, 700, 950, 1900]: mean 950, median 825, p90 h=2.7 -> 950 + 0.7 * 950 = 1615,
    // p99 h=2.97 -> 1871.5; std: squares 490000 62500 0 902500 -> sqrt(1455000 / 4)
    assertStats(m.e2el(), 4, 950.0, 825.0, Math.sqrt(363750.0), 1615.0, 1871.5);
  }

  @Test
  void peakBucketWeighsMultiTokenChunksAndUsesOneSecondBuckets() {
    List<RequestRecord> ok = new ArrayList<>(handMadeRun());
    ok.removeIf(r -> !r.ok());
    assertEquals(7.0, ServingMetricsCalculator.peakOutputTokensPerSecond(ok), EPS);
    // without r2's weight (6 tokens in 3 chunks -> 3 tokens in 3 chunks) bucket 0 holds 4 = bucket
    // 1
    ok.set(1, TestRecords.from(ok.get(1)).outputTokens(3).build());
    assertEquals(4.0, ServingMetricsCalculator.peakOutputTokensPerSecond(ok), EPS);
    // chunks at 500, 999, 1000: +1000 ms opens the second bucket, so 2 (3 if it fell in the first)
    List<RequestRecord> edge =
        List.of(
            TestRecords.ok("c4").start(T).ttft(500).itl(499, 1).e2el(1000).outputTokens(3).build());
    assertEquals(2.0, ServingMetricsCalculator.peakOutputTokensPerSecond(edge), EPS);
    // non-integer weight: 5 tokens over 2 chunks in the same second -> 5
    List<RequestRecord> frac =
        List.of(TestRecords.ok("c4").start(T).ttft(100).itl(500).e2el(600).outputTokens(5).build());
    assertEquals(5.0, ServingMetricsCalculator.peakOutputTokensPerSecond(frac), EPS);
  }

  @Test
  void peakConcurrencyIsExactWithHalfOpenIntervalsAndCountsFailures() {
    List<RequestRecord> all = handMadeRun();
    assertEquals(3, ServingMetricsCalculator.peakConcurrentRequests(all));
    List<RequestRecord> okOnly = new ArrayList<>(all);
    okOnly.removeIf(r -> !r.ok());
    assertEquals(2, ServingMetricsCalculator.peakConcurrentRequests(okOnly));
    // back-to-back requests never overlap
    List<RequestRecord> chain =
        List.of(
            TestRecords.failed("c4", "HTTP 500").start(T).end(T + 100).build(),
            TestRecords.failed("c4", "HTTP 500").start(T + 100).end(T + 200).build(),
            TestRecords.failed("c4", "HTTP 500").start(T + 200).end(T + 300).build());
    assertEquals(1, ServingMetricsCalculator.peakConcurrentRequests(chain));
    assertEquals(0, ServingMetricsCalculator.peakConcurrentRequests(List.of()));
  }

  @Test
  void emptyInputGivesZeros() {
    ServingMetrics m = ServingMetricsCalculator.compute(List.of(), null, List.of(99.0));
    assertEquals(0, m.completed());
    assertEquals(0, m.failed());
    assertNull(m.maxConcurrency());
    assertEquals(0.0, m.durationS(), 0.0);
    assertEquals(0.0, m.requestThroughput(), 0.0);
    assertEquals(0.0, m.maxOutputTokensPerS(), 0.0);
    assertEquals(0, m.maxConcurrentRequests());
    assertEquals(0.0, m.ttft().mean(), 0.0);
    assertEquals(0.0, m.itl().p99(), 0.0);
  }

  @Test
  void allFailedKeepsDurationAndZeroLatencies() {
    ServingMetrics m =
        ServingMetricsCalculator.compute(
            List.of(
                TestRecords.failed("c4", "HTTP 500").start(T).end(T + 2000).inputTokens(5).build(),
                TestRecords.failed("c4", "HTTP 500")
                    .start(T + 500)
                    .end(T + 1000)
                    .inputTokens(5)
                    .build()),
            2);
    assertEquals(0, m.completed());
    assertEquals(2, m.failed());
    assertEquals(2.0, m.durationS(), EPS);
    assertEquals(0, m.totalInputTokens());
    assertEquals(2, m.maxConcurrentRequests());
    assertEquals(0.0, m.maxOutputTokensPerS(), 0.0);
    assertEquals(0.0, m.e2el().median(), 0.0);
  }

  @Test
  void levelsGroupedInStartOrder() {
    List<RequestRecord> recs = new ArrayList<>();
    recs.add(
        TestRecords.ok("c16")
            .id("x")
            .start(T + 10_000)
            .end(T + 11_000)
            .ttft(100)
            .e2el(1000)
            .inputTokens(5)
            .outputTokens(1)
            .build());
    recs.add(
        TestRecords.ok("c8")
            .id("y")
            .start(T)
            .end(T + 2_000)
            .ttft(100)
            .e2el(2000)
            .inputTokens(5)
            .outputTokens(1)
            .build());
    recs.add(
        TestRecords.failed("c8", "timeout")
            .id("z")
            .start(T + 500)
            .end(T + 1_000)
            .inputTokens(5)
            .build());
    Map<String, List<RequestRecord>> groups = ServingMetricsCalculator.byLevel(recs);
    assertEquals(List.of("c8", "c16"), new ArrayList<>(groups.keySet()));
    assertEquals(List.of("y", "z"), groups.get("c8").stream().map(RequestRecord::id).toList());

    Map<String, ServingMetrics> byLevel =
        ServingMetricsCalculator.computeByLevel(
            recs, Map.of("c8", 8, "c16", 16), LatencyStats.DEFAULT_PERCENTILES);
    assertEquals(List.of("c8", "c16"), new ArrayList<>(byLevel.keySet()));
    assertEquals(8, byLevel.get("c8").maxConcurrency());
    assertEquals(1, byLevel.get("c8").completed());
    assertEquals(1, byLevel.get("c8").failed());
    assertEquals(2.0, byLevel.get("c8").durationS(), EPS);
    assertEquals(16, byLevel.get("c16").maxConcurrency());
    assertEquals(1.0, byLevel.get("c16").durationS(), EPS);
  }

  private static void assertStats(
      LatencyStats s, int n, double mean, double median, double std, double p90, double p99) {
    assertEquals(n, s.count(), "count");
    assertEquals(mean, s.mean(), EPS, "mean");
    assertEquals(median, s.median(), EPS, "median");
    assertEquals(std, s.std(), 1e-9, "std");
    assertEquals(p90, s.p90(), EPS, "p90");
    assertEquals(p99, s.p99(), EPS, "p99");
  }

  private static double sq(double x) {
    return x * x;
  }
}
