package io.github.llmbench.simulator;

import java.util.SplittableRandom;

/**
 * Noise, a process offset and a slowdown dialled into the engine's step times ({@code --noise},
 * {@code --process-sd}, {@code --slowdown}, {@code --seed}; the kit's {@code -Dsim.noise}, {@code
 * -Dsim.process.sd}, {@code -Dsim.slowdown} and the run's seed), so that figures spread within a
 * run, between runs and between two processes of one server as on a real server, and a known
 * regression can be injected.
 *
 * <p>Each step's duration (the {@link CostModel}'s) is multiplied by {@code slowdown x process x
 * jitter x drift}:
 *
 * <ul>
 *   <li><b>process</b>: the process's lasting speed factor, drawn once per start from the seed as
 *       {@code exp(N(0, processSd))} and kept for the engine's life: two processes of one server
 *       build stay a few percent apart for their whole lives ({@code docs/gates.md}, "Two processes
 *       of one server differ"), which no interleaving of pairs cancels;
 *   <li><b>jitter</b>: drawn afresh for every step, lognormal with mean 1 and coefficient of
 *       variation {@code cv};
 *   <li><b>drift</b>: {@code exp(X)}, where {@code X} is an Ornstein-Uhlenbeck process over the
 *       engine's clock with correlation time {@link #DRIFT_SECONDS}, stationary so that the drift
 *       is lognormal with mean 1 and coefficient of variation {@code cv / 2}; it starts from that
 *       stationary distribution (so runs differ from each other), and moves on at each step by the
 *       time elapsed since the previous one (the exact discretisation, whatever the step's length).
 * </ul>
 *
 * Jitter and drift are independent, so within one process their product times the slowdown has mean
 * {@code slowdown x process} and a coefficient of variation of {@code sqrt((1 + cv^2)(1 + cv^2/4) -
 * 1)} (about {@code 1.12 cv}). {@code cv = 0}, {@code processSd = 0} and {@code slowdown = 1}
 * ({@link #NONE}) leave every step time as the cost model gives it, bit for bit.
 *
 * @param cv the step-to-step jitter's coefficient of variation, from 0 to {@link #MAX_CV}
 * @param slowdown every step takes this many times as long, above 0 and at most {@link
 *     #MAX_SLOWDOWN} (1.1: 10% slower)
 * @param processSd the log standard deviation of the process's lasting speed factor, at least 0 and
 *     below {@link #MAX_PROCESS_SD} (0: none)
 * @param seed seeds the random draws: the same seed (and the same steps) repeats the same factors
 */
public record SimNoise(double cv, double slowdown, double processSd, long seed) {

  /** No noise, no process offset, no slowdown: the cost model's step times as they are. */
  public static final SimNoise NONE = new SimNoise(0, 1, 0, 0);

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

  /**
   * The process offset's log sd stays below this: at 1 a process would be 2.7 times slower than its
   * median one sd out, no server build's spread.
   */
  public static final double MAX_PROCESS_SD = 1;

  public static final String PROCESS_SD_ACCEPTED =
      "a number from 0, below " + (int) MAX_PROCESS_SD + " (a log sd: 0.04 is about 4%)";

  /** Salts the seed for the process's draw: unrelated to the noise's stream and the prompts'. */
  private static final long PROCESS_SALT = 0x70726F63657373L; // "process"

  /** No process offset: the noise and slowdown as they were before the offset existed. */
  public SimNoise(double cv, double slowdown, long seed) {
    this(cv, slowdown, 0, seed);
  }

  public SimNoise {
    if (!(cv >= 0 && cv <= MAX_CV)) {
      throw new IllegalArgumentException(
          "noise " + cv + " is invalid (accepted: " + CV_ACCEPTED + ")");
    }
    if (!(slowdown > 0 && slowdown <= MAX_SLOWDOWN)) {
      throw new IllegalArgumentException(
          "slowdown " + slowdown + " is invalid (accepted: " + SLOWDOWN_ACCEPTED + ")");
    }
    if (!(processSd >= 0 && processSd < MAX_PROCESS_SD)) {
      throw new IllegalArgumentException(
          "process sd " + processSd + " is invalid (accepted: " + PROCESS_SD_ACCEPTED + ")");
    }
  }

  /** Whether step times are left as they are. */
  public boolean off() {
    return cv == 0 && slowdown == 1 && processSd == 0;
  }

  /**
   * This start's lasting speed factor: every step time is multiplied by it for the engine's life.
   * Exactly 1 without a process offset.
   */
  public double processFactor() {
    return processFactor(processSd, seed);
  }

  /**
   * The lasting speed factor a start with this log sd draws from {@code seed}: {@code exp(sd Z)},
   * {@code Z} standard normal, the same for the same seed. Exactly 1 at sd 0.
   */
  public static double processFactor(double processSd, long seed) {
    if (processSd == 0) {
      return 1;
    }
    return Math.exp(
        processSd * new SplittableRandom(Steps.mix64(seed ^ PROCESS_SALT)).nextGaussian());
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
    /** The slowdown times the process's lasting factor: every step's, noise or none. */
    private final double scale;

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
      this.scale = n.slowdown() * n.processFactor();
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
     * drift moved on by the time since the previous step, a fresh jitter, times the slowdown and
     * the process's factor.
     */
    double factor(long startNanos) {
      if (!random) {
        return scale;
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
      return scale * jitter * Math.exp(logDrift);
    }

    /** Stafford's mix 13 (SplittableRandom's own finaliser). */
    static long mix64(long z) {
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
