package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Ramp;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.TimelineSection;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** A ramp level cut into windows over time, and where its latency broke. */
class RampWindowsTest {

  private static final Ramp RAMP = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 2, 20);
  private static final double D = 20;
  private static final long T0 = 1_700_000_000_000L;

  /**
   * The ramp's requests sent when it expects them (the i-th at the time of i + 0.5 arrivals), the
   * first at {@code lead} s after the ramp's start, each with the TTFT {@code ttftAt(t)}.
   */
  private static List<RequestRecord> ramp(DoubleUnaryOperator ttftAt, int trial, long originMs) {
    List<RequestRecord> out = new ArrayList<>();
    int n = (int) Math.floor(RAMP.cumulative(D, D) - 0.5);
    double lead = RAMP.timeOf(0.5, D);
    for (int i = 0; i < n; i++) {
      double t = RAMP.timeOf(i + 0.5, D);
      long start = originMs + Math.round((t - lead) * 1000);
      out.add(
          TestRecords.ok(RAMP.tag())
              .start(start)
              .ttft(ttftAt.applyAsDouble(t))
              .origin(
                  trial == 0
                      ? null
                      : new RequestOrigin(
                          RequestOrigin.Workload.NONE,
                          new RequestOrigin.Sending(0, trial, RequestRecord.ABSENT)))
              .build());
    }
    return out;
  }

  private static RampWindows.Timing timing() {
    return new RampWindows.Timing(D, RAMP.timeOf(0.5, D));
  }

  @Test
  void latencyThatHoldsIsSaidToHoldAndEachWindowHasTheLoadAskedAndSent() {
    RampWindows w = RampWindows.of(ramp(t -> 50, 0, T0), timing());
    assertFalse(w.broke(), w.toString());
    assertEquals(20, w.windows().size(), "one window a second");
    RampWindows.Window first = w.windows().get(0);
    RampWindows.Window last = w.windows().get(19);
    assertEquals(RAMP.at(0.025), first.asked(), 1e-9);
    assertEquals(RAMP.at(0.975), last.asked(), 1e-9);
    // what the ramp expects in each second, within the one request a window edge may move
    assertEquals(RAMP.cumulative(1, D), first.sentPerSecond(), 1.01);
    assertEquals(RAMP.cumulative(20, D) - RAMP.cumulative(19, D), last.sentPerSecond(), 1.01);
    assertEquals(50, last.medianTtftMs(), 1e-9);
    assertEquals(
        "Ramp linear 2 to 20 req/s: latency held to 20 req/s (median TTFT and TPOT within 2x the"
            + " start's)",
        w.verdict());
  }

  @Test
  void latencyBreaksWhereTheMedianTtftPassesTwiceTheStartsAndStaysThere() {
    // 50 ms up to 12 s, then growing by 100 ms a second
    RampWindows w = RampWindows.of(ramp(t -> t < 12 ? 50 : 50 + 100 * (t - 11), 0, T0), timing());
    assertTrue(w.broke());
    assertEquals(12, w.breakAt(), w.windows().toString());
    assertEquals(RAMP.at(12 / D), w.brokeAtLoad(), 1e-9);
    assertTrue(w.brokeBy().startsWith("median TTFT"), w.brokeBy());
    assertTrue(
        w.verdict().startsWith("Ramp linear 2 to 20 req/s: latency broke at 12.8 req/s, 12 s in:"),
        w.verdict());
    String block = TimelineSection.rampBlock(w, "r2-20");
    assertTrue(block.contains(" Ramp (r2-20) "), block);
    assertTrue(block.lines().filter(l -> l.endsWith("<- broke")).count() == 1, block);
    assertTrue(block.contains("    12-13 "), block);
  }

  @Test
  void oneSlowWindowIsNoBreakButFailuresAre() {
    RampWindows blip = RampWindows.of(ramp(t -> t >= 8 && t < 9 ? 500 : 50, 0, T0), timing());
    assertFalse(blip.broke(), "a window alone, the next held: " + blip.windows());

    List<RequestRecord> failing = new ArrayList<>();
    for (RequestRecord r : ramp(t -> 50, 0, T0)) {
      boolean late = r.startMs() - T0 > 15_000;
      failing.add(
          late && r.id().hashCode() % 3 == 0
              ? TestRecords.failed(r.level(), "HTTP 503").start(r.startMs()).build()
              : r);
    }
    RampWindows failed = RampWindows.of(failing, timing());
    assertTrue(failed.broke(), failed.windows().toString());
    assertTrue(failed.brokeBy().contains("requests failed"), failed.brokeBy());
  }

  @Test
  void trialsAreLaidOverOneAnotherEachFromItsOwnStart() {
    List<RequestRecord> both = new ArrayList<>(ramp(t -> 50, 1, T0));
    both.addAll(ramp(t -> 50, 2, T0 + 300_000));
    RampWindows once = RampWindows.of(ramp(t -> 50, 0, T0), timing());
    RampWindows twice = RampWindows.of(both, timing());
    for (int i = 0; i < once.windows().size(); i++) {
      assertEquals(
          once.windows().get(i).sentPerSecond(), twice.windows().get(i).sentPerSecond(), 1e-9);
      assertEquals(2 * once.windows().get(i).requests(), twice.windows().get(i).requests());
    }
  }

  @Test
  void aLevelThatIsNoRampHasNone() {
    assertSame(
        RampWindows.NONE,
        RampWindows.of(List.of(TestRecords.ok("c8").build()), RampWindows.Timing.UNKNOWN));
    // without a timing, the ramp is timed by its sends
    RampWindows untimed = RampWindows.of(ramp(t -> 50, 0, T0), RampWindows.Timing.UNKNOWN);
    assertEquals(D, untimed.durationSeconds());
  }
}
