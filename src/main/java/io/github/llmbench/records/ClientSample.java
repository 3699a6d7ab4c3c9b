package io.github.llmbench.records;

import java.util.Arrays;

/**
 * The load generator's own health over a stretch of the run (a second, or up to a level's end), as
 * written to {@code llm/client.jsonl}: how late the probe's tasks ran on each of Gatling's event
 * loops, the CPU the process and each loop's thread used, GC pauses and the heap in use.
 *
 * @param timeMs the end of the stretch (epoch ms)
 * @param spanMs its length
 * @param cpu the CPU the JVM and its event loops used over the stretch
 * @param memory GC pauses over the stretch and the heap in use at its end
 * @param lag how late the probe's tasks ran
 */
public record ClientSample(long timeMs, long spanMs, Cpu cpu, Memory memory, Lag lag) {

  /** A task this late counts in {@code lateMicros}. */
  public static final long LATE_MICROS = 1000;

  /** How often the probe's task runs on each event loop. */
  public static final long PROBE_PERIOD_MS = 100;

  /**
   * The CPU used over a stretch.
   *
   * @param cores the cores the JVM may run on ({@code availableProcessors}: CPU sets and quotas)
   * @param processNanos CPU time of the whole JVM, or -1 when the JVM cannot tell
   * @param loopNanos CPU time of each event loop's thread (-1 where unknown)
   */
  public record Cpu(int cores, long processNanos, long[] loopNanos) {
    public Cpu {
      loopNanos = loopNanos.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Cpu c
          && cores == c.cores
          && processNanos == c.processNanos
          && Arrays.equals(loopNanos, c.loopNanos);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(processNanos) * 31 + Arrays.hashCode(loopNanos);
    }

    @Override
    public String toString() {
      return "Cpu[" + cores + " cores, " + processNanos + " ns]";
    }
  }

  /**
   * @param gcPauseMillis time in GC collections that pause the application over the stretch
   * @param heapUsedBytes heap in use at its end
   */
  public record Memory(long gcPauseMillis, long heapUsedBytes) {}

  /**
   * How late the probe's tasks ran over a stretch.
   *
   * @param micros the distinct lateness values, in µs, {@link #lagBucket rounded}, ascending
   * @param counts how many tasks ran that late, for each of {@code micros}
   * @param lateMicros the summed lateness of the tasks at least {@value #LATE_MICROS} µs late
   *     (whose loop's CPU time while they waited is known)
   * @param lateBusyMicros the loop's own CPU time while those tasks waited: near {@code lateMicros}
   *     when the loop was late from its own work, near 0 when its thread waited for a core
   */
  public record Lag(long[] micros, int[] counts, long lateMicros, long lateBusyMicros) {
    public Lag {
      if (micros.length != counts.length) {
        throw new IllegalArgumentException(
            "lag values and counts differ in length: " + micros.length + ", " + counts.length);
      }
      micros = micros.clone();
      counts = counts.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Lag l
          && Arrays.equals(micros, l.micros)
          && Arrays.equals(counts, l.counts)
          && lateMicros == l.lateMicros
          && lateBusyMicros == l.lateBusyMicros;
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
      return "Lag[" + micros.length + " values]";
    }
  }

  public int cores() {
    return cpu.cores();
  }

  /** CPU time of the whole JVM over the stretch, or -1 when the JVM cannot tell. */
  public long processCpuNanos() {
    return cpu.processNanos();
  }

  /** CPU time of each event loop's thread over the stretch (-1 where unknown). */
  public long[] loopCpuNanos() {
    return cpu.loopNanos();
  }

  public long gcPauseMillis() {
    return memory.gcPauseMillis();
  }

  public long heapUsedBytes() {
    return memory.heapUsedBytes();
  }

  /** See {@link Lag#micros}. */
  public long[] lagMicros() {
    return lag.micros();
  }

  /** See {@link Lag#counts}. */
  public int[] lagCounts() {
    return lag.counts();
  }

  /** See {@link Lag#lateMicros}. */
  public long lateMicros() {
    return lag.lateMicros();
  }

  /** See {@link Lag#lateBusyMicros}. */
  public long lateBusyMicros() {
    return lag.lateBusyMicros();
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
    for (int c : lag.counts()) {
      n += c;
    }
    return n;
  }

  @Override
  public String toString() {
    return "ClientSample[" + timeMs + ", " + spanMs + " ms, " + lagCount() + " probes]";
  }
}
