package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Metric;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyCdfTest {

  private static List<RequestRecord> tenRequests() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int k = 1; k <= 10; k++) {
      rs.add(TestRecords.ok("c1").id("r" + k).ttft(10.0 * k).itl(1.0, 2.0, 3.0).build());
    }
    rs.add(TestRecords.failed("c1", "HTTP 500").id("f").ttft(999.0).build());
    return rs;
  }

  @Test
  void theCurveRunsFromTheFastestToTheSlowestCompletedRequest() {
    LatencyCdf cdf = LatencyCdf.of(Metric.TTFT, tenRequests());
    assertEquals(10, cdf.count(), "the failed request left out");
    assertEquals(new LatencyCdf.Point(0.0, 10.0), cdf.points().get(0));
    assertEquals(new LatencyCdf.Point(100.0, 100.0), cdf.points().get(cdf.points().size() - 1));
    assertEquals(55.0, cdf.points().get(50).ms(), 1e-9, "the median, numpy's linear");
  }

  @Test
  void theCurveRisesWithThePercent() {
    List<LatencyCdf.Point> ps = LatencyCdf.of(Metric.TTFT, tenRequests()).points();
    assertEquals(LatencyCdf.PERCENTS.size(), ps.size());
    for (int i = 1; i < ps.size(); i++) {
      assertTrue(ps.get(i).percent() > ps.get(i - 1).percent());
      assertTrue(ps.get(i).ms() >= ps.get(i - 1).ms(), "at " + ps.get(i));
    }
  }

  @Test
  void itlCountsEachGapBetweenChunks() {
    LatencyCdf cdf = LatencyCdf.of(Metric.ITL, tenRequests());
    assertEquals(30, cdf.count());
    assertEquals(1.0, cdf.points().get(0).ms());
    assertEquals(3.0, cdf.points().get(cdf.points().size() - 1).ms());
  }

  @Test
  void noCompletedRequestsNoCurve() {
    assertTrue(
        LatencyCdf.of(Metric.TTFT, List.of(TestRecords.failed("c1", "x").build())).isEmpty());
  }
}
