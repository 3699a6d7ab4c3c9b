package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.SteadyStateBlock;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed steady windows.
 *
 * <p>Small trace, C = 4 (threshold 4), times relative to T:
 *
 * <pre>
 * id  ok  start end   ttft itl            in  out  chunk arrivals
 * r1  yes 0     1000  100  [300,300,300]  10  4    100 400 700 1000
 * r2  yes 100   1600  200  [500,400]      20  6    300 800 1200 (3 chunks, weight 2)
 * r3  yes 200   1800  300  [600]          30  2    500 1100
 * r4  NO  300   900   -    -              40  -
 * r5  yes 900   2500  400  []             50  1    1300
 * r6  yes 1000  1300  100  [100]          60  2    1100 1200
 * </pre>
 *
 * In flight: 1 at 0, 2 at 100, 3 at 200, 4 at 300 (ws), still 4 at 900 (r4 ends, r5 starts) and at
 * 1000 (r1 ends, r6 starts), 3 at 1300 (we). Window [300, 1300] = 1.0 s. Started in [300, 1300): r4
 * r5 r6 = 3 of 6, input 40 + 50 + 60 = 150. Completed in it: r6 only (r5 ends at 2500). Tokens
 * arrived in [300, 1300]: r1 400 700 1000 = 3; r2 300 800 1200 = 3 x 2 = 6; r3 500 1100 = 2; r5
 * 1300 = 1; r6 1100 1200 = 2; total 14. Mean in flight 4; mean context r6: 60 + 2 / 2 = 61.
 */
class SteadyStateTest {

  static final long T = 1_700_000_000_000L;
  private static final double EPS = 1e-9;

  static List<RequestRecord> smallTrace() {
    // e2el = ttft + the ITLs: the last chunk's arrival
    return List.of(
        TestRecords.ok("c4")
            .id("r1")
            .start(T)
            .end(T + 1000)
            .ttft(100)
            .itl(300, 300, 300)
            .e2el(1000)
            .tpot(300)
            .inputTokens(10)
            .outputTokens(4)
            .build(),
        TestRecords.ok("c4")
            .id("r2")
            .start(T + 100)
            .end(T + 1600)
            .ttft(200)
            .itl(500, 400)
            .e2el(1100)
            .tpot(180)
            .inputTokens(20)
            .outputTokens(6)
            .build(),
        TestRecords.ok("c4")
            .id("r3")
            .start(T + 200)
            .end(T + 1800)
            .ttft(300)
            .itl(600)
            .e2el(900)
            .tpot(600)
            .inputTokens(30)
            .outputTokens(2)
            .build(),
        TestRecords.failed("c4", "HTTP 500")
            .id("r4")
            .start(T + 300)
            .end(T + 900)
            .inputTokens(40)
            .status(500)
            .build(),
        TestRecords.ok("c4")
            .id("r5")
            .start(T + 900)
            .end(T + 2500)
            .ttft(400)
            .itl()
            .e2el(400)
            .tpot(null)
            .inputTokens(50)
            .outputTokens(1)
            .build(),
        TestRecords.ok("c4")
            .id("r6")
            .start(T + 1000)
            .end(T + 1300)
            .ttft(100)
            .itl(100)
            .e2el(200)
            .tpot(100)
            .inputTokens(60)
            .outputTokens(2)
            .build());
  }

  @Test
  void thresholdIsCeilOfNinetyFivePercent() {
    assertEquals(61, SteadyState.threshold(64));
    assertEquals(122, SteadyState.threshold(128));
    assertEquals(190, SteadyState.threshold(200));
    assertEquals(1, SteadyState.threshold(1));
    assertEquals(4, SteadyState.threshold(4));
    assertEquals(8, SteadyState.threshold(8)); // 7.6 -> 8
    assertEquals(16, SteadyState.threshold(16)); // 15.2 -> 16
    assertEquals(31, SteadyState.threshold(32)); // 30.4 -> 31
  }

  @Test
  void everyFigureOfTheSmallTrace() {
    SteadyState s = SteadyState.compute(smallTrace(), 4);
    assertTrue(s.reached());
    assertEquals(4, s.threshold());
    assertEquals(T + 300, s.windowStartMs());
    assertEquals(T + 1300, s.windowEndMs());
    assertEquals(0.3, s.windowStartS(), EPS);
    assertEquals(1.3, s.windowEndS(), EPS);
    assertEquals(1.0, s.windowS(), EPS);
    assertEquals(4, s.observedPeak());
    assertEquals(6, s.requests());
    assertEquals(3, s.startedInWindow());
    assertEquals(1, s.completedInWindow());
    assertEquals(1.0, s.requestThroughput(), EPS);
    assertEquals(14.0, s.outputThroughput(), EPS);
    assertEquals(150.0, s.inputThroughput(), EPS);
    assertEquals(164.0, s.totalThroughput(), EPS);
    assertEquals(1, s.ttft().count());
    assertEquals(100.0, s.ttft().mean(), EPS);
    assertEquals(100.0, s.tpot().mean(), EPS);
    assertEquals(4.0, s.meanInFlight(), EPS);
    assertEquals(61.0, s.meanContextTokens(), EPS);
    assertEquals(50.0, s.meanPromptTokens(), EPS);
    assertFalse(s.ttftTrend().evaluated());
  }

