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
    for (Level l :
        new Level[] {
          Level.closed(128),
          Level.open(2.5),
          Level.open(4),
          Level.open(0.125),
          Level.withImages(Level.closed(8), ImageStep.of(2)),
          Level.withImages(Level.open(1.5), ImageStep.of(0)),
          Level.withImages(Level.closed(4), ImageStep.of(2, new ImageStep.Size(1024, 768))),
          Level.TRACE,
          Level.WARMUP
        }) {
      assertEquals(Optional.of(l), Level.parse(l.tag()), l.tag());
    }
    assertEquals("c128", Level.closed(128).tag());
    assertEquals("r4", Level.open(4.0).tag());
    assertEquals("r2.5", Level.open(2.5).tag());
    assertEquals("c8-img2", Level.withImages(Level.closed(8), ImageStep.of(2)).tag());
    assertEquals(
        "c8-img1-256x128",
        Level.withImages(Level.closed(8), ImageStep.of(1, new ImageStep.Size(256, 128))).tag());
    assertEquals(Optional.of(ImageStep.of(4)), Level.parse("r2-img4").orElseThrow().images());
    assertEquals(
        Optional.of(ImageStep.of(4, new ImageStep.Size(640, 480))),
        Level.parse("r2-img4-640x480").orElseThrow().images());
    assertEquals(Optional.empty(), Level.parse("c8-img1-0x480"), "a side out of range");
    assertEquals(Optional.empty(), Level.parse("c8-img1-640"));
    assertEquals(Optional.empty(), Level.closed(8).images());
    assertThrows(
        IllegalArgumentException.class, () -> Level.withImages(Level.TRACE, ImageStep.of(1)));
    assertFalse(Level.WARMUP.measured());
    assertTrue(Level.TRACE.measured());
  }

  @Test
  void otherTagsAreNoLevel() {
    for (String tag :
        new String[] {
          "c",
          "c-1",
          "c0",
          "r0",
          "r",
          "rx",
          "C8",
          "c8 ",
          "trace2",
          "",
          "128",
          "c8-img",
          "c8-img1000",
          "c8-imgx",
          "trace-img1"
        }) {
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
    for (String bad :
        new String[] {"tpot", "tpot.p100", "tpt.p99", "tpot.p99.x", ".p99", "failed.pct"}) {
      assertEquals(Optional.empty(), LatencyFigure.parse(bad), bad);
    }
  }

  @Test
  void anObjectiveBoundsALatencyFigureOrTheFailedShare() {
    assertEquals(LatencyFigure.ALL.size() + 1, SloFigure.ALL.size());
    for (SloFigure f : SloFigure.ALL) {
      assertEquals(Optional.of(f), SloFigure.parse(f.key()), f.key());
    }
    assertEquals(
        Optional.of(new LatencyFigure(Metric.E2EL, Statistic.MEDIAN)),
        SloFigure.parse("e2el.median"));
    assertEquals(Optional.of(SloFigure.FAILED_PCT), SloFigure.parse("failed.pct"));
    for (String bad :
        new String[] {
          "failed", "failed.pct.x", "goodput.pct", "output_throughput.min", "ttft.p0", ""
        }) {
      assertEquals(Optional.empty(), SloFigure.parse(bad), bad);
    }
    assertEquals(
        "ttft|tpot|itl|e2el . mean|median|pN (N a percentile above 0 and below 100: p90, p99,"
            + " p99.9), or failed.pct",
        SloFigure.accepted());
  }

  @Test
  void summaryFieldsAreVllmsNames() {
    assertEquals("std_e2el_ms", Metric.E2EL.summaryField(Statistic.STD));
    assertEquals("p95_itl_ms", Metric.ITL.summaryField("p95"));
    assertEquals("TPOT", Metric.TPOT.label());
    for (LatencyFigure f : LatencyFigure.ALL) {
      assertTrue(Metric.isSummaryField(f.summaryField()), f.summaryField());
    }
    for (String field : new String[] {"std_ttft_ms", "p99.9_tpot_ms", "p5_e2el_ms"}) {
      assertTrue(Metric.isSummaryField(field), field);
    }
    for (String field :
        new String[] {
          "mean_ttft",
          "max_ttft_ms",
          "p99_ttfb_ms",
          "output_throughput",
          "mean_input_tokens",
          "median_ms"
        }) {
      assertFalse(Metric.isSummaryField(field), field);
    }
  }
}
