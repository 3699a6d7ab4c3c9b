package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KneeTest {

  private static final TtftTrend FLAT = new TtftTrend(true, 100, 0.1, 0.5, 100, 5, false);

  /** Levels cN with throughput; TPOT and E2EL follow from Little's law at 128 output tokens. */
  static List<Knee.Point> ladder(int[] cs, double[] out) {
    List<Knee.Point> pts = new ArrayList<>();
    for (int i = 0; i < cs.length; i++) {
      double e2elMs = 1000.0 * cs[i] * 128 / out[i];
      pts.add(
          new Knee.Point("c" + cs[i], cs[i], out[i], e2elMs / 128, 100.0 * cs[i], e2elMs, FLAT));
    }
    return pts;
  }

  @Test
  void clearKnee() {
    Knee.Result k =
        Knee.analyse(
            ladder(
                new int[] {8, 16, 32, 64, 128, 256}, new double[] {100, 200, 400, 780, 800, 810}),
            "steady_state");
    assertEquals("c64", k.kneeLevel(), k.kneeVerdict());
    assertTrue(k.kneeVerdict().startsWith("Knee at c64"), k.kneeVerdict());
    assertTrue(
        k.fit().breakConcurrency() > 32 && k.fit().breakConcurrency() <= 64 * 1.05,
        "break " + k.fit().breakConcurrency());
    assertTrue(k.fit().slopeRatio() < 0.25);
    assertEquals("c256", k.saturationLevel());
    assertTrue(k.saturationVerdict().contains("highest level tested"), k.saturationVerdict());
    assertEquals("c64", k.powerLevel(), k.powerVerdict());
    assertFalse(k.overSaturated());
    // every verdict is one sentence
    for (String v : k.verdicts()) {
      assertTrue(v.endsWith("."), v);
    }
  }

  @Test
  void seedLadderKneeAndOverSaturation() {
    // the seed's TP=1 ladder shape: throughput peaks at C=128, C=200 loses ~9%
    Knee.Result k =
        Knee.analyse(
            ladder(
                new int[] {8, 16, 32, 64, 128, 200}, new double[] {300, 444, 615, 711, 785, 715}),
            "steady_state");
    assertEquals("c64", k.kneeLevel(), k.kneeVerdict());
    assertEquals("c128", k.saturationLevel());
    assertTrue(k.overSaturated());
    assertEquals(List.of("c200"), k.overSaturatedLevels());
    assertTrue(
        k.overSaturationVerdict().contains("c200 loses 9% of the peak throughput of c128"),
        k.overSaturationVerdict());
  }

  @Test
  void tooFewLevels() {
    Knee.Result k =
        Knee.analyse(ladder(new int[] {8, 16, 32}, new double[] {100, 200, 400}), "steady_state");
    assertNull(k.kneeLevel());
    assertEquals("Too few levels to fit a knee: 3 levels, at least 4 needed.", k.kneeVerdict());
    assertEquals("c32", k.saturationLevel());
    Knee.Result one = Knee.analyse(ladder(new int[] {8}, new double[] {100}), "whole_level");
    assertNull(one.saturationLevel());
    assertNull(one.powerLevel());
    assertTrue(one.saturationVerdict().startsWith("Too few levels"), one.saturationVerdict());
    assertTrue(one.overSaturationVerdict().contains("too few levels"), one.overSaturationVerdict());
  }

  @Test
  void monotoneLadderHasNoKneeYet() {
    Knee.Result linear =
        Knee.analyse(
            ladder(new int[] {8, 16, 32, 64, 128}, new double[] {80, 160, 320, 640, 1280}),
            "steady_state");
    assertNull(linear.kneeLevel());
    assertTrue(linear.kneeVerdict().startsWith("No knee yet"), linear.kneeVerdict());
    Knee.Result rising =
        Knee.analyse(
            ladder(new int[] {8, 16, 32, 64, 128}, new double[] {100, 190, 350, 600, 1000}),
            "steady_state");
    assertNull(rising.kneeLevel());
    assertTrue(rising.kneeVerdict().startsWith("No knee yet"), rising.kneeVerdict());
    assertFalse(rising.overSaturated());
    assertTrue(rising.overSaturationVerdict().contains("highest level tested"));
  }

  @Test
  void ttftGrowingInsideALevelIsOverSaturation() {
    List<Knee.Point> pts =
        new ArrayList<>(ladder(new int[] {8, 16, 32, 64}, new double[] {100, 200, 390, 395}));
    Knee.Point last = pts.get(3);
    pts.set(
        3,
        new Knee.Point(
            last.level(),
            last.concurrency(),
            last.outputThroughput(),
            last.meanTpotMs(),
            last.p99TtftMs(),
            last.meanE2elMs(),
            new TtftTrend(true, 200, 40, 2, 300, 2400, true)));
    Knee.Result k = Knee.analyse(pts, "steady_state");
    assertTrue(k.overSaturated());
    assertEquals(List.of("c64"), k.overSaturatedLevels());
    assertTrue(
        k.overSaturationVerdict().contains("c64's TTFT grows without bound"),
        k.overSaturationVerdict());
  }
}
