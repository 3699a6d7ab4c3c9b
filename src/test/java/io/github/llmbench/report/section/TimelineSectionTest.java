package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.BackToBackLevels.generating;
import static io.github.llmbench.report.section.BackToBackLevels.pooled;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The page's timelines stay small for long runs and keep what they show; its rows as data. */
class TimelineSectionTest {

  private static final long T = 1_700_000_000_000L;

  /** Requests of 1 s each, one started every {@code everyMs}, 10 chunks of 100 ms each. */
  private static List<RequestRecord> run(int requests, long everyMs, Random rnd) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      long start = T + i * everyMs + rnd.nextInt(50);
      boolean ok = i % 17 != 0;
      rs.add(
          ok
              ? TestRecords.ok("c4")
                  .id("r" + i)
                  .start(start)
                  .end(start + 1000)
                  .ttft(100)
                  .e2el(1000)
                  .itl(Collections.nCopies(9, 100.0))
                  .inputTokens(5)
                  .outputTokens(20)
                  .build() // 20 tokens in 10 chunks: each chunk weighs 2
              : RequestRecord.builder()
                  .id("r" + i)
                  .level("c4")
                  .startMs(start)
                  .endMs(start + 300)
                  .error("HTTP 500")
                  .httpStatus(500)
                  .inputTokens(5)
                  .build());
    }
    return rs;
  }

  @Test
  void shortRunsKeepOnePointPerSecondAndEveryStep() {
    List<RequestRecord> rs = run(200, 250, new Random(1)); // about 51 s
    List<double[]> tokens = TimelineSection.tokensPerSecond(rs);
    double total = 0;
    for (int i = 0; i < tokens.size(); i++) {
      total += tokens.get(i)[1];
      if (i > 0) {
        assertEquals(1000.0, tokens.get(i)[0] - tokens.get(i - 1)[0], 0.0);
      }
    }
    long okCount = rs.stream().filter(RequestRecord::ok).count();
    assertEquals(okCount * 20, total, 1e-6, "every weighted token once");
    assertEquals(SteadyState.inFlightSteps(rs).size(), TimelineSection.inFlight(rs).size());
  }

  @Test
  void longRunsAreThinnedButKeepTheirTokensAndPeaks() {
    // 40,000 requests over about 10,000 s: 80,000 in-flight steps, 10,000 seconds of tokens
    List<RequestRecord> rs = run(40_000, 250, new Random(2));
    List<double[]> tokens = TimelineSection.tokensPerSecond(rs);
    assertTrue(tokens.size() <= 3001, "points: " + tokens.size());
    double width = (tokens.get(1)[0] - tokens.get(0)[0]) / 1000.0;
    assertTrue(width > 1, "wider buckets: " + width);
    double total = 0;
    for (int i = 0; i < tokens.size(); i++) {
      double[] p = tokens.get(i);
      double seconds =
          i + 1 < tokens.size()
              ? width
              : Math.floor((rs.get(rs.size() - 1).endMs() - p[0]) / 1000.0)
                  + 1; // the last, partial
      total += p[1] * Math.min(width, seconds);
    }
    long okCount = rs.stream().filter(RequestRecord::ok).count();
    assertEquals(okCount * 20, total, 1e-6, "a point is the mean tok/s of its seconds");

    List<long[]> inFlight = TimelineSection.inFlight(rs);
    assertTrue(inFlight.size() <= 1502, "points: " + inFlight.size());
    SteadyState.Steps steps = SteadyState.inFlightSteps(rs);
    int peak = 0;
    for (int c : steps.inFlight()) {
      peak = Math.max(peak, c);
    }
    int shownPeak = 0;
    for (long[] p : inFlight) {
      shownPeak = Math.max(shownPeak, (int) p[1]);
    }
    assertEquals(peak, shownPeak, "thinning keeps each bucket's maximum");
  }

  /** c2 back to back over 0.4 s, then r2-20: 80 requests sent every 250 ms, latency constant. */
  private static RunAnalysis withRamp() {
    List<RequestRecord> rs = new ArrayList<>(generating("c2", 2, T, 50, 10));
    for (int i = 0; i < 80; i++) {
      rs.add(TestRecords.ok("r2-20").id("ramp-" + i).start(T + 1_000 + 250L * i).build());
    }
    return BackToBackLevels.analysis(rs);
  }

  private static SectionRows rows(RunAnalysis a) {
    return SectionRows.of(new TimelineSection(), a, RunInfo.NONE);
  }

  @Test
  void theRunOverTimeChartsInFlightAndOutputTokens() {
    SectionRows r = rows(BackToBackLevels.analysis(generating("c2", 2, T, 50, 10)));
    assertEquals(List.of("Over time"), r.parts().stream().map(PagePart::navLabel).toList());
    assertEquals(
        List.of("llm-chart-inflight", "llm-chart-tokens"),
        r.charts().stream().map(Chart::id).toList());
  }

  @Test
  void anEmbeddingsRunHasNoTokensChart() {
    SectionRows r = rows(BackToBackLevels.analysis(pooled("c2", 2, T, 40, 64)));
    assertEquals(List.of("llm-chart-inflight"), r.charts().stream().map(Chart::id).toList());
  }

  @Test
  void aRampLevelHasItsChartAndItsVerdictUnderIt() {
    SectionRows r = rows(withRamp());
    Chart ramp = r.charts().get(r.charts().size() - 1);
    assertEquals("llm-chart-ramp-0", ramp.id());
    assertEquals(0, ramp.spec().get("ramp"));
    assertEquals(
        List.of(
            "Ramp linear 2 to 20 req/s: latency held to 20 req/s (median TTFT and TPOT within 2x"
                + " the start's)"),
        r.notes());
  }

  @Test
  void onlyARampLevelHasAConsoleBlockTitledWithItsLevel() {
    RunAnalysis a = withRamp();
    TimelineSection s = new TimelineSection();
    assertEquals("", s.levelText(a, a.levels().get("c2"), true));
    String block = s.levelText(a, a.levels().get("r2-20"), true);
    assertTrue(block.lines().findFirst().orElseThrow().contains(" Ramp (r2-20) "), block);
  }

  @Test
  void theChartDataHasTheSteadyWindowsInFlightAndTokensPerSecond() {
    Map<String, Object> d = new LinkedHashMap<>();
    new TimelineSection()
        .putChartData(BackToBackLevels.analysis(generating("c2", 2, T, 50, 10)), RunInfo.NONE, d);
    assertEquals(List.of(Map.of("level", "c2", "from", T, "to", T + 400)), d.get("windows"));
    @SuppressWarnings("unchecked")
    List<long[]> inFlight = (List<long[]>) d.get("inflight");
    assertArrayEquals(new long[] {T, 2}, inFlight.get(0));
    assertArrayEquals(new long[] {T + 400, 0}, inFlight.get(inFlight.size() - 1));
    @SuppressWarnings("unchecked")
    List<double[]> tokens = (List<double[]>) d.get("tokens");
    assertEquals(1, tokens.size(), "every chunk in the first second");
    assertArrayEquals(new double[] {T, 40}, tokens.get(0), 1e-9);
  }
}
