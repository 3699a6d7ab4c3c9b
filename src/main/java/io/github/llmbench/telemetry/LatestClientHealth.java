package io.github.llmbench.telemetry;

import io.github.llmbench.records.ClientSample;

/**
 * The load generator's own health over its latest probe stretch, for the live exports: how late the
 * event loops ran the probe's tasks (their P99) and how busy the process kept the cores it may use.
 * A client that lags or runs out of CPU measures its own delays as the server's. The live view of
 * one stretch, where the report's {@code analysis.ClientHealth} judges a level (the same
 * nearest-rank P99; the CPU as a ratio, not a percentage): telemetry does not depend on analysis.
 *
 * @param loopLagP99Seconds the P99 of the probe tasks' lateness over the stretch, NaN when no task
 *     ran
 * @param cpuRatio the process's CPU time over the stretch divided by the stretch's length times the
 *     cores, NaN when the JVM cannot tell
 */
public record LatestClientHealth(double loopLagP99Seconds, double cpuRatio) {

  /** Before the first sample: nothing known. */
  static final LatestClientHealth UNKNOWN = new LatestClientHealth(Double.NaN, Double.NaN);

  /** The quantile of the loop lag the exports show: the tail that delays reads. */
  static final double LAG_QUANTILE = 0.99;

  /** The health one sample shows. */
  public static LatestClientHealth of(ClientSample s) {
    return new LatestClientHealth(lagQuantileSeconds(s, LAG_QUANTILE), cpuRatio(s));
  }

  /** The lateness at {@code q} of the sample's probe tasks (nearest rank), in seconds. */
  static double lagQuantileSeconds(ClientSample s, double q) {
    long n = s.lagCount();
    if (n == 0) {
      return Double.NaN;
    }
    long rank = Math.max(1, (long) Math.ceil(q * n));
    long[] micros = s.lagMicros();
    int[] counts = s.lagCounts();
    long seen = 0;
    for (int i = 0; i < micros.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return micros[i] / 1e6;
      }
    }
    return micros[micros.length - 1] / 1e6;
  }

  private static double cpuRatio(ClientSample s) {
    if (s.processCpuNanos() < 0 || s.spanMs() <= 0 || s.cores() <= 0) {
      return Double.NaN;
    }
    return s.processCpuNanos() / (s.spanMs() * 1e6 * s.cores());
  }
}
