package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateDesign;
import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Verdicts;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.LlamaServer;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How often gates raise false alarms and how often they catch a known regression, against the
 * embedded simulator with noise ({@code -Dsim.noise}) and a slowdown ({@code -Dsim.slowdown}): each
 * run a separate JVM as {@code mvn gatling:test} forks one, each with {@code -Dtrials=T} and a
 * fresh seed. With {@code --server llama}, false alarms only, against llama-server with the tests'
 * tiny model (one server for all runs, {@code -Dapi=completions -Dseed=7}, as the six
 * runs).
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.gates.VerdictBenchmark \
 *   -Dexec.args="--runs 21 --regressed-runs 20 --trials 5 --duration 5 --out target/verdicts"
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.gates.VerdictBenchmark \
 *   -Dexec.args="--server llama --runs 21 --trials 5 --duration 8 --out target/verdicts-llama"
 * </pre>
 *
 * <p>A/A: consecutive pairs of the plain runs (run i is the baseline of run i+1). Detection: plain
 * run i as the baseline of regressed run i. For each, today's single-run rule (trial 1 of each:
 * fail when the figure is beyond baseline x (1 + threshold)) and the trials' verdict ({@link
 * Verdicts}, as gates judge: FAIL when worse than the baseline with 95% confidence and beyond the
 * threshold) on all trials and on the first 3. Run folders already under {@code --out} (from an
 * earlier invocation) are read again instead of run, so a later invocation can add a slowdown or
 * more runs.
 */
public final class VerdictBenchmark {

  private record Gate(String name, String field, double threshold, boolean higherIsBetter) {}

  private static final String P99_TPOT =
      LatencyFigure.of(Metric.TPOT, Statistic.P99).summaryField();
  private static final String MEAN_TPOT =
      LatencyFigure.of(Metric.TPOT, Statistic.MEAN).summaryField();
  private static final String P99_TTFT =
      LatencyFigure.of(Metric.TTFT, Statistic.P99).summaryField();

  private static final List<Gate> FALSE_ALARM_GATES =
      List.of(
          new Gate("tpot.p99 +10%", P99_TPOT, 0.10, false),
          new Gate("ttft.p99 +10%", P99_TTFT, 0.10, false),
          new Gate("tpot.mean +10%", MEAN_TPOT, 0.10, false),
          new Gate("output_throughput -10%", LevelSamples.OUTPUT_THROUGHPUT, -0.10, true));

  private static final List<Gate> DETECTION_GATES =
      List.of(
          new Gate("tpot.mean +5%", MEAN_TPOT, 0.05, false),
          new Gate("tpot.p99 +5%", P99_TPOT, 0.05, false));

  private VerdictBenchmark() {}

  public static void main(String[] args) throws Exception {
    // under exec:java the JVM's class path is Maven's; the forked runs need the project's
    if (Thread.currentThread().getContextClassLoader() instanceof URLClassLoader loader) {
      List<String> entries = new ArrayList<>();
      for (URL u : loader.getURLs()) {
        entries.add(Path.of(u.toURI()).toString());
      }
      System.setProperty("java.class.path", String.join(File.pathSeparator, entries));
    }
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int runs = Integer.parseInt(a.getOrDefault("runs", "21"));
    int regressedRuns = Integer.parseInt(a.getOrDefault("regressed-runs", "20"));
    int trials = Integer.parseInt(a.getOrDefault("trials", "5"));
    int duration = Integer.parseInt(a.getOrDefault("duration", "5"));
    boolean llama = a.getOrDefault("server", "simulator").equals("llama");
    String conc = a.getOrDefault("conc", llama ? "4" : "8");
    String noise = a.getOrDefault("noise", "0.1");
    List<String> slowdowns =
        llama ? List.of() : List.of(a.getOrDefault("slowdowns", "1.10,1.05").split(","));
    Path out = Path.of(a.getOrDefault("out", "target/verdicts"));
    List<String> common =
        new ArrayList<>(
            List.of(
                "conc=" + conc,
                "duration=" + duration,
                "trials=" + trials,
                "warmup.prompts=" + conc,
                "input.len=128",
                "output.len=32"));
    System.out.printf(
        Locale.ROOT,
        "verdict benchmark on %s: %d plain runs, %d regressed per slowdown %s, -Dtrials=%d, %d s"
            + " per trial, -Dconc=%s%s%n",
        llama ? "llama-server (the tests' tiny model)" : "the simulator",
        runs,
        llama ? 0 : regressedRuns,
        slowdowns,
        trials,
        duration,
        conc,
        llama ? ", -Dapi=completions -Dseed=7" : ", -Dsim.noise=" + noise);
    LlamaServer server = null;
    Arm plain;
    Map<String, Arm> regressed = new LinkedHashMap<>();
    try {
      if (llama) {
        // the A/A command: the same seed each run, so only the server's noise differs
        server = LlamaServer.start("verdicts");
        common.addAll(List.of("base.url=" + server.baseUrl(), "api=completions", "seed=7"));
      } else {
        common.add("sim.noise=" + noise);
      }
      plain = arm(out.resolve("plain"), runs, common);
      for (String f : slowdowns) {
        List<String> props = new ArrayList<>(common);
        props.add("sim.slowdown=" + f);
        regressed.put(f, arm(out.resolve("slowdown-" + f), regressedRuns, props));
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }

    System.out.println();
    System.out.println("False alarms: A/A pairs a gate fails (nothing changed)");
    header(trials);
    for (Gate g : FALSE_ALARM_GATES) {
      row(g, pairs(plain, plain, true), trials);
    }
    for (Map.Entry<String, Arm> e : regressed.entrySet()) {
      System.out.println();
      System.out.println("Detection: slowdown " + e.getKey() + " against a plain baseline");
      header(trials);
      for (Gate g : DETECTION_GATES) {
        row(g, pairs(plain, e.getValue(), false), trials);
      }
    }
    if (!plain.millis().isEmpty()) {
      System.out.println();
      System.out.printf(
          Locale.ROOT,
          "Price: %.0f s per run of %d trials x %d s (JVM, warmup and drains included); a verdict"
              + " needs two: %.0f s (3 trials: about %.0f s)%n",
          plain.meanSeconds(),
          trials,
          duration,
          2 * plain.meanSeconds(),
          2 * plain.meanSeconds() * (3 + 1.0) / (trials + 1.0));
    }
  }

  private static void header(int trials) {
    System.out.printf(
        Locale.ROOT,
        "%-24s %7s %18s %22s %22s%n",
        "gate",
        "pairs",
        "single-run rule",
        trials + " trials: FAIL / inc.",
        "3 trials: FAIL / inc.");
  }

  /** A set of runs with the same settings, run (or re-read) one after another. */
  private record Arm(List<LevelSummary> levels, List<Long> millis) {
    double meanSeconds() {
      return millis.isEmpty()
          ? Double.NaN
          : millis.stream().mapToLong(Long::longValue).average().orElse(0) / 1000;
    }
  }

  private static Arm arm(Path dir, int n, List<String> props) throws Exception {
    List<LevelSummary> levels = new ArrayList<>();
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Path results = dir.resolve("run-" + i);
      if (!hasRun(results)) {
        Files.createDirectories(results);
        GatlingProcess.Outcome o =
            GatlingProcess.run(
                ServingBenchmarkSimulation.class, results, 600, props.toArray(String[]::new));
        if (o.exitCode() != 0) {
          throw new IllegalStateException(
              "run " + results + " failed:\n" + o.stdout() + "\n" + o.stderr());
        }
        millis.add(o.millis());
        System.out.printf(Locale.ROOT, "  %s: %.0f s%n", results, o.millis() / 1000.0);
      }
      levels.add(onlyLevel(results));
    }
    return new Arm(levels, millis);
  }

