package io.github.llmbench.injection;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Open-model arrival gaps as vLLM schedules them: gamma-distributed with shape {@code burstiness}
 * and mean {@code 1 / rate} (shape 1 is a Poisson process; below 1 burstier, above 1 more even).
 * The coefficient of variation of the gaps is 1 / sqrt(burstiness).
 */
public final class Arrivals {
  private Arrivals() {}

  /** Gaps in seconds: {@code count} of them, or as many as fit in {@code durationSeconds}. */
  public static List<Double> gaps(
      double rate, double burstiness, int count, double durationSeconds, long seed) {
    Random rnd = new Random(seed);
    double scale = 1.0 / (rate * burstiness);
    List<Double> gaps = new ArrayList<>();
    double t = 0;
    while (count > 0 ? gaps.size() < count : t < durationSeconds) {
      double g = gamma(burstiness, rnd) * scale;
      t += g;
      if (count <= 0 && t >= durationSeconds) {
        break;
      }
      gaps.add(g);
    }
    return gaps;
  }

  /** A Gamma(shape, 1) draw: Marsaglia and Tsang's method, boosted for shape < 1. */
  static double gamma(double shape, Random rnd) {
    if (shape < 1) {
      double u = rnd.nextDouble();
      return gamma(shape + 1, rnd) * Math.pow(u, 1 / shape);
    }
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = rnd.nextGaussian();
      double v = 1 + c * x;
      if (v <= 0) {
        continue;
      }
      v = v * v * v;
      double u = rnd.nextDouble();
      if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
        return d * v;
      }
    }
  }
}
