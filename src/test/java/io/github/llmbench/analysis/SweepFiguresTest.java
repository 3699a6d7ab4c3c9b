package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.SloFigure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepFiguresTest {

  private static final SloFigure TTFT_P99 = SloFigure.parse("ttft.p99").orElseThrow();

  private static SweepFigures.Candidate c(String name, double tput, double tpot, double ttftP99) {
    return new SweepFigures.Candidate(name, "c8", tput, tpot, Map.of(TTFT_P99, ttftP99), 1);
  }

  @Test
  void theBestMeetsEveryObjectiveAndTheFrontierIsThePoints() {
    List<SweepFigures.Candidate> cs =
        List.of(
            c("a", 1000, 20, 100), // 50 tok/s/user
            c("b", 1500, 25, 400), // 40: more throughput, less interactivity: on the frontier
            c("c", 900, 25, 50), // beaten by a on both
            c("d", 800, 10, 60)); // 100 tok/s/user: on the frontier
    SweepFigures f = SweepFigures.of(cs, Map.of(TTFT_P99, 300.0));
    assertEquals("a", f.best().orElseThrow().combination(), "b is faster but misses its TTFT");
    assertTrue(f.onFrontier(0));
    assertTrue(f.onFrontier(1));
    assertFalse(f.onFrontier(2));
    assertTrue(f.onFrontier(3));
    assertEquals(
        List.of("b c8", "a c8", "d c8"),
        f.frontier().frontier().stream().map(ParetoFrontier.Point::name).toList());
    assertEquals("b", SweepFigures.of(cs, Map.of()).best().orElseThrow().combination());
  }

  @Test
  void throughputPerGpuAndNoneMeetingTheObjectives() {
    SweepFigures f =
        SweepFigures.of(
            List.of(
                new SweepFigures.Candidate("tp=4", "c8", 1000, 20, Map.of(TTFT_P99, 100.0), 4),
                new SweepFigures.Candidate("tp=1", "c8", 300, 20, Map.of(TTFT_P99, 100.0), 1)),
            Map.of(TTFT_P99, 10.0));
    assertEquals(250.0, f.point(0).throughput(), 1e-9);
    assertFalse(f.onFrontier(0), "tp=1 gives more per GPU at the same tokens per user");
    assertTrue(f.best().isEmpty());
    assertFalse(
        new SweepFigures.Candidate("x", "c1", 1, 1, Map.of(), 1).meets(Map.of(TTFT_P99, 1.0)),
        "a figure the level lacks does not meet its objective");
  }
}
