package io.github.llmbench.simulator;

/**
 * How late the simulator sent streamed tokens: for each token, the time its chunk was flushed to
 * the socket minus the scheduled end of the engine step that produced it.
 *
 * @param count tokens measured
 * @param p50Ms median lateness, ms (0.1 ms resolution)
 * @param p99Ms 99th percentile, ms (0.1 ms resolution; 50 ms means "50 ms or more")
 * @param maxMs largest lateness seen, ms (exact)
 */
public record Lateness(long count, double p50Ms, double p99Ms, double maxMs) {
  @Override
  public String toString() {
    return String.format("n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms", count, p50Ms, p99Ms, maxMs);
  }
}
