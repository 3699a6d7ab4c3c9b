package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {

  private static final double EPS = 1e-9;

  @Test
  void meanMedianPopulationStdAndPercentiles() {
    LatencyStats s = LatencyStats.of(List.of(1.0, 2.0, 3.0, 4.0));
    assertEquals(4, s.count());
    assertEquals(2.5, s.mean(), EPS);
    assertEquals(2.5, s.median(), EPS);
    // np.std (ddof 0): deviations 1.5, 0.5, 0.5, 1.5 -> squares sum 5 -> sqrt(5 / 4)
    assertEquals(Math.sqrt(1.25), s.std(), EPS);
    assertEquals(3.7, s.p90(), EPS);
    assertEquals(3.97, s.p99(), EPS);
    assertEquals(List.of(99.0, 90.0), new ArrayList<>(s.percentiles().keySet()));
  }

  @Test
  void emptyGivesZerosLikeVllm() {
    LatencyStats s = LatencyStats.of(List.of());
    assertEquals(0, s.count());
    assertEquals(0.0, s.mean(), 0.0);
    assertEquals(0.0, s.median(), 0.0);
    assertEquals(0.0, s.std(), 0.0);
    assertEquals(0.0, s.p90(), 0.0);
    assertEquals(0.0, s.p99(), 0.0);
  }

  @Test
  void requestedPercentilesKeepOrderAndP90P99AreAlwaysThere() {
    LatencyStats s = LatencyStats.of(List.of(1.0, 2.0, 3.0, 4.0), List.of(50.0, 99.9));
    assertEquals(List.of(50.0, 99.9, 90.0, 99.0), new ArrayList<>(s.percentiles().keySet()));
    assertEquals(2.5, s.percentile(50), EPS);
    assertEquals(3.997, s.percentile(99.9), EPS);
    assertEquals(3.7, s.p90(), EPS);
    assertThrows(IllegalArgumentException.class, () -> s.percentile(75));
  }
}
