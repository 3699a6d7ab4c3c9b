package io.github.llmbench.history;

import io.github.llmbench.analysis.ChangePoints;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.NoiseModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The noise of a figure learned from the history: the per-trial values of the earlier runs of the
 * same key at the same level, run-level and trial-level variance apart, for a gate to judge a run
 * against a baseline with many degrees of freedom instead of the few of its own trials. Only the
 * key's current segment is pooled: the runs since the figure's last change point ({@link
 * ChangePoints}, as {@code history.html} finds them), and of those the runs that failed no gate. A
 * past regression then does not inflate the noise (one past +10% step took a pooled log sd of 0.062
 * to 0.078, issue 58's E4), nor does a run that failed for another reason.
 */
public final class HistoryNoise {
  private HistoryNoise() {}

  /**
   * The fewest runs a noise is learned from: 5. Fewer leave the run-level variance with under 4
   * degrees of freedom, no better than a run's own 5 trials; the benchmark keeps 10 or
   * more.
   */
  public static final int MIN_RUNS = 5;

  /**
   * The noise of {@code figure} at {@code level} over the runs of {@code key}, or empty with fewer
   * than {@link #MIN_RUNS} runs that have it (the caller then says so and judges on the trials).
   */
  public static Optional<Noise> of(
      List<HistoryLine> lines, String key, String level, String figure) {
    List<double[]> runs = new ArrayList<>();
    for (HistoryLine l : lines) {
      if (!key.equals(l.key()) || l.failedGates()) { // as learnable() counts them
        continue;
      }
      double[] trials =
          l.trials(level, figure).stream()
              .filter(v -> v != null && v > 0 && Double.isFinite(v))
              .mapToDouble(Double::doubleValue)
              .toArray();
      if (trials.length > 0) {
        runs.add(trials);
      }
    }
    return NoiseModel.fromRuns(currentSegment(runs), MIN_RUNS);
  }

  /** The runs from the last change point of their means on (all of them without one). */
  static List<double[]> currentSegment(List<double[]> runs) {
    double[] means = new double[runs.size()];
    for (int i = 0; i < means.length; i++) {
      double sum = 0;
      for (double v : runs.get(i)) {
        sum += v;
      }
      means[i] = sum / runs.get(i).length;
    }
    List<ChangePoints.ChangePoint> found = HistorySeries.onLogs(means, SEGMENTS);
    int from = found.isEmpty() ? 0 : found.get(found.size() - 1).index() - 1;
    return runs.subList(from, runs.size());
  }

  /** The change points that cut the segments: the history gate's p-value. */
  private static final ChangePoints.Settings SEGMENTS =
      ChangePoints.Settings.DEFAULT.withPValue(HistoryGate.P_VALUE);

  /** What the relative gates judge with when the history gives no noise, for its lines. */
  public static final String FALLBACK =
      "relative gates fall back to -Dgate.run.noise where declared, else to the runs' own trials"
          + " (their error rates then unknown)";

  /** Why there is no noise from the history, for a line before the load. */
  public static String tooFew(List<HistoryLine> lines, String key) {
    return "history: "
        + learnable(lines, key)
        + " run(s) of this key that failed no gate, "
        + MIN_RUNS
        + " needed to learn the noise; "
        + FALLBACK;
  }

  /**
   * Whether the key has enough runs for a noise (of a figure every run has, with no change point
   * among them): counted as {@link #of} pools them.
   */
  public static boolean enough(List<HistoryLine> lines, String key) {
    return learnable(lines, key) >= MIN_RUNS;
  }

  /** The key's runs a noise may be learned from: those that failed no gate. */
  private static long learnable(List<HistoryLine> lines, String key) {
    return lines.stream().filter(l -> key.equals(l.key()) && !l.failedGates()).count();
  }
}