  @Test
  void notReachedWhenInFlightStaysBelowTheThreshold() {
    SteadyState s = SteadyState.compute(smallTrace(), 8); // threshold 8, peak 4
    assertFalse(s.reached());
    assertEquals(8, s.threshold());
    assertEquals(4, s.observedPeak());
    assertEquals(0.0, s.requestThroughput());
    assertTrue(SteadyStateBlock.format(s, "c8").contains("none (in flight never reached 8)"));
  }

  @Test
  void unknownConcurrencyUsesTheObservedPeak() {
    SteadyState s = SteadyState.compute(smallTrace(), null);
    assertTrue(s.concurrencyObserved());
    assertEquals(4, s.concurrency());
    assertEquals(1.0, s.windowS(), EPS);
  }

  /**
   * The seed's C = 200 figures, rebuilt at C = 2 (threshold 2) so they can be worked by hand:
   * stream A starts at 0 (a0 = [0, 500), then back-to-back 305 ms requests), stream B starts at 80
   * (220 back-to-back requests of 821 ms, the last ending at 80 + 220 x 821 = 180,700). Window =
   * [80, 180,700] = 180.62 s ("0.1s -> 180.7s (180.6s)"). Started in it: B's 220 + A's a1..a591
   * (a591 starts at 500 + 590 x 305 = 180,450 and ends at 180,755) = 811 of 1000; completed in it:
   * 220 + 590 = 810. 810 / 180.62 = 4.4845 req/s ("4.48", the seed's figure); input 811 x 1022 /
   * 180.62. One output token per request, arriving at start + 100: a0, B's 220 and a1..a591 arrive
   * in the window: 812 tokens.
   */
  static List<RequestRecord> seedLikeTrace() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(seedLike("a0", 0, 500));
    for (int k = 1; k < 780; k++) {
      long s = 500 + (k - 1) * 305L;
      rs.add(seedLike("a" + k, s, s + 305));
    }
    for (int k = 0; k < 220; k++) {
      long s = 80 + k * 821L;
      rs.add(seedLike("b" + k, s, s + 821));
    }
    return rs;
  }

  /** One request of the seed-like trace: 1022 tokens in, 1 out at start + 100 ms. */
  private static RequestRecord seedLike(String id, long start, long end) {
    return TestRecords.ok("c2")
        .id(id)
        .start(T + start)
        .end(T + end)
        .ttft(100)
        .inputTokens(1022)
        .outputTokens(1)
        .build();
  }

  @Test
  void seedArithmetic() {
    List<RequestRecord> rs = seedLikeTrace();
    assertEquals(1000, rs.size());
    SteadyState s = SteadyState.compute(rs, 2);
    assertEquals(2, s.threshold());
    assertEquals(T + 80, s.windowStartMs());
    assertEquals(T + 180_700, s.windowEndMs());
    assertEquals(180.62, s.windowS(), EPS);
    assertEquals(811, s.startedInWindow());
    assertEquals(810, s.completedInWindow());
    assertEquals(810 / 180.62, s.requestThroughput(), EPS);
    assertEquals(811 * 1022 / 180.62, s.inputThroughput(), EPS);
    assertEquals(4588.30, s.inputThroughput(), 0.001 * 4588.30); // the seed's figure, within 0.1%
    assertEquals(812 / 180.62, s.outputThroughput(), EPS);
    assertEquals(2.0, s.meanInFlight(), EPS);

    String block = SteadyStateBlock.format(s, null);
    List<String> lines = block.lines().toList();
    assertEquals("============ Steady-State Metrics =============", lines.get(0));
    assertEquals("Concurrency threshold:              >= 0.95 * 2 = 2", lines.get(1));
    assertEquals("Window:                             0.1s -> 180.7s  (180.6s)", lines.get(2));
    assertEquals("Observed peak concurrency:          2", lines.get(3));
    assertEquals("Requests started in window:         811 / 1000 (81.1%)", lines.get(4));
    assertEquals("Requests completed in window:       810", lines.get(5));
    assertEquals("-".repeat(47), lines.get(6));
    assertEquals("Request throughput (req/s):         4.48", lines.get(7));
    assertEquals("Mean TTFT (ms):                     100.00", lines.get(12));
    assertEquals("P99 TTFT (ms):                      100.00", lines.get(14));
    assertEquals("P90 TPOT (ms):                      0.00", lines.get(19));
    assertEquals(21, lines.size());
  }

  @Test
  void ttftTrendSeesUnboundedGrowthAndNotAFlatLevel() {
    List<RequestRecord> growing = new ArrayList<>();
    List<RequestRecord> flat = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      long s = i * 100L;
      growing.add(
          TestRecords.ok("c4")
              .start(T + s)
              .end(T + s + 50)
              .ttft(100 + 2.0 * i)
              .outputTokens(1)
              .build());
      flat.add(
          TestRecords.ok("c4")
              .start(T + s)
              .end(T + s + 50)
              .ttft(100 + (i % 2 == 0 ? 5 : -5))
              .outputTokens(1)
              .build());
    }
    TtftTrend g = TtftTrend.of(growing, 4);
    assertTrue(g.evaluated());
    assertEquals(96, g.points());
    assertEquals(20.0, g.slopeMsPerS(), 1e-6); // 2 ms per request, 10 requests per second
    assertEquals(190.0, g.riseMs(), 1e-6); // over 9.5 s
    assertTrue(g.growing());
    TtftTrend f = TtftTrend.of(flat, 4);
    assertTrue(f.evaluated());
    assertFalse(f.growing());
    assertFalse(TtftTrend.of(growing.subList(0, 20), 4).evaluated());
  }
}
