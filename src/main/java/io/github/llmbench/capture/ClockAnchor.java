package io.github.llmbench.capture;

/**
 * Maps {@link System#nanoTime()} readings to epoch milliseconds. Durations are taken on the
 * monotonic clock (it never jumps); records and Gatling's stats also need wall-clock times to place
 * requests on the run's timeline, which one reading of both clocks at start-up gives.
 */
public final class ClockAnchor {
  private static final long EPOCH_MS = System.currentTimeMillis();
  private static final long NANOS = System.nanoTime();

  private ClockAnchor() {}

  /** The epoch millisecond (rounded down) of a {@link System#nanoTime()} reading. */
  public static long epochMs(long nanos) {
    return EPOCH_MS + Math.floorDiv(nanos - NANOS, 1_000_000L);
  }
}
