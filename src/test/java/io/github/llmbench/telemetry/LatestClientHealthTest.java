package io.github.llmbench.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ClientSample;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LatestClientHealthTest {

  static final long SPAN_MS = 1000;
  static final int CORES = 4;

  /** A second's sample with these lateness values, half the cores' time used. */
  static ClientSample sample(long[] lagMicros, int[] lagCounts) {
    return sample(lagMicros, lagCounts, TimeUnit.MILLISECONDS.toNanos(SPAN_MS) * CORES / 2);
  }

  static ClientSample sample(long[] lagMicros, int[] lagCounts, long processNanos) {
    return new ClientSample(
        1_000_000,
        SPAN_MS,
        new ClientSample.Cpu(CORES, processNanos, new long[] {-1}),
        new ClientSample.Memory(0, 0),
        new ClientSample.Lag(lagMicros, lagCounts, 0, 0));
  }

  @Test
  void theLagIsTheP99OfTheProbesTasksByNearestRank() {
    long quick = 20;
    long stalled = 5_000;
    // 100 tasks: the 99th by lateness is the first stalled one when 2 stalled, a quick one when 1
    assertEquals(
        stalled / 1e6,
        LatestClientHealth.of(sample(new long[] {quick, stalled}, new int[] {98, 2}))
            .loopLagP99Seconds());
    assertEquals(
        quick / 1e6,
        LatestClientHealth.of(sample(new long[] {quick, stalled}, new int[] {99, 1}))
            .loopLagP99Seconds());
    assertTrue(
        Double.isNaN(LatestClientHealth.of(sample(new long[0], new int[0])).loopLagP99Seconds()),
        "no task ran: not known");
  }

  @Test
  void theCpuRatioIsTheProcesssTimePerCoreOverTheStretch() {
    assertEquals(0.5, LatestClientHealth.of(sample(new long[0], new int[0])).cpuRatio(), 1e-12);
    assertTrue(
        Double.isNaN(LatestClientHealth.of(sample(new long[0], new int[0], -1)).cpuRatio()),
        "the JVM cannot tell: not known");
  }
}
