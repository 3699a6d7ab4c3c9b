package io.github.llmbench.core;

/** Seeds derived from the run's seed. */
public final class Seeds {
  private Seeds() {}

  /**
   * Scrambles a seed (MurmurHash3's finalizer): nearby inputs give unrelated outputs, where
   * java.util.Random's first draws from consecutive seeds are correlated.
   */
  public static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
    z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
    return z ^ (z >>> 33);
  }
}