  private static boolean hasRun(Path results) throws IOException {
    if (!Files.isDirectory(results)) {
      return false;
    }
    try (Stream<Path> runs = Files.list(results)) {
      return runs.anyMatch(p -> Files.isRegularFile(RunFiles.ofRun(p).summary()));
    }
  }

  private static LevelSummary onlyLevel(Path results) throws IOException {
    try (Stream<Path> runs = Files.list(results)) {
      Path run =
          runs.filter(p -> Files.isRegularFile(RunFiles.ofRun(p).summary()))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no run folder in " + results));
      Summary s = Summary.read(RunFiles.ofRun(run).summary());
      return s.levels().values().iterator().next();
    }
  }

  private record Pair(LevelSummary baseline, LevelSummary run) {}

  private static List<Pair> pairs(Arm baselines, Arm runs, boolean consecutive) {
    List<Pair> out = new ArrayList<>();
    int n =
        consecutive
            ? baselines.levels().size() - 1
            : Math.min(baselines.levels().size(), runs.levels().size());
    for (int i = 0; i < n; i++) {
      out.add(new Pair(baselines.levels().get(i), runs.levels().get(consecutive ? i + 1 : i)));
    }
    return out;
  }

  private static void row(Gate g, List<Pair> pairs, int trials) {
    int single = 0;
    int[] all = new int[2];
    int[] three = new int[2];
    for (Pair p : pairs) {
      TrialValues base = p.baseline().samples().get(g.field());
      TrialValues mine = p.run().samples().get(g.field());
      if (base == null || mine == null) {
        continue;
      }
      double b1 = base.values()[0];
      double m1 = mine.values()[0];
      double limit = b1 * (1 + g.threshold());
      if (g.higherIsBetter() ? m1 < limit : m1 > limit) {
        single++;
      }
      count(all, judge(g, base, mine, trials));
      count(three, judge(g, base, mine, 3));
    }
    System.out.printf(
        Locale.ROOT,
        "%-24s %7d %18s %22s %22s%n",
        g.name(),
        pairs.size(),
        single + " of " + pairs.size(),
        all[0] + " / " + all[1],
        three[0] + " / " + three[1]);
  }

  private static GateVerdict judge(Gate g, TrialValues base, TrialValues mine, int k) {
    GateJudgement j =
        Verdicts.relativeGate(
            first(base, k),
            first(mine, k),
            g.threshold(),
            g.higherIsBetter(),
            GateDesign.ErrorRates.of(0.95, 0.9),
            Optional.empty());
    return j.verdict();
  }

  private static TrialValues first(TrialValues v, int k) {
    return TrialValues.of(Arrays.copyOf(v.values(), Math.min(k, v.n())));
  }

  private static void count(int[] failInconclusive, GateVerdict v) {
    if (v == GateVerdict.FAIL) {
      failInconclusive[0]++;
    } else if (v == GateVerdict.INCONCLUSIVE) {
      failInconclusive[1]++;
    }
  }
}
