package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnLatencyAndTraceLatenessTest {
  private static int ids;

  private static RequestRecord ok(long startMs, double ttftMs, int inputTokens, RequestOrigin origin) {
    return new RequestRecord("r" + ++ids, "c2", startMs, startMs + 100, ttftMs, 5.0, 100.0, List.of(), inputTokens, 10, false, true, null, 200)
        .withOrigin(origin);
  }

  @Test
  void ttftIsGroupedByTurnInTurnOrder() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(ok(0, 30, 100, RequestOrigin.turn("conv-1", 2)));
    rs.add(ok(0, 10, 50, RequestOrigin.turn("conv-1", 1)));
    rs.add(ok(0, 20, 60, RequestOrigin.turn("conv-2", 1)));
    rs.add(ok(0, 50, 300, RequestOrigin.turn("conv-2", 2)));
    rs.add(RequestRecord.failed("x", "c2", null, 0, 10, "HTTP 400: too long", 400, null).withOrigin(RequestOrigin.turn("conv-2", 3)));
    rs.add(ok(0, 99, 1, null)); // no turn: left out
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
    assertTrue(TurnLatency.of(List.of(ok(0, 1, 1, null))).isEmpty());
  }

  @Test
  void latenessCountsFromTheMostPunctualRequest() {
    // the first request was sent 18 ms after the replay's first feed (a first user's one-time
    // costs), the others 0, 2 and 40 ms after their times: the replay started when request 3 says
    List<RequestRecord> rs = List.of(
        ok(0, 1, 1, RequestOrigin.trace(300_000, 302_000)),
        ok(0, 1, 1, RequestOrigin.trace(0, 18_000)),
        ok(0, 1, 1, RequestOrigin.trace(500_000, 500_000)),
        ok(0, 1, 1, RequestOrigin.trace(700_000, 740_000)),
        ok(0, 1, 1, null));
    TraceLateness l = TraceLateness.of(rs);
    assertEquals(4, l.requests());
    assertEquals(40.0, l.maxMs(), 1e-9);
    assertEquals(10.0, l.medianMs(), 1e-9);
    assertTrue(l.p99Ms() > 39 && l.p99Ms() <= 40, "p99 " + l.p99Ms());
    assertTrue(TraceLateness.of(List.of(ok(0, 1, 1, null))).isEmpty());
  }
}
