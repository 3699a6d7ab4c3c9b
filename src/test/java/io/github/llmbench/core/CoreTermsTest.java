package io.github.llmbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CoreTermsTest {

  @Test
  void levelTagsParseBackToTheirLevel() {
    for (Level l : new Level[] {Level.closed(128), Level.open(2.5), Level.open(4), Level.open(0.125), Level.TRACE, Level.WARMUP}) {
      assertEquals(Optional.of(l), Level.parse(l.tag()), l.tag());
    }
    assertEquals("c128", Level.closed(128).tag());
    assertEquals("r4", Level.open(4.0).tag());
    assertEquals("r2.5", Level.open(2.5).tag());
    assertFalse(Level.WARMUP.measured());
    assertTrue(Level.TRACE.measured());
  }

  @Test
  void otherTagsAreNoLevel() {
    for (String tag : new String[] {"c", "c-1", "c0", "r0", "r", "rx", "C8", "c8 ", "trace2", "", "128"}) {
      assertEquals(Optional.empty(), Level.parse(tag), tag);
    }
    assertEquals(Optional.empty(), Level.parse(null));
    assertThrows(IllegalArgumentException.class, () -> Level.closed(0));
    assertThrows(IllegalArgumentException.class, () -> Level.open(Double.NaN));
  }

  @Test
  void latencyFiguresAreEveryMetricByEveryStatistic() {
    assertEquals(16, LatencyFigure.ALL.size());
    assertEquals("ttft.mean", LatencyFigure.ALL.get(0).key());
    assertEquals("e2el.p99", LatencyFigure.ALL.get(15).key());
    LatencyFigure f = LatencyFigure.parse("tpot.p99").orElseThrow();
    assertEquals(new LatencyFigure(Metric.TPOT, Statistic.P99), f);
    assertEquals("p99_tpot_ms", f.summaryField());
    assertEquals("median_itl_ms", new LatencyFigure(Metric.ITL, Statistic.MEDIAN).summaryField());
    for (String bad : new String[] {"tpot", "tpot.p95", "tpt.p99", "tpot.p99.x", ".p99", "failed.pct"}) {
      assertEquals(Optional.empty(), LatencyFigure.parse(bad), bad);
    }
  }
}
