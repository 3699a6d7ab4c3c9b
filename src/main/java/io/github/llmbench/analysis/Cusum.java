package io.github.llmbench.analysis;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A one-sided CUSUM over a figure's runs, on logs, for post-merge monitoring: has the figure moved
 * the bad way by the gate's threshold since its reference level, and from which run on? Pure.
 *
 * <p><b>The series.</b> One value per run, the log of the run's figure, oriented so that a rise is
 * worse (a throughput's log is negated). Consecutive runs on one testbed share drift (lag-1
 * correlation about 0.5 on llama-server, issue 58), so the raw values are not independent and a
 * CUSUM on them would raise false alarms far more often than it states. The chart is therefore run
 * on the one-step residuals of an AR(1) fitted to the reference runs, {@code e_i = (y_i - m) - rho
 * (y_{i-1} - m)}, standardised by their spread: independent under no change, and a lasting step
 * {@code d} shows in them as {@code d} at its first run and {@code d (1 - rho)} after.
 *
 * <p><b>The chart.</b> {@code S_i = max(0, S_{i-1} + z_i - k)} with {@code k} half the lasting
 * standardised step of the threshold, and an alarm when {@code S_i > h}, {@code h} chosen by
 * Siegmund's approximation so that the in-control average run length (runs between false alarms
 * when the reference is known) is {@link #IN_CONTROL_RUNS}. The change most likely started at the
 * run after the chart's last zero.
 *
 * <p><b>The reference.</b> The runs of the current segment up to the chart's last zero (the newest
 * {@link #MAX_REFERENCE} of them), at least {@link #MIN_REFERENCE}: their mean, spread and lag-1
 * autocorrelation, each corrected for the bias a short autocorrelated series has. A segment starts
 * at the first run of the series, and again at the first run of a flagged change once that change
 * has held for {@link #MIN_REFERENCE} runs (a new level that stays becomes the reference: accepted
 * or fixed by then). Runs of a flagged change that went back (a fix) never join a reference.
 * Estimating the reference from a few runs shortens the run length between false alarms below the
 * stated one; {@code CusumTest} measures by how much.
 */
public final class Cusum {
  private Cusum() {}

  /**
   * The average number of runs between false alarms the limit is set for, with a known reference.
   */
  public static final double IN_CONTROL_RUNS = 1000;

  /** The fewest reference runs before the chart judges a run. */
  public static final int MIN_REFERENCE = 15;

  /** The most reference runs: the newest of the segment, so a slow drift is followed. */
  public static final int MAX_REFERENCE = 30;

  /**
   * The least spread of a reference, as a share of the step to catch. Runs that barely differ (a
   * deterministic figure, copies of one run) would give a spread near 0 and a reference value
   * {@code k} of millions, which no residual reaches once mapped through Student's t: the chart
   * then missed a tenfold change. At a tenth of the step a change of the step is caught at its
   * first run, and the printed run lengths stay finite.
   */
  static final double MIN_SD_OF_STEP = 0.1;

  /** The highest lag-1 autocorrelation used: above it the residuals' spread is mostly noise. */
  static final double MAX_RHO = 0.9;

  private static final NormalDistribution NORMAL = NormalDistribution.of(0, 1);

  /** Siegmund's correction of the limit for the overshoot of a normal random walk. */
  private static final double OVERSHOOT = 1.166;

  /**
   * The reference level a run is judged against.
   *
   * @param from its first run (0-based)
   * @param to its last run (0-based, inclusive)
   * @param runs how many of the runs between them it holds (a flagged change's are left out)
   * @param mean the runs' mean
   * @param sd their standard deviation, corrected for the autocorrelation
   * @param rho their lag-1 autocorrelation, bias-corrected and clamped to [0, {@link #MAX_RHO}]
   */
  public record Reference(int from, int to, int runs, double mean, double sd, double rho) {

    /** The spread of the one-step residuals: {@code sd sqrt(1 - rho^2)}. */
    public double residualSd() {
      return sd * Math.sqrt(1 - rho * rho);
    }

    /**
     * A run's residual as a standard normal value: its t statistic against this reference (its
     * spread and mean estimated from {@link #runs} runs, so {@code sqrt(1 + 1/n)} wider and
     * Student's t with {@code n - 2} degrees of freedom, one more lost to {@code rho}) mapped
     * through the t and normal distributions, as Hawkins's self-starting CUSUM does. Without it a
     * reference of 10 runs raised two to three times the false alarms the limit states.
     */
    double standardised(double residual) {
      double t = residual / (residualSd() * Math.sqrt(1 + 1.0 / runs));
      TDistribution dist = TDistribution.of(runs - 2);
      double p = t > 0 ? dist.survivalProbability(t) : dist.cumulativeProbability(t);
      double z = -NORMAL.inverseCumulativeProbability(Math.max(p, 1e-300));
      return t > 0 ? z : -z;
    }
  }

  /**
   * The chart's constants for one reference.
   *
   * @param k the reference value: half the lasting standardised step of the threshold
   * @param h the decision limit
   */
  public record Limits(double k, double h) {

    /** The limits that catch a lasting step of {@code shift} (a log) at this reference. */
    public static Limits of(double shift, Reference ref) {
      double k = shift * (1 - ref.rho()) / ref.residualSd() / 2;
      return new Limits(k, limitFor(k, IN_CONTROL_RUNS));
    }

    /** Siegmund's average run length with no change (the increments' mean {@code -k}). */
    public double inControlRuns() {
      return averageRunLength(-k, h);
    }

    /**
     * Siegmund's average run length at the threshold's lasting step (increments' mean {@code +k}).
     */
    public double runsToDetect() {
      return Math.max(1, averageRunLength(k, h)); // the approximation dips under 1 at a large k
    }
  }

  /** Where the chart stands at a run. */
  public sealed interface State {}

  /**
   * Too few reference runs to judge.
   *
   * @param runs the reference runs there are
   */
  public record TooFew(int runs) implements State {}

  /**
   * No alarm at this run.
   *
   * @param sum the chart's {@code S}
   */
  public record InControl(double sum, Limits limits, Reference reference) implements State {}

  /**
   * An alarm: the chart is above its limit at this run.
   *
   * @param sum the chart's {@code S}
   * @param start the run the change most likely started at (0-based): the one after the last zero
   * @param flagged the first run of this change at which the chart crossed its limit (0-based)
   * @param change the mean of the runs from {@code start} on, minus the reference's mean (a log)
   * @param untilReference the runs at the new level still needed before it becomes the reference
   */
  public record Alarm(
      double sum,
      Limits limits,
      Reference reference,
      int start,
      int flagged,
      double change,
      int untilReference)
      implements State {}

  /** The chart's state at the newest run of {@code worse}. */
  public static State last(double[] worse, double shift) {
    List<State> all = replay(worse, shift);
    return all.isEmpty() ? new TooFew(0) : all.get(all.size() - 1);
  }

  /**
   * The chart's state at every run: the history replayed from its first run, so a run's verdict
   * needs nothing stored but the series.
   *
   * @param worse the runs' logs, a rise worse
   * @param shift the lasting step the chart must catch, a log above 0 ({@code log(1.10)})
   */
  public static List<State> replay(double[] worse, double shift) {
    if (!(shift > 0) || Double.isInfinite(shift)) {
      throw new IllegalArgumentException("the step must be above 0: " + shift);
    }
    int n = worse.length;
    boolean[] leftOut = new boolean[n];
    List<State> out = new ArrayList<>(n);
    int segment = 0;
    double sum = 0;
    int start = -1;
    int flagged = -1;
    for (int i = 0; i < n; i++) {
      int refEnd = start < 0 ? i - 1 : start - 1;
      Reference ref = reference(worse, leftOut, segment, refEnd, shift * MIN_SD_OF_STEP);
      if (ref.runs() < MIN_REFERENCE) {
        out.add(new TooFew(ref.runs()));
        continue;
      }
      Limits limits = Limits.of(shift, ref);
      double previous = i - 1 >= segment ? worse[i - 1] : ref.mean();
      double z = ref.standardised(worse[i] - ref.mean() - ref.rho() * (previous - ref.mean()));
      double next = Math.max(0, sum + z - limits.k());
      if (sum == 0 && next > 0) {
        start = i;
      }
      sum = next;
      if (sum == 0) {
        if (flagged >= 0) { // a flagged change that went back: its runs stay out of references
          for (int j = start; j < i; j++) {
            leftOut[j] = true;
          }
        }
        start = -1;
        flagged = -1;
      } else if (sum > limits.h() && flagged < 0) {
        flagged = i;
      }
      if (flagged >= 0 && sum > limits.h()) {
        int held = i - start + 1;
        out.add(
            new Alarm(
                sum,
                limits,
                ref,
                start,
                flagged,
                mean(worse, start, i) - ref.mean(),
                Math.max(0, MIN_REFERENCE - held)));
      } else {
        out.add(new InControl(sum, limits, ref));
      }
      if (flagged >= 0 && i - start + 1 >= MIN_REFERENCE) {
        // the new level has held: it is the reference from the next run on
        segment = start;
        sum = 0;
        start = -1;
        flagged = -1;
      }
    }
    return out;
  }

  /** The reference over runs {@code from..to}: the newest {@link #MAX_REFERENCE} not left out. */
  static Reference reference(double[] y, boolean[] leftOut, int from, int to, double minSd) {
    List<Integer> runs = new ArrayList<>();
    for (int i = to; i >= from && runs.size() < MAX_REFERENCE; i--) {
      if (!leftOut[i]) {
        runs.add(0, i);
      }
    }
    int n = runs.size();
    if (n < MIN_REFERENCE) {
      return new Reference(from, to, n, Double.NaN, Double.NaN, Double.NaN);
    }
    double mean = 0;
    for (int i : runs) {
      mean += y[i];
    }
    mean /= n;
    double squares = 0;
    double lagged = 0;
    for (int j = 0; j < n; j++) {
      double d = y[runs.get(j)] - mean;
      squares += d * d;
      if (j > 0 && runs.get(j - 1) == runs.get(j) - 1) {
        lagged += d * (y[runs.get(j - 1)] - mean);
      }
    }
    double r1 = squares > 0 ? lagged / squares : 0;
    // Kendall's bias of the lag-1 estimate, E r1 = rho - (1 + 4 rho) / n, solved for rho
    double rho = Math.max(0, Math.min(MAX_RHO, (n * r1 + 1) / (n - 4)));
    // the sample variance of an autocorrelated series misses the variance of its own mean
    double variance = squares / (n * (1 - Ar1.meanVarianceFactor(n, rho) / n));
    double sd = Math.max(Math.sqrt(Math.max(variance, 0)), minSd);
    return new Reference(runs.get(0), runs.get(n - 1), n, mean, sd, rho);
  }

  private static double mean(double[] y, int from, int to) {
    double s = 0;
    for (int i = from; i <= to; i++) {
      s += y[i];
    }
    return s / (to - from + 1);
  }

  /**
   * Siegmund's approximation of a one-sided CUSUM's average run length, increments normal with mean
   * {@code drift} and variance 1, limit {@code h}.
   */
  static double averageRunLength(double drift, double h) {
    double b = h + OVERSHOOT;
    if (Math.abs(drift) < 1e-9) {
      return b * b;
    }
    return (Math.exp(-2 * drift * b) + 2 * drift * b - 1) / (2 * drift * drift);
  }

  /** The limit whose in-control run length (increments' mean {@code -k}) is {@code runs}. */
  static double limitFor(double k, double runs) {
    double lo = 0;
    double hi = 1;
    while (averageRunLength(-k, hi) < runs) {
      hi *= 2;
    }
    for (int it = 0; it < 100; it++) {
      double mid = (lo + hi) / 2;
      if (averageRunLength(-k, mid) < runs) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }
}
