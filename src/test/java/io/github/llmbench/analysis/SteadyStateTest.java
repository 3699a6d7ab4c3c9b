package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.SteadyStateBlock;
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
 * In flight: 1 at 0, 2 at 100, 3 at 200, 4 at 300 (ws), still 4 at 900 (r4 ends, r5 starts) and
 * at 1000 (r1 ends, r6 starts), 3 at 1300 (we). Window [300, 1300] = 1.0 s. Started in [300,
 * 1300): r4 r5 r6 = 3 of 6, input 40 + 50 + 60 = 150. Completed in it: r6 only (r5 ends at 2500).
 * Tokens arrived in [300, 1300]: r1 400 700 1000 = 3; r2 300 800 1200 = 3 x 2 = 6; r3 500 1100 =
 * 2; r5 1300 = 1; r6 1100 1200 = 2; total 14. Mean in flight 4; mean context r6: 60 + 2 / 2 = 61.
 */
class SteadyStateTest {

  static final long T = 1_700_000_000_000L;
  private static final double EPS = 1e-9;

  static RequestRecord ok(String id, String level, long start, long end, double ttft,
      List<Double> itl, Double tpot, Integer in, int out) {
    double e2el = ttft + itl.stream().mapToDouble(Double::doubleValue).sum();
    return new RequestRecord(id, level, T + start, T + end, ttft, tpot, e2el, itl, in, out, false,
        true, null, 200);
  }

  static RequestRecord failed(String id, String level, long start, long end, Integer in,
      String error) {
    return new RequestRecord(id, level, T + start, T + end, null, null, null, null, in, null,
        false, false, error, 500);
  }

  static List<RequestRecord> smallTrace() {
    return List.of(
        ok("r1", "c4", 0, 1000, 100, List.of(300.0, 300.0, 300.0), 300.0, 10, 4),
        ok("r2", "c4", 100, 1600, 200, List.of(500.0, 400.0), 180.0, 20, 6),
        ok("r3", "c4", 200, 1800, 300, List.of(600.0), 600.0, 30, 2),
        failed("r4", "c4", 300, 900, 40, "HTTP 500"),
        ok("r5", "c4", 900, 2500, 400, List.of(), null, 50, 1),
        ok("r6", "c4", 1000, 1300, 100, List.of(100.0), 100.0, 60, 2));
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
   * stream A starts at 0 (a0 = [0, 500), then back-to-back 305 ms requests), stream B starts at
   * 80 (220 back-to-back requests of 821 ms, the last ending at 80 + 220 x 821 = 180,700). Window
   * = [80, 180,700] = 180.62 s ("0.1s -> 180.7s (180.6s)"). Started in it: B's 220 + A's a1..a591
   * (a591 starts at 500 + 590 x 305 = 180,450 and ends at 180,755) = 811 of 1000; completed in
   * it: 220 + 590 = 810. 810 / 180.62 = 4.4845 req/s ("4.48", the seed's figure); input 811 x
   * 1022 / 180.62. One output token per request, arriving at start + 100: a0, B's 220 and a1..a591
   * arrive in the window: 812 tokens.
   */
  static List<RequestRecord> seedLikeTrace() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(ok("a0", "c2", 0, 500, 100, List.of(), null, 1022, 1));
    for (int k = 1; k < 780; k++) {
      long s = 500 + (k - 1) * 305L;
      rs.add(ok("a" + k, "c2", s, s + 305, 100, List.of(), null, 1022, 1));
    }
    for (int k = 0; k < 220; k++) {
      long s = 80 + k * 821L;
      rs.add(ok("b" + k, "c2", s, s + 821, 100, List.of(), null, 1022, 1));
    }
    return rs;
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
      growing.add(ok("g" + i, "c4", s, s + 50, 100 + 2.0 * i, List.of(), null, 10, 1));
      flat.add(ok("f" + i, "c4", s, s + 50, 100 + (i % 2 == 0 ? 5 : -5), List.of(), null, 10, 1));
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
