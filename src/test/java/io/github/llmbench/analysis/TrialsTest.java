package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrialsTest {
  private static final long T = 1_700_000_000_000L;

  /**
   * Trial k of c2: two requests at a time for 10 s from T + 100 s x k, each 1 s long with 10 output
   * tokens and a TPOT of 10 x k ms.
   */
  private static List<RequestRecord> trial(int k) {
    List<RequestRecord> rs = new ArrayList<>();
    long start = T + 100_000L * k;
    for (int slot = 0; slot < 2; slot++) {
      for (int i = 0; i < 10; i++) {
        rs.add(
            TestRecords.ok("c2")
                .id("t" + k + "-" + slot + "-" + i)
                .start(start + i * 1000L)
                .end(start + (i + 1) * 1000L)
                .ttft(100)
                .tpot(10.0 * k)
                .e2el(1000)
                .inputTokens(50)
                .outputTokens(10)
                .origin(RequestOrigin.inTrial(null, k))
                .build());
      }
    }
    return rs;
  }

  @Test
  void eachTrialHasItsOwnFiguresAndTheLevelAddsTheirDurations() {
    List<RequestRecord> all = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      all.addAll(trial(k));
    }
    RunAnalysis.Level c2 =
        RunAnalysis.of(RunAnalysis.Inputs.builder(all).rooflineHint("hint").build())
            .levels()
            .get("c2");
    Trials trials = c2.trials();
    assertEquals(3, trials.count());
    for (int k = 1; k <= 3; k++) {
      Trials.Trial t = trials.trials().get(k - 1);
      assertEquals(k, t.number());
      assertEquals(20, t.serving().completed());
      assertEquals(10.0, t.serving().durationS(), 1e-9);
      assertEquals(10.0 * k, t.serving().tpot().mean(), 1e-9, "its own requests only");
    }
    // 210 s from the first start to the last end, but 30 s of load: throughputs over the 30
    assertEquals(30.0, c2.serving().durationS(), 1e-9);
    assertEquals(60 / 30.0, c2.serving().requestThroughput(), 1e-9);
    assertEquals(600 / 30.0, c2.serving().outputThroughput(), 1e-9);
    assertEquals(60, c2.serving().completed());
    assertEquals(20.0, c2.serving().tpot().mean(), 1e-9, "latencies pool every trial's requests");
    assertTrue(c2.steady().reached(), "the median trial's window: " + c2.steady());
    assertSame(
        trials.trials().stream()
            .map(Trials.Trial::steady)
            .filter(s -> s.equals(c2.steady()))
            .findFirst()
            .orElseThrow(),
        c2.steady());
  }

  @Test
  void aLevelThatRanOnceHasNoTrials() {
    List<RequestRecord> once = new ArrayList<>();
    for (RequestRecord r : trial(1)) {
      once.add(r.toBuilder().origin(null).build());
    }
    RunAnalysis.Level c2 =
        RunAnalysis.of(RunAnalysis.Inputs.builder(once).rooflineHint("hint").build())
            .levels()
            .get("c2");
    assertTrue(c2.trials().isEmpty());
    assertEquals(10.0, c2.serving().durationS(), 1e-9);
  }
}
