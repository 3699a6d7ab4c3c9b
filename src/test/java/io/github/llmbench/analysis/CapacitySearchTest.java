package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** The search on scripted per-level results: P99 TTFT as a function of the load. */
class CapacitySearchTest {
  private static final SloFigure TTFT_P99 = new LatencyFigure(Metric.TTFT, Statistic.P99);
  private static final List<CapacitySearch.Objective> SLO =
      List.of(new CapacitySearch.Objective(TTFT_P99, 2000));

  private static CapacitySearch.Verdict run(CapacitySearch s, DoubleUnaryOperator ttftP99) {
    List<CapacitySearch.Probe> probes = new ArrayList<>();
    OptionalDouble next;
    while ((next = s.next(probes)).isPresent()) {
      double load = next.getAsDouble();
      probes.add(CapacitySearch.judge(load, Map.of(TTFT_P99, ttftP99.applyAsDouble(load)), SLO));
      assertTrue(probes.size() < 40, "the search ends");
    }
    return s.verdict(probes);
  }

  @Test
  void monotoneLatencyIsBracketedWithinThePrecision() {
    // TTFT p99 grows with concurrency; the objective breaks above 37
    CapacitySearch.Verdict v =
        run(new CapacitySearch(1, 512, 0.10, true), c -> c <= 37 ? 1000 + c : 2500 + c);
    assertEquals("bracketed", v.status());
    assertTrue(v.capacity() <= 37 && v.lowestBroken() > 37, v.toString());
    assertTrue(
        v.lowestBroken() - v.capacity() <= 0.10 * v.capacity()
            || v.lowestBroken() - v.capacity() <= 1,
        v.toString());
    assertEquals(
        List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 48.0, 40.0, 36.0, 38.0),
        v.probes().stream().map(CapacitySearch.Probe::load).toList(),
        "geometric growth, then bisection");
    assertEquals(List.of("ttft.p99 2538.00 > 2000.00 (+26.9%)"), v.probes().get(10).broken());
  }

  @Test
  void ratesAreBisectedToThreeSignificantDigits() {
    CapacitySearch.Verdict v =
        run(new CapacitySearch(0.5, 64, 0.05, false), r -> r < 6.3 ? 500 : 3000);
    assertEquals("bracketed", v.status());
    assertTrue(
        v.capacity() < 6.3
            && v.lowestBroken() >= 6.3
            && v.lowestBroken() - v.capacity() <= 0.05 * v.capacity(),
        v.toString());
    assertEquals(
        List.of(0.5, 1.0, 2.0, 4.0, 8.0, 6.0, 7.0, 6.5, 6.25),
        v.probes().stream().map(CapacitySearch.Probe::load).toList(),
        "rates, not whole numbers");
    // a fine precision ends when the midpoint rounds onto an end of the bracket
    CapacitySearch fine = new CapacitySearch(1, 64, 1e-6, false);
    CapacitySearch.Verdict w = run(fine, r -> r <= 7.777 ? 500 : 3000);
    assertEquals(
        "bracketed", w.status(), "as close as 3 digits go, though short of a precision of 1e-6");
    assertTrue(w.probes().size() < 30, w.probes().toString());
    assertTrue(w.capacity() > 7.7 && w.lowestBroken() < 7.8, w.toString());
  }

  @Test
  void aRateSearchReachesAMaximumOfMoreDigitsOnceAndSaysAlwaysMet() {
    CapacitySearch.Verdict v = run(new CapacitySearch(1, 1024, 0.1, false), r -> 100);
    assertEquals("always met", v.status(), v.toString());
    assertEquals(
        List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0),
        v.probes().stream().map(CapacitySearch.Probe::load).toList(),
        "1024 itself, not 1020 again and again");
    CapacitySearch.Verdict w = run(new CapacitySearch(1, 99.96, 0.1, false), r -> 100);
    assertEquals(99.96, w.probes().get(w.probes().size() - 1).load(), "never above the maximum");
  }

  @Test
  void aNoisyEdgeKeepsTheBracketConsistent() {
    // 40 broke by noise, 44 met: the capacity stays below the lowest broken load
    CapacitySearch s = new CapacitySearch(8, 256, 0.10, true);
    List<CapacitySearch.Probe> probes = new ArrayList<>();
    for (double[] p :
        new double[][] {
          {8, 900}, {16, 1100}, {32, 1500}, {64, 2600}, {48, 2100}, {40, 2050}, {44, 1990}
        }) {
      probes.add(CapacitySearch.judge(p[0], Map.of(TTFT_P99, p[1]), SLO));
    }
    CapacitySearch.Verdict v = s.verdict(probes);
    assertEquals(32.0, v.capacity());
    assertEquals(40.0, v.lowestBroken());
    assertEquals(36.0, s.next(probes).getAsDouble(), "bisects the consistent bracket");
  }

  @Test
  void neverMetAndAlwaysMetAreSaidPlainly() {
    CapacitySearch.Verdict never = run(new CapacitySearch(4, 256, 0.10, true), c -> 5000);
    assertEquals("never met", never.status());
    assertNull(never.capacity());
    assertEquals(1, never.probes().size());
    CapacitySearch.Verdict always = run(new CapacitySearch(4, 100, 0.10, true), c -> 100);
    assertEquals("always met", always.status());
    assertEquals(100.0, always.capacity());
    assertNull(always.lowestBroken());
    assertEquals(
        List.of(4.0, 8.0, 16.0, 32.0, 64.0, 100.0),
        always.probes().stream().map(CapacitySearch.Probe::load).toList());
  }

  @Test
  void aMissingFigureBreaksItsObjective() {
    CapacitySearch.Probe p = CapacitySearch.judge(8, Map.of(), SLO);
    assertEquals(List.of("ttft.p99 not measured"), p.broken());
  }
}
