package io.github.llmbench.injection;

import io.github.llmbench.core.Ramp;
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

  /**
   * A rate ramp's gaps in seconds: a renewal process of gamma gaps with shape {@code burstiness}
   * and mean 1 in expected arrivals, each arrival's time the instant the ramp expects that many
   * ({@link Ramp#timeOf}); a Poisson process so becomes one of the ramp's changing rate. {@code
   * count} arrivals over the time the ramp expects them to take, or as many as fall within {@code
   * durationSeconds}.
   */
  public static List<Double> ramped(
      Ramp ramp, double burstiness, int count, double durationSeconds, long seed) {
    double d = rampSeconds(ramp, count, durationSeconds);
    Random rnd = new Random(seed);
    List<Double> gaps = new ArrayList<>();
    double expected = 0;
    double previous = 0;
    while (count <= 0 || gaps.size() < count) {
      expected += gamma(burstiness, rnd) / burstiness;
      double t = ramp.timeOf(expected, d);
      if (count <= 0 && !(t < durationSeconds)) {
        break;
      }
      if (!Double.isFinite(t)) { // a falling ramp that expects no more: the rest at its end
        t = Math.max(previous, d);
      }
      gaps.add(t - previous);
      previous = t;
    }
    return gaps;
  }

  /**
   * How long a rate ramp lasts: {@code durationSeconds}, or with a {@code count} of arrivals, the
   * time the ramp expects them to take.
   */
  public static double rampSeconds(Ramp ramp, int count, double durationSeconds) {
    return count > 0 ? count / ramp.cumulative(1, 1) : durationSeconds;
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
