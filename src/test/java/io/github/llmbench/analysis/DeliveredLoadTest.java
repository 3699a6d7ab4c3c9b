package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.SlotIdle;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveredLoadTest {
  static final long T = 1_700_000_000_000L;

  /** {@code users} users each sending back to back, {@code gapMs} between a user's requests. */
  static List<RequestRecord> closedUsers(int users, int each, long durMs, long gapMs) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      long t = T + u * 5L; // not all idle at once
      for (int i = 0; i < each; i++) {
        rs.add(
            TestRecords.ok("c" + users)
                .id(u + "-" + i)
                .start(t)
                .end(t + durMs)
                .ttft(10)
                .tpot(5)
                .e2el(durMs)
                .outputTokens(10)
                .build());
        t += durMs + gapMs;
      }
    }
    return rs;
  }

  @Test
  void usersThatWaitBetweenRequestsDeliverLess() {
    List<RequestRecord> tight = closedUsers(8, 50, 1000, 0);
    DeliveredLoad full = DeliveredLoad.closed(8, SteadyState.compute(tight, 8), tight);
    assertEquals(DeliveredLoad.Kind.CLOSED, full.kind());
    assertEquals(8.0, full.delivered(), 1e-9);
    assertEquals(100.0, full.pct(), 1e-9);
    assertEquals(0.0, full.userWaitMs(), 1e-9);
    assertNull(full.guard("c8"));

    // 40 ms idle after each 1 s request: 1000 / 1040 of the time in flight, so never all 8 in
    // flight for long: no steady window, the level's time-weighted mean
    List<RequestRecord> idle = closedUsers(8, 50, 1000, 40);
    SteadyState steady = SteadyState.compute(idle, 8);
    DeliveredLoad some = DeliveredLoad.closed(8, steady, idle);
    assertEquals(8 * 1000.0 / 1040, some.delivered(), 0.05);
    assertTrue(some.pct() < 98, some.toString());
    String guard = some.guard("c8");
    assertTrue(guard.startsWith("the client delivered 96."), guard);
    assertTrue(guard.contains("requests in flight on average"), guard);
  }

  @Test
  void slotIdleTimesAreThoseOfTheRequestsSentInTheSteadyWindow() {
    // each user's requests after its first say how long its slot stood idle (2 ms and a few µs);
    // one user goes on alone after the others (the window, all 8 in flight, has closed), 9 ms
    List<RequestRecord> rs = new ArrayList<>();
    for (RequestRecord r : closedUsers(8, 50, 1000, 0)) {
      int i = Integer.parseInt(r.id().substring(r.id().indexOf('-') + 1));
      rs.add(i == 0 ? r : r.toBuilder().part(SlotIdle.PART, 2_000L + i).build());
    }
    for (int k = 0; k < 5; k++) {
      long start = T + 51_000 + k * 1009L;
      rs.add(
          TestRecords.ok("c8")
              .id("alone-" + k)
              .start(start)
              .end(start + 1000)
              .ttft(10)
              .outputTokens(10)
              .build()
              .toBuilder()
              .part(SlotIdle.PART, 9_000L)
              .build());
    }
    DeliveredLoad d = DeliveredLoad.closed(8, SteadyState.compute(rs, 8), rs);
    assertEquals(8 * 49, d.slotIdle().count());
    assertEquals(2.0, d.slotIdle().median(), 0.05);
    assertTrue(d.slotIdle().value(Statistic.P99) < 2.05, d.slotIdle().toString());
  }

  @Test
  void aLevelWithoutSlotIdleTimesHasNone() {
    List<RequestRecord> rs = closedUsers(4, 10, 1000, 0);
    assertEquals(0, DeliveredLoad.closed(4, SteadyState.compute(rs, 4), rs).slotIdle().count());
  }

  /** Arrivals every 100 ms; each send {@code slip} ms later than the one before it should be. */
  static List<RequestRecord> sends(int n, long slipMs) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long start = T + i * (100 + slipMs);
      rs.add(
          TestRecords.ok("r10")
              .id("s" + i)
              .start(start)
              .end(start + 50)
              .ttft(10)
              .tpot(5)
              .e2el(50)
              .outputTokens(9)
              .build());
    }
    return rs;
  }

  static double[] every100Ms(int n) {
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = 0.05 + 0.1 * i;
    }
    return a;
  }

  @Test
  void openSendsAreJudgedAgainstTheirSchedule() {
    DeliveredLoad onTime = DeliveredLoad.open(every100Ms(101), sends(101, 0));
    assertEquals(DeliveredLoad.Kind.OPEN, onTime.kind());
    assertEquals(10.0, onTime.asked(), 1e-9);
    assertEquals(10.0, onTime.delivered(), 1e-9);
    assertEquals(0.0, onTime.sendLateness().value(Statistic.P99), 1e-9);
    assertEquals(50.0, onTime.e2elWithWait().mean(), 1e-9);
    assertNull(onTime.guard("r10"));

    // a capped client: each send 10 ms later than the last, so the 101st is 1 s late
    DeliveredLoad behind = DeliveredLoad.open(every100Ms(101), sends(101, 10));
    assertEquals(100.0 / 11, behind.delivered(), 1e-9);
    assertEquals(100.0 * 10 / 11, behind.pct(), 1e-9);
    assertEquals(500.0, behind.sendLateness().median(), 1e-9);
    assertTrue(behind.e2elWithWait().value(Statistic.P99) > 1000, behind.toString());
    String guard = behind.guard("r10");
    assertTrue(guard.startsWith("the client delivered 90.9% of the asked arrivals at r10"), guard);
    assertTrue(guard.contains("(coordinated omission)"), guard);

    assertEquals(0, behind.clientQueue().count(), "no record says it queued");

    // fewer sends than arrivals (the run ended): judged on those sent
    assertEquals(10.0, DeliveredLoad.open(every100Ms(200), sends(50, 0)).delivered(), 1e-9);
    assertEquals(DeliveredLoad.NONE, DeliveredLoad.open(every100Ms(10), sends(1, 0)));
  }
}
