package io.github.llmbench.records;

import java.util.Arrays;

/**
 * The load generator's own health over a stretch of the run (a second, or up to a level's end), as
 * written to {@code llm/client.jsonl}: how late the probe's tasks ran on each of Gatling's event
 * loops, the CPU the process and each loop's thread used, GC pauses and the heap in use.
 *
 * @param timeMs the end of the stretch (epoch ms)
 * @param spanMs its length
 * @param cores the cores the JVM may run on ({@code availableProcessors}: CPU sets and quotas)
 * @param processCpuNanos CPU time of the whole JVM over the stretch, or -1 when the JVM cannot tell
 * @param loopCpuNanos CPU time of each event loop's thread over the stretch (-1 where unknown)
 * @param gcPauseMillis time in GC collections that pause the application over the stretch
 * @param heapUsedBytes heap in use at its end
 * @param lagMicros the distinct lateness values of the probe's tasks, in µs, {@link #lagBucket
 *     rounded}, ascending
 * @param lagCounts how many tasks ran that late, for each of {@code lagMicros}
 * @param lateMicros the summed lateness of the tasks at least {@value #LATE_MICROS} µs late (whose
 *     loop's CPU time while they waited is known)
 * @param lateBusyMicros the loop's own CPU time while those tasks waited: near {@code lateMicros}
 *     when the loop was late from its own work, near 0 when its thread waited for a core
 */
public record ClientSample(
    long timeMs,
    long spanMs,
    int cores,
    long processCpuNanos,
    long[] loopCpuNanos,
    long gcPauseMillis,
    long heapUsedBytes,
    long[] lagMicros,
    int[] lagCounts,
    long lateMicros,
    long lateBusyMicros) {

  /** A task this late counts in {@code lateMicros}. */
  public static final long LATE_MICROS = 1000;

  /** How often the probe's task runs on each event loop. */
  public static final long PROBE_PERIOD_MS = 100;

  public ClientSample {
    if (lagMicros.length != lagCounts.length) {
      throw new IllegalArgumentException(
          "lag values and counts differ in length: " + lagMicros.length + ", " + lagCounts.length);
    }
    loopCpuNanos = loopCpuNanos.clone();
    lagMicros = lagMicros.clone();
    lagCounts = lagCounts.clone();
  }

  /**
   * A lateness as kept: exact under 100 µs, else to two significant digits (at most 5% off), so a
   * second of probes on a loop fits in a few dozen values.
   */
  public static long lagBucket(long micros) {
    if (micros < 100) {
      return Math.max(0, micros);
    }
    long scale = 1;
    while (micros >= 100 * scale) {
      scale *= 10;
    }
    return Math.round((double) micros / scale) * scale;
  }

  /** How many probe tasks ran in the stretch. */
  public long lagCount() {
    long n = 0;
    for (int c : lagCounts) {
      n += c;
    }
    return n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClientSample s
        && timeMs == s.timeMs
        && spanMs == s.spanMs
        && cores == s.cores
        && processCpuNanos == s.processCpuNanos
        && gcPauseMillis == s.gcPauseMillis
        && heapUsedBytes == s.heapUsedBytes
        && Arrays.equals(loopCpuNanos, s.loopCpuNanos)
        && Arrays.equals(lagMicros, s.lagMicros)
        && Arrays.equals(lagCounts, s.lagCounts)
        && lateMicros == s.lateMicros
        && lateBusyMicros == s.lateBusyMicros;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(timeMs) * 31 + Arrays.hashCode(lagCounts);
  }

  @Override
  public String toString() {
    return "ClientSample[" + timeMs + ", " + spanMs + " ms, " + lagCount() + " probes]";
  }
}
