package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.ParetoFrontier.Point;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParetoFrontierTest {

  private static final Point FAST_USER = new Point("seqs=8", 900, 60);
  private static final Point MIDDLE = new Point("seqs=32", 2400, 35);
  private static final Point DOMINATED = new Point("seqs=48", 2300, 30);
  private static final Point THROUGHPUT = new Point("seqs=128", 4000, 12);
  private static final Point UNMEASURED = new Point("seqs=256", Double.NaN, 5);

  @Test
  void theFrontierKeepsThePointsNoOtherBeatsOnBothFigures() {
    ParetoFrontier f =
        ParetoFrontier.of(List.of(MIDDLE, DOMINATED, THROUGHPUT, FAST_USER, UNMEASURED));
    assertEquals(List.of(THROUGHPUT, MIDDLE, FAST_USER), f.frontier(), "by interactivity");
    assertFalse(f.onFrontier(DOMINATED), "seqs=32 is better on both");
    assertFalse(f.onFrontier(UNMEASURED), "a point without a figure is on no frontier");
    assertEquals(5, f.points().size());
  }

  @Test
  void equalPointsAreBothOnItAndAPointBetterOnOneFigureOnly() {
    Point same = new Point("other", 2400, 35);
    Point tie = new Point("tie", 2400, 34);
    ParetoFrontier f = ParetoFrontier.of(List.of(MIDDLE, same, tie));
    assertTrue(f.onFrontier(MIDDLE) && f.onFrontier(same));
    assertFalse(f.onFrontier(tie), "as fast, less interactive");
  }

  @Test
  void interactivityIsTokensPerSecondPerUser() {
    assertEquals(50.0, ParetoFrontier.interactivity(20.0), 1e-12);
    assertTrue(Double.isNaN(ParetoFrontier.interactivity(Double.NaN)));
    assertTrue(Double.isNaN(ParetoFrontier.interactivity(0)));
  }
}
