package io.github.llmbench.simulator;

import java.util.SplittableRandom;

/**
 * Noise and slowdown dialled into the engine's step times ({@code --noise}, {@code --slowdown},
 * {@code --seed}; the kit's {@code -Dsim.noise}, {@code -Dsim.slowdown} and the run's seed), so
 * that figures spread within a run and between runs as on a real server, and a known regression can
 * be injected.
 *
 * <p>Each step's duration (the {@link CostModel}'s) is multiplied by {@code slowdown x jitter x
 * drift}:
 *
 * <ul>
 *   <li><b>jitter</b>: drawn afresh for every step, lognormal with mean 1 and coefficient of
 *       variation {@code cv};
 *   <li><b>drift</b>: {@code exp(X)}, where {@code X} is an Ornstein-Uhlenbeck process over the
 *       engine's clock with correlation time {@link #DRIFT_SECONDS}, stationary so that the drift
 *       is lognormal with mean 1 and coefficient of variation {@code cv / 2}; it starts from that
 *       stationary distribution (so runs differ from each other), and moves on at each step by the
 *       time elapsed since the previous one (the exact discretisation, whatever the step's length).
 * </ul>
 *
 * The two are independent, so the product has mean {@code slowdown} and a coefficient of variation
 * of {@code sqrt((1 + cv^2)(1 + cv^2/4) - 1)} (about {@code 1.12 cv}). {@code cv = 0} and {@code
 * slowdown = 1} ({@link #NONE}) leave every step time as the cost model gives it, bit for bit.
 *
 * @param cv the step-to-step jitter's coefficient of variation, from 0 to {@link #MAX_CV}
 * @param slowdown every step takes this many times as long, above 0 and at most {@link
 *     #MAX_SLOWDOWN} (1.1: 10% slower)
 * @param seed seeds the random draws: the same seed (and the same steps) repeats the same factors
 */
public record SimNoise(double cv, double slowdown, long seed) {

  /** No noise, no slowdown: the cost model's step times as they are. */
  public static final SimNoise NONE = new SimNoise(0, 1, 0);

  /** The drift's correlation time (seconds of the engine's clock). */
  public static final double DRIFT_SECONDS = 5;

  /** The drift's coefficient of variation, as a share of the jitter's. */
  public static final double DRIFT_SHARE = 0.5;

  public static final double MAX_CV = 1;
  public static final double MAX_SLOWDOWN = 100;

  public static final String CV_ACCEPTED =
      "a number from 0 to " + (int) MAX_CV + " (a coefficient of variation: 0.1 is 10%)";
  public static final String SLOWDOWN_ACCEPTED =
      "a number above 0 and at most " + (int) MAX_SLOWDOWN + " (1.1: every step 10% slower)";

  public SimNoise {
    if (!(cv >= 0 && cv <= MAX_CV)) {
      throw new IllegalArgumentException(
          "noise " + cv + " is invalid (accepted: " + CV_ACCEPTED + ")");
    }
    if (!(slowdown > 0 && slowdown <= MAX_SLOWDOWN)) {
      throw new IllegalArgumentException(
          "slowdown " + slowdown + " is invalid (accepted: " + SLOWDOWN_ACCEPTED + ")");
    }
  }

  /** Whether step times are left as they are. */
  public boolean off() {
    return cv == 0 && slowdown == 1;
  }

  /** A fresh generator of step factors, at the start of its sequence. */
  Steps steps() {
    return new Steps(this);
  }

  /**
   * The step factors of one engine, in order (one thread: the engine's). Pure given the noise and
   * the steps' start times.
   */
  static final class Steps {
    private final double slowdown;
    private final boolean off;
    private final boolean random;
    private final double jitterSigma;
    private final double driftSigma;
    private final double driftMean;
    private final double tauNanos;
    private final SplittableRandom rnd;
    private boolean started;
    private long lastNanos;
    private double logDrift;
    private double jitter = 1;

    private Steps(SimNoise n) {
      this.slowdown = n.slowdown();
      this.off = n.off();
      this.random = n.cv() > 0;
      // lognormal with mean 1 and CV c: sigma^2 = ln(1 + c^2), mu = -sigma^2 / 2
      this.jitterSigma = Math.sqrt(Math.log1p(n.cv() * n.cv()));
      double driftCv = n.cv() * DRIFT_SHARE;
      this.driftSigma = Math.sqrt(Math.log1p(driftCv * driftCv));
      this.driftMean = -driftSigma * driftSigma / 2;
      this.tauNanos = DRIFT_SECONDS * 1e9;
      // hashed, so that the noise's stream is unrelated to the prompts' drawn from the same seed
      // (the kit's workload), and neighbouring seeds' streams are not shifted copies of each other
      this.rnd = new SplittableRandom(mix64(n.seed() ^ 0x6E6F697365L));
      this.logDrift = driftMean;
    }

    /**
     * The duration of a step starting at {@code startNanos} that the cost model prices at {@code
     * durationNanos}.
     */
    long apply(long durationNanos, long startNanos) {
      if (off) {
        return durationNanos;
      }
      return Math.max(1, Math.round(durationNanos * factor(startNanos)));
    }

    /**
     * The factor of the step starting at {@code startNanos} (the engine's monotonic clock): the
     * drift moved on by the time since the previous step, a fresh jitter, times the slowdown.
     */
    double factor(long startNanos) {
      if (!random) {
        return slowdown;
      }
      if (!started) {
        started = true;
        logDrift = driftMean + driftSigma * rnd.nextGaussian(); // stationary start
      } else {
        long dt = startNanos - lastNanos;
        if (dt > 0) {
          double a = Math.exp(-dt / tauNanos);
          logDrift =
              driftMean
                  + (logDrift - driftMean) * a
                  + driftSigma * Math.sqrt(-Math.expm1(-2 * dt / tauNanos)) * rnd.nextGaussian();
        }
      }
      lastNanos = startNanos;
      jitter = Math.exp(jitterSigma * rnd.nextGaussian() - jitterSigma * jitterSigma / 2);
      return slowdown * jitter * Math.exp(logDrift);
    }

    /** Stafford's mix 13 (SplittableRandom's own finaliser). */
    private static long mix64(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }

    /** The last step's jitter (1 before any or without noise). */
    double jitter() {
      return jitter;
    }

    /** The drift as of the last step (1 before any or without noise). */
    double drift() {
      return random && started ? Math.exp(logDrift) : 1;
    }
  }
}
