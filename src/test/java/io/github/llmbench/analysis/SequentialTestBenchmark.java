package io.github.llmbench.analysis;

import io.github.llmbench.analysis.SequentialTest.Decision;
import io.github.llmbench.analysis.SequentialTest.Design;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * The sequential test's error rates and pairs used on simulated normal pairs, for a range of pair
 * spreads relative to the threshold judged: what a user can expect of an interleaved A/B gate
 * before running one.
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.analysis.SequentialTestBenchmark -Dexec.args="20000"
 * </pre>
 */
public final class SequentialTestBenchmark {
  private SequentialTestBenchmark() {}

  public static void main(String[] args) {
    int sequences = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int maxPairs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    Design design = new Design(0.05, 0.9, 0.10, 3, maxPairs);
    SequentialTest test = SequentialTest.of(design);
    double delta = design.delta();
    System.out.printf(
        Locale.ROOT,
        "sequential test, alpha %.2f, power %.2f, threshold +%.0f%%, pairs %d to %d, %d sequences"
            + " per row%n",
        design.alpha(),
        design.power(),
        100 * design.threshold(),
        design.minPairs(),
        design.maxPairs(),
        sequences);
    System.out.printf(
        Locale.ROOT,
        "%-22s %-12s %7s %7s %13s %13s %10s%n",
        "pair log sd / delta",
        "true change",
        "FAIL",
        "PASS",
        "INCONCLUSIVE",
        "median pairs",
        "90% pairs");
    Random random = new Random(2026);
    for (double spread : new double[] {0.25, 0.5, 1.0, 1.5, 2.0}) {
      for (double change : new double[] {0.0, 0.05, 0.10, 0.15}) {
        int[] counts = new int[4];
        int[] pairs = new int[sequences];
        for (int s = 0; s < sequences; s++) {
          double[] d = new double[maxPairs];
          for (int n = 1; n <= maxPairs; n++) {
            d[n - 1] = Math.log1p(change) + spread * delta * random.nextGaussian();
            Decision decision = test.look(Arrays.copyOf(d, n)).decision();
            if (decision.decided()) {
              counts[decision.ordinal()]++;
              pairs[s] = n;
              break;
            }
          }
        }
        Arrays.sort(pairs);
        System.out.printf(
            Locale.ROOT,
            "%-22.2f %-12s %7.3f %7.3f %13.3f %13d %10d%n",
            spread,
            String.format(Locale.ROOT, "+%.0f%%", 100 * change),
            (double) counts[Decision.FAIL.ordinal()] / sequences,
            (double) counts[Decision.PASS.ordinal()] / sequences,
            (double) counts[Decision.INCONCLUSIVE.ordinal()] / sequences,
            pairs[sequences / 2],
            pairs[(int) (sequences * 0.9)]);
      }
    }
  }
}
