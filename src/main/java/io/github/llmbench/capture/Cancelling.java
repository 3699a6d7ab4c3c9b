package io.github.llmbench.capture;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Seeds;

/**
 * Which requests the client cancels on purpose, and when: a share of the measured ones, picked by
 * the run's seed and the request's id (so a pinned seed cancels the same requests), each closed
 * {@code afterNanos} after its send, as a user closing a tab does.
 *
 * @param share the share cancelled, 0 to 1
 */
public record Cancelling(double share, long afterNanos, long seed) {
  public static final Cancelling NONE = new Cancelling(0, 0, 0);

  /** What {@link #afterNanos(String, String)} gives for a request that is not cancelled. */
  public static final long NEVER = -1;

  /**
   * @return how long after its send request {@code id} of {@code level} is cancelled, or {@link
   *     #NEVER}; the warmup's requests never are
   */
  public long afterNanos(String id, String level) {
    if (share <= 0 || Level.WARMUP.tag().equals(level)) {
      return NEVER;
    }
    long z = Seeds.mix(seed ^ (id.hashCode() * 0x9E3779B97F4A7C15L));
    double u = (z >>> 11) * 0x1.0p-53;
    return u < share ? afterNanos : NEVER;
  }
}
