package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ClientSample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientHealthTest {

  /**
   * A second of samples ending at {@code endMs}: two loops, lag values as given (µs, each once).
   */
  static ClientSample second(long endMs, double loop0Busy, double loop1Busy, long... lagMicros) {
    return second(endMs, loop0Busy, loop1Busy, 0.0, lagMicros);
  }

  /** As above, the loops running for {@code ownShare} of the time their late tasks waited. */
  static ClientSample second(
      long endMs, double loop0Busy, double loop1Busy, double ownShare, long... lagMicros) {
    long late = Arrays.stream(lagMicros).filter(v -> v >= ClientSample.LATE_MICROS).sum();
    long[] values = lagMicros.clone();
    Arrays.sort(values);
    int[] counts = new int[values.length];
    Arrays.fill(counts, 1);
    return new ClientSample(
        endMs,
        1000,
        new ClientSample.Cpu(
            4,
            (long) ((loop0Busy + loop1Busy) * 1e9),
            new long[] {(long) (loop0Busy * 1e9), (long) (loop1Busy * 1e9)}),
        new ClientSample.Memory(3, 200L << 20),
        new ClientSample.Lag(values, counts, late, (long) (late * ownShare)));
  }

  static long[] lags(int n, long micros) {
    long[] out = new long[n];
    Arrays.fill(out, micros);
    return out;
  }

  @Test
  void figuresOverTheSamplesOfTheWindow() {
    List<ClientSample> samples = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      // 99 probes at 50 µs and one at 2 ms each second
      long[] lag = lags(100, 50);
      lag[0] = 2000;
      samples.add(second(i * 1000L, 0.30, 0.50, lag));
    }
    ClientHealth h = ClientHealth.of(samples, 0, 10_000, 2_000, 8_000);
    ClientHealth.Window l = h.level();
    assertEquals(10.0, l.windowS(), 1e-9);
    assertEquals(2, l.loops());
    assertEquals(0.80, l.cpuCores(), 1e-6);
    assertEquals(50.0, l.busiestLoopPct(), 1e-6, "the busiest loop, not their sum");
    assertEquals(0.050, l.lagP50Ms(), 1e-9);
    // 1,000 probes, 10 of them 2 ms late: the 990th is 50 µs, the p99
    assertEquals(0.050, l.lagP99Ms(), 1e-9);
    assertEquals(2.0, l.lagMaxMs(), 1e-9);
    assertEquals(1000, l.probes());
    assertEquals(30, l.gcPauseMs(), 1e-9);
    assertEquals(0.3, l.gcPausePct(), 1e-9);
    assertEquals(200, l.heapMaxMb(), 1e-9);
    // the steady window: the samples whose middle is in [2 s, 8 s]: those ending at 3..8 s
    assertEquals(6.0, h.steady().windowS(), 1e-9);
    assertEquals(ClientHealth.Verdict.HEALTHY, h.verdict());
    assertNull(h.guard("c8"));
  }

  @Test
  void aLateLoopOrABusyCoreIsABottleneckNamedInTheGuard() {
    List<ClientSample> late = new ArrayList<>();
    List<ClientSample> busy = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      long[] lag = lags(100, 60);
      for (int k = 0; k < 5; k++) {
        lag[k] = 41_000;
      }
      late.add(second(i * 1000L, 0.2, 0.3, lag));
      busy.add(second(i * 1000L, 0.97, 0.3, lags(100, 60)));
    }
    ClientHealth l = ClientHealth.of(late, 0, 5_000, 0, 0);
    assertEquals(41.0, l.level().lagP99Ms(), 1e-9);
    assertEquals(ClientHealth.Verdict.DELAYED, l.verdict(), "late while its loops did not run");
    assertEquals(0.0, l.level().lateOwnPct(), 1e-9);
    assertFalse(l.steady().measured(), "no steady window: judged on the level");
    String delayed = l.guard("c16");
    assertTrue(
        delayed.startsWith(
            "the client's event loops ran late at c16: lag p99 41.00 ms (max 41.0 ms), running"
                + " for only 0% of that time, so they waited for a core"),
        delayed);
    assertTrue(delayed.contains("its TTFT/ITL readings carry up to that error"), delayed);

    List<ClientSample> lateAndBusy = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      long[] lag = lags(100, 60);
      for (int k = 0; k < 5; k++) {
        lag[k] = 41_000;
      }
      lateAndBusy.add(second(i * 1000L, 0.3, 0.3, 0.9, lag));
    }
    ClientHealth own = ClientHealth.of(lateAndBusy, 0, 5_000, 0, 0);
    assertEquals(90.0, own.level().lateOwnPct(), 1e-6);
    assertEquals(
        ClientHealth.Verdict.BOTTLENECK, own.verdict(), "late from its own work, however idle");
    String guard = own.guard("c1024");
    assertTrue(
        guard.startsWith(
            "the client was the bottleneck at c1024: event-loop lag p99 41.00 ms (max 41.0 ms),"
                + " busiest loop 30% of a core, the JVM 0.60 of its 4 cores"),
        guard);
    assertTrue(guard.contains("its TTFT/ITL readings carry up to that error"), guard);

    ClientHealth b = ClientHealth.of(busy, 0, 5_000, 0, 0);
    assertEquals(0.060, b.level().lagP99Ms(), 1e-9);
    assertEquals(97.0, b.level().busiestLoopPct(), 1e-6);
    assertEquals(ClientHealth.Verdict.BOTTLENECK, b.verdict());
  }

  @Test
  void lateLoopsOfAJvmThatHoldsItsCoresAreItsOwnBottleneck() {
    // one core, two loops sharing it: each waits for the other, neither runs while late
    long[] lag = lags(100, 100);
    Arrays.fill(lag, 0, 5, 30_000);
    ClientSample s =
        new ClientSample(
            1000,
            1000,
            new ClientSample.Cpu(1, 950_000_000L, new long[] {470_000_000L, 470_000_000L}),
            new ClientSample.Memory(0, 100L << 20),
            new ClientSample.Lag(new long[] {100, 30_000}, new int[] {95, 5}, 150_000, 0));
    ClientHealth h = ClientHealth.of(List.of(s), 0, 1000, 0, 0);
    assertEquals(95.0, h.level().cpuPct(), 1e-9);
    assertEquals(0.0, h.level().lateOwnPct(), 1e-9);
    assertEquals(ClientHealth.Verdict.BOTTLENECK, h.verdict());
  }

  @Test
  void theSteadyWindowIsJudgedWhereItWasMeasured() {
    List<ClientSample> samples = new ArrayList<>();
    // a late start (JIT, connections) then a quiet steady window
    samples.add(second(1000, 0.9, 0.9, 1.0, lags(100, 30_000)));
    for (int i = 2; i <= 6; i++) {
      samples.add(second(i * 1000L, 0.2, 0.2, lags(100, 40)));
    }
    ClientHealth h = ClientHealth.of(samples, 0, 6_000, 1_500, 6_000);
    assertEquals(ClientHealth.Verdict.BOTTLENECK, h.level().verdict());
    assertEquals(ClientHealth.Verdict.HEALTHY, h.verdict());
  }

  @Test
  void noSamplesNoVerdict() {
    assertEquals(ClientHealth.NONE, ClientHealth.of(List.of(), 0, 1000, 0, 0));
    assertEquals(ClientHealth.Verdict.UNMEASURED, ClientHealth.NONE.verdict());
    assertNull(ClientHealth.NONE.guard("c8"));
    // samples outside the window
    ClientHealth h = ClientHealth.of(List.of(second(50_000, 0.1, 0.1, 40)), 0, 1000, 0, 0);
    assertFalse(h.level().measured());
  }

  @Test
  void lagIsKeptToTwoSignificantDigits() {
    assertEquals(0, ClientSample.lagBucket(-3));
    assertEquals(99, ClientSample.lagBucket(99));
    assertEquals(150, ClientSample.lagBucket(154));
    assertEquals(160, ClientSample.lagBucket(155));
    assertEquals(1200, ClientSample.lagBucket(1234));
    assertEquals(41_000, ClientSample.lagBucket(40_987));
    for (long v = 0; v < 2_000_000; v += 7) {
      long b = ClientSample.lagBucket(v);
      assertTrue(Math.abs(b - v) <= 0.05 * v + 1e-9, v + " -> " + b);
    }
  }
}
