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
        new RequestRecord(
            "a",
            "c8",
            1000,
            1045,
            10.0,
            5.0,
            45.0,
            List.of(5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0),
            10,
            8,
            false,
            true,
            null,
            200,
            null,
            null),
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
        new RequestRecord(
            "f", "c2", 5, 5, null, null, null, null, null, null, false, false, "HTTP 500", 500),
        f);
    assertEquals(
        RequestRecord.failed("x", "c2", null, 5, 9, "timeout", null, 12),
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
        new RequestRecord(
                "req-3",
                "c4",
                10,
                20,
                1.5,
                0.25,
                4.0,
                List.of(1.0, 2.0),
                null,
                3,
                true,
                true,
                "e",
                null,
                "SS",
                t)
            .withOrigin(RequestOrigin.turn("conv", 2)),
        r);
    assertSame(itl, r.itlMs());
    assertEquals(r, TestRecords.from(r).build());
    assertEquals(20.0, TestRecords.from(r).ttft(20.0).build().ttftMs());
  }
}
