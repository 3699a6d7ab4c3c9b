package io.github.llmbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatisticTest {

  @Test
  void anyPercentileIsAStatisticNamedAsVllmNamesIt() {
    Statistic p999 = Statistic.percentile(99.9);
    assertEquals("p99.9", p999.key());
    assertEquals("P99.9", p999.label());
    assertEquals(99.9, p999.percentile());
    assertTrue(p999.isPercentile());
    assertEquals("p95", Statistic.percentile(95.0).key());
    assertEquals("P0.5", Statistic.percentile(0.5).label());
    assertEquals("p0.0001", Statistic.percentile(0.0001).key(), "plain digits, no exponent");
    LatencyFigure f = LatencyFigure.of(Metric.TTFT, p999);
    assertEquals("ttft.p99.9", f.key());
    assertEquals("P99.9 TTFT", f.label());
    assertEquals("p99.9_ttft_ms", f.summaryField());
    assertTrue(Metric.isSummaryField(f.summaryField()));
  }

  @Test
  void theConstantsAreThePercentilesOfTheirNumber() {
    assertEquals(Statistic.P99, Statistic.percentile(99));
    assertEquals(Statistic.P90.hashCode(), Statistic.percentile(90.0).hashCode());
    assertEquals(Optional.of(Statistic.P99), Statistic.of("p99"));
    assertEquals("P90", Statistic.P90.label());
    assertEquals(50.0, Statistic.MEDIAN.percentile());
    assertTrue(Double.isNaN(Statistic.MEAN.percentile()));
    assertFalse(Statistic.MEAN.isPercentile());
    assertFalse(Statistic.MEDIAN.isPercentile());
    // the 50th percentile is vLLM's P50 row, apart from its Median row
    assertNotEquals(Statistic.MEDIAN, Statistic.percentile(50));
    assertEquals("p50", Statistic.percentile(50).key());
    assertEquals(
        java.util.List.of(Statistic.MEAN, Statistic.MEDIAN, Statistic.P90, Statistic.P99),
        Statistic.STANDARD);
  }

  @Test
  void keysParseBackAndOthersAreNone() {
    for (String key : new String[] {"mean", "median", "p90", "p99", "p95", "p99.9", "p0.5", "p1"}) {
      assertEquals(key, Statistic.of(key).orElseThrow().key(), key);
    }
    for (String bad :
        new String[] {
          "p0", "p100", "p150", "p", "pabc", "p99.90", "p099", "p-1", "p1e1", "P99", "p99.", "max",
          ""
        }) {
      assertEquals(Optional.empty(), Statistic.of(bad), bad);
    }
    for (double bad : new double[] {0, 100, 150, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class, () -> Statistic.percentile(bad), "" + bad);
    }
  }

  @Test
  void aFigureOfAnyPercentileParsesFromItsKeyAndItsSummaryField() {
    LatencyFigure itl = LatencyFigure.parse("itl.p99.9").orElseThrow();
    assertEquals(LatencyFigure.of(Metric.ITL, Statistic.percentile(99.9)), itl);
    assertEquals(Optional.of(itl), LatencyFigure.ofSummaryField("p99.9_itl_ms"));
    assertEquals(
        Optional.of(LatencyFigure.of(Metric.TPOT, Statistic.MEAN)),
        LatencyFigure.ofSummaryField("mean_tpot_ms"));
    for (String notOne : new String[] {"std_ttft_ms", "p99_ttfb_ms", "output_throughput", "p99"}) {
      assertEquals(Optional.empty(), LatencyFigure.ofSummaryField(notOne), notOne);
    }
    assertEquals(
        Optional.of(LatencyFigure.of(Metric.E2EL, Statistic.percentile(95))),
        SloFigure.parse("e2el.p95"));
  }
}
