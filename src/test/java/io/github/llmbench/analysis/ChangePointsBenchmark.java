package io.github.llmbench.analysis;

import java.util.List;
import java.util.Locale;

/**
 * Detection and false-alarm rates of {@link ChangePoints} on synthetic series (issue 41's target:
 * 30 runs, a +10% step at run 20 found at 20 +- 1 in at least 9 of 10 series; no change point in at
 * least 9 of 10 without a step), over many seeds, at several log standard deviations. Not a test:
 * it prints a table (docs/history.md has it).
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.analysis.ChangePointsBenchmark -Dexec.args="200"
 * </pre>
 */
public final class ChangePointsBenchmark {
  private ChangePointsBenchmark() {}

  public static void main(String[] args) {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    System.out.printf(
        Locale.ROOT,
        "%d series of 30 runs each, E-divisive means, p < %.2f, %d permutations, segments >= %d%n",
        series,
        ChangePoints.Settings.DEFAULT.pValue(),
        ChangePoints.Settings.DEFAULT.permutations(),
        ChangePoints.Settings.DEFAULT.minSegment());
    System.out.printf(
        "%-8s %-6s %-22s %-22s %-22s%n",
        "log sd", "step", "found at 20+-1", "found elsewhere only", "no step: false alarm");
    for (double sd : new double[] {0.03, 0.05, 0.08}) {
      for (double step : new double[] {0.05, 0.10}) {
        int found = 0;
        int elsewhere = 0;
        int falseAlarms = 0;
        for (long seed = 1000; seed < 1000 + series; seed++) {
          List<Integer> at =
              ChangePoints.find(
                      ChangePointSeries.step(seed, 30, sd, 20, step),
                      ChangePoints.Settings.DEFAULT.withSeed(seed))
                  .stream()
                  .map(ChangePoints.ChangePoint::index)
                  .toList();
          if (at.stream().anyMatch(i -> Math.abs(i - 20) <= 1)) {
            found++;
          } else if (!at.isEmpty()) {
            elsewhere++;
          }
          if (!ChangePoints.find(
                  ChangePointSeries.flat(seed, 30, sd),
                  ChangePoints.Settings.DEFAULT.withSeed(seed))
              .isEmpty()) {
            falseAlarms++;
          }
        }
        System.out.printf(
            Locale.ROOT,
            "%-8.2f %-6s %-22s %-22s %-22s%n",
            sd,
            String.format(Locale.ROOT, "+%.0f%%", 100 * step),
            rate(found, series),
            rate(elsewhere, series),
            rate(falseAlarms, series));
      }
    }
  }

  private static String rate(int k, int n) {
    return String.format(Locale.ROOT, "%d/%d (%.1f%%)", k, n, 100.0 * k / n);
  }
}
