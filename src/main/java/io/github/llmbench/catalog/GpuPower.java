package io.github.llmbench.catalog;

/**
 * What one accelerator draws, for the simulator's stand-in of NVIDIA's DCGM exporter: at rest and
 * at its board limit. See {@link Catalog#power(String)} for where the figures come from.
 *
 * @param idleWatts the board's draw with the model loaded and nothing running
 * @param boardWatts its power limit (TGP/TDP): what a step that keeps the tensor cores busy draws
 */
public record GpuPower(double idleWatts, double boardWatts) {
  public GpuPower {
    if (!(idleWatts > 0 && boardWatts > idleWatts)) {
      throw new IllegalArgumentException(
          "a GPU's idle draw must be above 0 and below its board power: "
              + idleWatts
              + ", "
              + boardWatts);
    }
  }
}
