package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.ServerTimings;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRecordsTest {

  @Test
  void aCompletedRecordsDefaultsAreConsistent() {
    RequestRecord r = TestRecords.ok("c8").id("a").start(1000).build();
    assertEquals(
        RequestRecord.builder()
            .id("a")
            .level("c8")
            .startMs(1000)
            .endMs(1045)
            .ttftMs(10.0)
            .tpotMs(5.0)
            .e2elMs(45.0)
            .itlMs(List.of(5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0))
            .inputTokens(10)
            .outputTokens(8)
            .ok(true)
            .httpStatus(200)
            .build(),
        r);

    // tpot and e2el derive one from the other; itl and end follow
    RequestRecord fromTpot =
        TestRecords.ok("c8").id("b").start(1000).ttft(50).tpot(10).outputTokens(32).build();
    assertEquals(360.0, fromTpot.e2elMs());
    assertEquals(1360, fromTpot.endMs());
    assertEquals(31, fromTpot.itlMs().size());
    assertEquals(310_000, fromTpot.itlMs().sumMicros());
    RequestRecord fromE2el = TestRecords.ok("c8").ttft(100).e2el(1000).outputTokens(4).build();
    assertEquals(300.0, fromE2el.tpotMs());
    assertEquals(List.of(300.0, 300.0, 300.0), fromE2el.itlMs());
    RequestRecord one = TestRecords.ok("c8").ttft(100).outputTokens(1).build();
    assertNull(one.tpotMs());
    assertEquals(100.0, one.e2elMs());
    assertEquals(List.of(), one.itlMs());

    // ids are unique unless set
    assertNotEquals(TestRecords.ok("c1").build().id(), TestRecords.ok("c1").build().id());
  }

  @Test
  void aFailedRecordHasNoLatencies() {
    RequestRecord f = TestRecords.failed("c2", "HTTP 500").id("f").start(5).status(500).build();
    assertEquals(
        RequestRecord.builder()
            .id("f")
            .level("c2")
            .startMs(5)
            .endMs(5)
            .error("HTTP 500")
            .httpStatus(500)
            .build(),
        f);
    assertEquals(
        RequestRecord.builder()
            .id("x")
            .level("c2")
            .startMs(5)
            .endMs(9)
            .error("timeout")
            .inputTokens(12)
            .build(),
        TestRecords.failed("c2", "timeout").id("x").start(5).end(9).inputTokens(12).build());
  }

  @Test
  void everyFieldCanBeSetAndACopyIsEqual() {
    ServerTimings t = new ServerTimings(59, 45.791, 3, 4.394, 2.197);
    ItlSeries itl = ItlSeries.ofMillis(List.of(1.0, 2.0));
    RequestRecord r =
        TestRecords.ok("c4")
            .id("req-3")
            .start(10)
            .end(20)
            .ttft(1.5)
            .tpot(0.25)
            .e2el(4.0)
            .itl(itl)
            .inputTokens(null)
            .outputTokens(3)
            .estimated(true)
            .error("e")
            .status(null)
            .profile("SS")
            .serverTimings(t)
            .origin(RequestOrigin.turn("conv", 2))
            .build();
    assertEquals(
        RequestRecord.builder()
            .id("req-3")
            .level("c4")
            .startMs(10)
            .endMs(20)
            .ttftMs(1.5)
            .tpotMs(0.25)
            .e2elMs(4.0)
            .itlMs(List.of(1.0, 2.0))
            .outputTokens(3)
            .outputTokensEstimated(true)
            .ok(true)
            .error("e")
            .profile("SS")
            .serverTimings(t)
            .origin(RequestOrigin.turn("conv", 2))
            .build(),
        r);
    assertSame(itl, r.itlMs());
    assertEquals(r, TestRecords.from(r).build());
    assertEquals(20.0, TestRecords.from(r).ttft(20.0).build().ttftMs());
  }
}
