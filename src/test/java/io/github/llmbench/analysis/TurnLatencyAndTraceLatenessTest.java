package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnLatencyAndTraceLatenessTest {
  @Test
  void ttftIsGroupedByTurnInTurnOrder() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(
        TestRecords.ok("c2")
            .ttft(30)
            .inputTokens(100)
            .origin(RequestOrigin.turn("conv-1", 2))
            .build());
    rs.add(
        TestRecords.ok("c2")
            .ttft(10)
            .inputTokens(50)
            .origin(RequestOrigin.turn("conv-1", 1))
            .build());
    rs.add(
        TestRecords.ok("c2")
            .ttft(20)
            .inputTokens(60)
            .origin(RequestOrigin.turn("conv-2", 1))
            .build());
    rs.add(
        TestRecords.ok("c2")
            .ttft(50)
            .inputTokens(300)
            .origin(RequestOrigin.turn("conv-2", 2))
            .build());
    rs.add(
        RequestRecord.builder()
            .id("x")
            .level("c2")
            .startMs(0)
            .endMs(10)
            .error("HTTP 400: too long")
            .httpStatus(400)
            .origin(RequestOrigin.turn("conv-2", 3))
            .build());
    rs.add(TestRecords.ok("c2").ttft(99).inputTokens(1).build()); // no turn: left out
    TurnLatency t = TurnLatency.of(rs);
    assertEquals(List.of(1, 2, 3), t.rows().stream().map(TurnLatency.Row::turn).toList());
    TurnLatency.Row first = t.rows().get(0);
    assertEquals(2, first.completed());
    assertEquals(15.0, first.ttftMeanMs(), 1e-9);
    assertEquals(55.0, first.meanInputTokens(), 1e-9);
    assertEquals(40.0, t.rows().get(1).ttftMedianMs(), 1e-9);
    TurnLatency.Row third = t.rows().get(2);
    assertEquals(0, third.completed());
    assertEquals(1, third.failed());
    assertTrue(Double.isNaN(third.ttftMeanMs()));
    assertTrue(TurnLatency.of(List.of(TestRecords.ok("c2").build())).isEmpty());
  }

  @Test
  void latenessCountsFromTheMostPunctualRequest() {
    // the first request was sent 18 ms after the replay's first feed (a first user's one-time
    // costs), the others 0, 2 and 40 ms after their times: the replay started when request 3 says
    List<RequestRecord> rs =
        List.of(
            TestRecords.ok("c2").origin(RequestOrigin.trace(300_000, 302_000)).build(),
            TestRecords.ok("c2").origin(RequestOrigin.trace(0, 18_000)).build(),
            TestRecords.ok("c2").origin(RequestOrigin.trace(500_000, 500_000)).build(),
            TestRecords.ok("c2").origin(RequestOrigin.trace(700_000, 740_000)).build(),
            TestRecords.ok("c2").build());
    TraceLateness l = TraceLateness.of(rs);
    assertEquals(4, l.requests());
    assertEquals(40.0, l.maxMs(), 1e-9);
    assertEquals(10.0, l.medianMs(), 1e-9);
    assertTrue(l.p99Ms() > 39 && l.p99Ms() <= 40, "p99 " + l.p99Ms());
    assertTrue(TraceLateness.of(List.of(TestRecords.ok("c2").build())).isEmpty());
  }
}
