package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.GateDesign;
import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.SequentialTest;
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GateSet;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.summary.AbFigures;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A relative gate judged pair by pair: orientation, threshold, pairs left out, its result. */
class AbGateTrackTest {
  private static final GateJudgement.Family FAMILY = GateJudgement.Family.alone(0.05);

  private static Gate gate(String key, String limit) {
    return GateSet.parse(Map.of(key, limit), "-Dgate.").gates().get(0);
  }

  @Test
  void theThresholdIsTheRegressionToCatchOnTheWorseSide() {
    assertEquals(0.10, AbGateTrack.threshold(gate("tpot.mean", "+10%")), 1e-12);
    assertEquals(1 / 0.95 - 1, AbGateTrack.threshold(gate("output_throughput.min", "-5%")), 1e-12);
  }

  @Test
  void aLatencysRatioIsBOverAAndAThroughputsAOverB() {
    AbGateTrack latency = pairs(gate("tpot.mean", "+10%"));
    latency.add(10, 15);
    assertEquals(Math.log(1.5), latency.figures().logRatios().get(0), 1e-12);
    assertEquals("B/A", latency.orientation());
    AbGateTrack throughput = pairs(gate("output_throughput.min", "-5%"));
    throughput.add(1000, 800);
    assertEquals(Math.log(1000 / 800.0), throughput.figures().logRatios().get(0), 1e-12);
    assertEquals("A/B", throughput.orientation());
  }

  @Test
  void aPairWithoutAFigureOnASideIsLeftOut() {
    AbGateTrack t = pairs(gate("tpot.mean", "+10%"));
    assertNull(t.add(Double.NaN, 15));
    assertNull(t.add(10, 0));
    assertEquals(0, t.figures().pairsUsed());
    assertEquals(SequentialTest.Decision.INCONCLUSIVE, t.decision(), "nothing judged");
  }

  @Test
  void aSteadyFiftyPercentSlowerCandidateFailsAndTheResultSaysSo() {
    AbGateTrack t = pairs(gate("tpot.mean", "+10%"));
    double[] a = {10, 10.2, 9.9, 10.1, 10};
    for (int i = 0; i < a.length && !t.decided(); i++) {
      t.add(a[i], a[i] * (1.5 + 0.01 * (i % 2)));
    }
    assertTrue(t.decided());
    assertEquals(SequentialTest.Decision.FAIL, t.decision());
    GateResult r = t.result("c4", true);
    assertFalse(r.pass());
    assertEquals(GateVerdict.FAIL, r.verdict());
    assertTrue(r.measured() > r.limit(), r.line());
    assertTrue(r.line().contains("false alarm 5%, a +10.0% change passes at most 10%"), r.line());
    assertTrue(r.line().contains("noise: interleaved pairs"), r.line());
    AbFigures.GateTrack f = t.figures();
    assertEquals(f.pairsUsed(), f.looks().size());
    assertEquals("FAIL", f.decision());
    assertNull(t.add(10, 15), "nothing once decided");
  }

  @Test
  void theSmallestRegressionCaughtIsTheDesignsAtItsMostPairsNotTheStoppingLooks() {
    AbGateTrack t = pairs(gate("tpot.mean", "+10%"));
    double[] ratio = {1.30, 1.36, 1.33};
    for (double r : ratio) {
      t.add(10, 10 * r);
    }
    assertEquals(SequentialTest.Decision.FAIL, t.decision(), "stopped at the first look");
    double[] logs = t.figures().logRatios().stream().mapToDouble(d -> d).toArray();
    double mean = (logs[0] + logs[1] + logs[2]) / 3;
    double ss = 0;
    for (double d : logs) {
      ss += (d - mean) * (d - mean);
    }
    double sd = Math.sqrt(ss / 2);
    SequentialTest test = SequentialTest.of(new SequentialTest.Design(0.05, 0.9, 0.10, 3, 20));
    double design = (test.failBoundary(20) + test.passBoundary(20)) * sd / Math.sqrt(20);
    double atStop = (test.failBoundary(3) + test.passBoundary(3)) * sd / Math.sqrt(3);
    String line = t.result("c4", true).line();
    String expected = GateDesign.change(design, false);
    assertFalse(expected.equals(GateDesign.change(atStop, false)), expected);
    assertTrue(line.contains("smallest regression caught with power 90%: " + expected), line);
    assertTrue(line.contains("the design's at 20 pairs, at that sd"), line);
    assertTrue(
        line.contains(
            "the ratio is the one at the stopping look, not adjusted for early stopping: it"
                + " overstates the change when the test stops early"),
        line);
  }

  @Test
  void anUndecidedGatePassesOrFailsAsGateInconclusiveSays() {
    AbGateTrack t = pairs(gate("tpot.mean", "+10%"));
    t.add(10, 10.4);
    t.add(10, 9.2);
    assertFalse(t.decided(), "before the first look");
    assertEquals(GateVerdict.INCONCLUSIVE, t.result("c4", true).verdict());
    assertTrue(t.result("c4", true).pass());
    assertFalse(t.result("c4", false).pass());
    assertEquals(GateMetric.parse("tpot.mean").orElseThrow(), t.gate().metric());
  }

  /** A track judged on pairs, 3 to 20, at confidence 0.95 and power 0.9. */
  private static AbGateTrack pairs(Gate g) {
    return new AbGateTrack(g, 0.95, 0.9, new AbSettings.Units("pair", 1, 3, 20), "", FAMILY);
  }
}
