package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The page's timelines stay small for long runs and keep what they show. */
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
}
