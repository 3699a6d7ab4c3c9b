package io.github.llmbench.gates;

import io.github.llmbench.analysis.ChangePoints;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.CpuQuota;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.LlamaServer;
import io.github.llmbench.testing.TinyLlamaGguf;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * Do the gates catch a real regression on a real server, and stay quiet when nothing changed?
 * llama-server with the tests' tiny model, its threads pinned to core 0 (the kit's runs inherit
 * this JVM's core: start it under {@code taskset -c 1}); the regression is a CPU quota on the
 * server's own cgroup-v1 {@code cpu} group ({@link CpuQuota}), set during the regressed runs only.
 * Each verdict is one run of the kit as {@code mvn gatling:test} forks it (a JVM of its own, a
 * fresh seed), its verdict read from the run's {@code gates.xml}.
 *
 * <pre>
 * taskset -c 1 mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.gates.RegressionBenchmark \
 *   -Dexec.args="--mode interleaved --verdicts 20 --share 0.92 --conc 8 \
 *     --props gate.power=0.95,input.len=16 --out target/regression-ab"
 * </pre>
 *
 * <p>Modes: {@code calibrate} runs interleaved pairs to a fixed count ({@code --pairs}) for each
 * share in {@code --shares} and prints the slowdown each gives; {@code interleaved} alternates A/A
 * verdicts (two servers, neither capped) and A/B verdicts (the candidate server capped at {@code
 * --share}), each one run with {@code -Dcandidate.url}; {@code history} first runs {@code
 * --history-runs} plain runs of {@code --trials} trials into a history, then alternates a capped
 * and a plain run, each against the plain run before it as {@code -Dbaseline} and with the
 * history's noise (each against its own copy of the history, so verdict runs do not feed it);
 * {@code changepoints} runs no load: it builds series from a finished {@code history} benchmark's
 * runs under {@code --out} and counts where the change points fall; {@code stored} gives each
 * verdict two runs of its own, a baseline and a plain (or, with {@code --ab true}, also a capped)
 * run against it as {@code -Dbaseline} with no history: the path most pipelines take, its error
 * rates as the gate states them (or not) from {@code --props}, e.g. {@code gate.run.noise=0.07};
 * {@code blocks} alternates A/A and A/B verdicts in blocks of fresh deployments, the kit starting
 * and restarting both servers itself ({@code -Dcandidate.serve.cmd}, {@code --max-blocks}). Run
 * folders already under {@code --out} are read again instead of run.
 */
public final class RegressionBenchmark {

  private RegressionBenchmark() {}

  /**
   * One verdict: the gate's decision, the run's exit status, how long the run took, and for an A/B
   * run its pairs, their ratio and the spread of a pair's log ratio.
   */
  record Verdict(
      String decision,
      int exitCode,
      double seconds,
      Path run,
      int pairs,
      double ratio,
      double pairSd,
      String unit) {
    String describe() {
      return pairs == 0
          ? String.format(Locale.ROOT, "%s, %.0f s", decision, seconds)
          : String.format(
              Locale.ROOT,
              "%s, ratio %.3f after %d %ss, log sd of a %s %.3f, %.0f s",
              decision,
              ratio,
              pairs,
              unit,
              unit,
              pairSd,
              seconds);
    }
  }

  public static void main(String[] args) throws Exception {
    projectClassPath();
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    String mode = a.getOrDefault("mode", "interleaved");
    Path out = Path.of(a.getOrDefault("out", "target/regression"));
    int verdicts = Integer.parseInt(a.getOrDefault("verdicts", "20"));
    String gate = a.getOrDefault("gate", "tpot.mean=+10%");
    double share = Double.parseDouble(a.getOrDefault("share", "0.85"));
    List<String> common =
        new ArrayList<>(
            List.of(
                "api=completions",
                "conc=" + a.getOrDefault("conc", "4"),
                "duration=" + a.getOrDefault("duration", "8"),
                "warmup.prompts="
                    + a.getOrDefault(
                        "warmup",
                        String.valueOf(4 * Integer.parseInt(a.getOrDefault("conc", "4")))),
                "input.len=128",
                "output.len=32",
                "gate." + gate));
    for (String p : a.getOrDefault("props", "").split(",")) {
      if (!p.isBlank()) {
        common.add(p.trim());
      }
    }
    if (mode.equals("changepoints")) {
      changePoints(out, a);
      return;
    }
    if (!CpuQuota.available()) {
      throw new IllegalStateException(
          "no writable cgroup-v1 cpu controller at " + CpuQuota.CPU + ": no real slowdown to make");
    }
    System.out.printf(
        Locale.ROOT,
        "regression benchmark (%s) on llama-server, the tests' tiny model pinned to core 0: %d"
            + " verdicts a side, -Dgate.%s, regression = a CPU quota of %.2f of a core, %s%n",
        mode,
        verdicts,
        gate,
        share,
        String.join(" ", common));
    switch (mode) {
      case "calibrate" -> {
        try (Servers servers = Servers.start(2)) {
          calibrate(servers, out, common, a);
        }
      }
      case "interleaved" -> interleaved(out, common, verdicts, share, a);
      case "blocks" -> blocks(out, common, verdicts, share, a);
      case "history" -> history(out, common, verdicts, share, a);
      case "stored" -> stored(out, common, verdicts, share, a);
      default ->
          throw new IllegalArgumentException(
              "--mode: calibrate, interleaved, blocks, history, stored or changepoints");
    }
  }

  /** The servers under test: each pinned to core 0, each in a cpu group of its own. */
  private record Servers(List<LlamaServer> servers, List<CpuQuota> quotas)
      implements AutoCloseable {
    static Servers start(int count) {
      List<LlamaServer> servers = new ArrayList<>();
      List<CpuQuota> quotas = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        LlamaServer s = LlamaServer.start("regression-" + (char) ('a' + i));
        servers.add(s);
        CpuQuota.pin(s.pid(), 0);
        quotas.add(CpuQuota.of("llmbench-regression-" + (char) ('a' + i), s.pid()));
      }
      return new Servers(servers, quotas);
    }

    String url(int i) {
      return servers.get(i).baseUrl().toString();
    }

    @Override
    public void close() {
      quotas.forEach(CpuQuota::close);
      servers.forEach(LlamaServer::close);
    }
  }

  private static void calibrate(
      Servers servers, Path out, List<String> common, Map<String, String> a) throws Exception {
    int pairs = Integer.parseInt(a.getOrDefault("pairs", "12"));
    // --swap true: a second run of each share with the servers' roles swapped (the capped one as
    // A), which tells a difference of the two processes from the quota's
    boolean swap = Boolean.parseBoolean(a.getOrDefault("swap", "false"));
    for (String s : a.getOrDefault("shares", "1,0.9,0.85,0.8").split(",")) {
      double share = Double.parseDouble(s);
      servers.quotas().get(1).limit(share);
      for (boolean swapped : swap ? List.of(false, true) : List.of(false)) {
        List<String> props = new ArrayList<>(common);
        props.addAll(
            List.of(
                "base.url=" + servers.url(swapped ? 1 : 0),
                "candidate.url=" + servers.url(swapped ? 0 : 1),
                "ab.min.pairs=" + pairs,
                "ab.max.pairs=" + pairs));
        long throttledBefore = servers.quotas().get(1).throttledPeriods();
        Verdict v = run(out.resolve("calibrate-" + s + (swapped ? "-swapped" : "")), props);
        System.out.printf(
            Locale.ROOT,
            "share %.2f%s: %s, the capped server throttled in %d periods of 10 ms, %s%n",
            share,
            swapped ? " (the capped server as A)" : "",
            v.describe(),
            servers.quotas().get(1).throttledPeriods() - throttledBefore,
            v.run());
      }
    }
    servers.quotas().get(1).limit(1.0);
  }

  /**
   * Each verdict against servers of its own, started for it: two processes of one server differ (by
   * up to 8% in mean TPOT here), and a deployment's own offset is part of what an A/B faces.
   */
  private static void interleaved(
      Path out, List<String> common, int verdicts, double share, Map<String, String> a)
      throws Exception {
    String maxPairs = "ab.max.pairs=" + a.getOrDefault("max-pairs", "20");
    List<Verdict> same = new ArrayList<>();
    List<Verdict> slower = new ArrayList<>();
    for (int i = 0; i < verdicts; i++) {
      for (boolean capped : List.of(false, true)) {
        Path results = out.resolve((capped ? "ab-" : "aa-") + i);
        Verdict v =
            freshRun(
                results,
                2,
                capped ? share : 1.0,
                servers ->
                    concat(
                        common,
                        "base.url=" + servers.url(0),
                        "candidate.url=" + servers.url(1),
                        maxPairs));
        (capped ? slower : same).add(v);
      }
    }
    table("interleaved A/B, each verdict on servers of its own", same, slower);
  }

  /**
   * A/B in blocks of fresh deployments: the kit starts both llama-servers itself ({@code
   * -Dserve.cmd}, {@code -Dcandidate.serve.cmd}, each pinned to core 0 as the other modes' servers
   * are) and restarts both before each block; B's command first joins a cpu group of its own, which
   * the capped verdicts limit to {@code --share} (the A/A ones leave it uncapped, so both sides pay
   * the same start).
   */
  private static void blocks(
      Path out, List<String> common, int verdicts, double share, Map<String, String> a)
      throws Exception {
    Path model = LlamaServer.prepared(TinyLlamaGguf.Vocabulary.WORDS);
    String server =
        "taskset -c 0 bash "
            + LlamaServer.script()
            + " run -m "
            + model
            + " --alias "
            + LlamaServer.MODEL
            + " --host 127.0.0.1 --port {port} -t 1 -c 8192 -np 8 --metrics";
    String maxBlocks = "ab.max.blocks=" + a.getOrDefault("max-blocks", "10");
    List<Verdict> same = new ArrayList<>();
    List<Verdict> slower = new ArrayList<>();
    for (int i = 0; i < verdicts; i++) {
      for (boolean capped : List.of(false, true)) {
        Path results = out.resolve((capped ? "ab-" : "aa-") + i);
        Verdict v;
        if (hasRun(results)) {
          v = run(results, List.of());
        } else {
          try (CpuQuota b = CpuQuota.empty("llmbench-regression-blocks-b")) {
            b.limit(capped ? share : 1.0);
            v =
                run(
                    results,
                    concat(
                        common,
                        "serve.cmd=" + server,
                        "candidate.serve.cmd=echo $$ > " + b.procs() + " && exec " + server,
                        maxBlocks));
          }
        }
        (capped ? slower : same).add(v);
      }
    }
    table("A/B in blocks of fresh deployments (units are blocks)", same, slower);
  }

  /**
   * Runs the kit once into {@code results} against {@code count} servers started for this run
   * alone, the last of them capped at {@code share} (or reads the run already there).
   */
  private static Verdict freshRun(
      Path results,
      int count,
      double share,
      java.util.function.Function<Servers, List<String>> props)
      throws Exception {
    if (hasRun(results)) {
      return run(results, List.of());
    }
    try (Servers servers = Servers.start(count)) {
      servers.quotas().get(count - 1).limit(share);
      return run(results, props.apply(servers));
    }
  }

  private static List<String> concat(List<String> props, String... more) {
    List<String> out = new ArrayList<>(props);
    out.addAll(List.of(more));
    return out;
  }

  /**
   * Each run, history runs included, against a server started for it, as a CI job deploys afresh:
   * the history's run-level noise then holds what differs from one deployment to the next.
   */
  private static void history(
      Path out, List<String> common, int verdicts, double share, Map<String, String> a)
      throws Exception {
    int historyRuns = Integer.parseInt(a.getOrDefault("history-runs", "10"));
    Path history = out.resolve("history");
    List<String> plain = concat(common, "trials=" + a.getOrDefault("trials", "5"));
    for (int i = 0; i < historyRuns; i++) {
      freshRun(
          out.resolve("history-" + i),
          1,
          1.0,
          servers ->
              withoutGates(concat(plain, "base.url=" + servers.url(0), "history=" + history)));
    }
    List<Verdict> same = new ArrayList<>();
    List<Verdict> slower = new ArrayList<>();
    Path baseline =
        freshRun(
                out.resolve("plain-0"),
                1,
                1.0,
                servers -> withoutGates(concat(plain, "base.url=" + servers.url(0))))
            .run();
    for (int i = 0; i < verdicts; i++) {
      Path base = baseline;
      List<String> cappedProps = against(plain, base, history, out, "c" + i);
      slower.add(
          freshRun(
              out.resolve("capped-" + i),
              1,
              share,
              servers -> concat(cappedProps, "base.url=" + servers.url(0))));
      List<String> plainProps = against(plain, base, history, out, "p" + i);
      Verdict next =
          freshRun(
              out.resolve("plain-" + (i + 1)),
              1,
              1.0,
              servers -> concat(plainProps, "base.url=" + servers.url(0)));
      same.add(next);
      baseline = next.run();
    }
    table("stored baseline, history noise (" + historyRuns + " runs)", same, slower);
  }

  /**
   * The path most pipelines take: each verdict its own baseline run and a run against it ({@code
   * -Dbaseline}, no history), each on a server started for it, so no two verdicts share a run or a
   * process. After the table, what the A/A pairs measured: the spread of their log ratio and the
   * run-to-run sd it implies beyond the trials' spread, to set against a declared {@code
   * gate.run.noise}.
   */
  private static void stored(
      Path out, List<String> common, int verdicts, double share, Map<String, String> a)
      throws Exception {
    List<String> plain = concat(common, "trials=" + a.getOrDefault("trials", "5"));
    boolean ab = Boolean.parseBoolean(a.getOrDefault("ab", "false"));
    List<Verdict> same = new ArrayList<>();
    List<Verdict> slower = new ArrayList<>();
    List<double[]> aaPairs = new ArrayList<>();
    for (int i = 0; i < verdicts; i++) {
      for (boolean capped : ab ? List.of(false, true) : List.of(false)) {
        String name = (capped ? "ab-" : "aa-") + i;
        Path base =
            freshRun(
                    out.resolve(name + "-base"),
                    1,
                    1.0,
                    servers -> withoutGates(concat(plain, "base.url=" + servers.url(0))))
                .run();
        Verdict v =
            freshRun(
                out.resolve(name),
                1,
                capped ? share : 1.0,
                servers -> concat(plain, "baseline=" + base, "base.url=" + servers.url(0)));
        (capped ? slower : same).add(v);
        if (!capped) {
          aaPairs.add(new double[] {meanTpot(base), meanTpot(v.run())});
        }
      }
    }
    table("stored baseline, no history (" + String.join(" ", plain) + ")", same, slower);
    runToRun(aaPairs, Integer.parseInt(a.getOrDefault("trials", "5")), out);
  }

  /** A run's level mean TPOT, its trials' mean TPOTs (its first level). */
  private static double meanTpot(Path run) throws IOException {
    LevelSummary l =
        Summary.read(RunFiles.ofRun(run).summary()).levels().values().iterator().next();
    return l.figures().latency(TPOT_MEAN);
  }

  private static final LatencyFigure TPOT_MEAN = LatencyFigure.of(Metric.TPOT, Statistic.MEAN);

  /**
   * The A/A pairs' log ratios: their sd, the part the trials explain (the runs' pooled trial
   * spread, read from their summaries), and the run-to-run sd that leaves, {@code sqrt((sd^2 -
   * trials' part^2) / 2)}.
   */
  private static void runToRun(List<double[]> pairs, int trials, Path out) throws IOException {
    List<Double> logRatios = new ArrayList<>();
    for (double[] p : pairs) {
      logRatios.add(Math.log(p[1] / p[0]));
    }
    List<TrialValues> runs = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(out)) {
      for (Path d : dirs.sorted().toList()) {
        if (d.getFileName().toString().startsWith("aa-") && hasRun(d)) {
          LevelSummary l =
              Summary.read(RunFiles.ofRun(onlyRun(d)).summary())
                  .levels()
                  .values()
                  .iterator()
                  .next();
          runs.add(l.samples().get(TPOT_MEAN.summaryField()));
        }
      }
    }
    double ratioSd = sd(logRatios);
    double trialVar = Noise.ofTrials(runs).map(Noise::trialVariance).orElse(Double.NaN);
    double trialsPart = Math.sqrt(trialVar * 2.0 / trials);
    double runSd = Math.sqrt(Math.max(0, ratioSd * ratioSd - trialsPart * trialsPart) / 2);
    System.out.printf(
        Locale.ROOT,
        "A/A pairs: %d, log ratio of mean TPOT: sd %.3f; the trials' part %.3f (log sd %.3f"
            + " between trials, %d a run); so a run-to-run log sd of %.3f%n",
        logRatios.size(),
        ratioSd,
        trialsPart,
        Math.sqrt(trialVar),
        trials,
        runSd);
  }

  /**
   * Change points on series built from a finished {@code history} benchmark's real runs (no load of
   * its own): {@code --series} series of {@code --length} runs with the step at run {@code --step}
   * (the plain runs before it, the capped runs from it, each part a random subset kept in the order
   * it ran, so the server's drift stays in), and as many series of plain runs only.
   */
  private static void changePoints(Path out, Map<String, String> a) throws IOException {
    String figure = a.getOrDefault("figure", "tpot.mean");
    int series = Integer.parseInt(a.getOrDefault("series", "10"));
    int length = Integer.parseInt(a.getOrDefault("length", "30"));
    int step = Integer.parseInt(a.getOrDefault("step", "20"));
    List<RunValue> plain = new ArrayList<>();
    List<RunValue> capped = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(out)) {
      for (Path d : dirs.sorted().toList()) {
        String name = d.getFileName().toString();
        boolean isCapped = name.startsWith("capped-");
        if (!hasRun(d)
            || !(isCapped || name.startsWith("plain-") || name.startsWith("history-"))
            || name.equals("history-copies")) {
          continue;
        }
        Path run = onlyRun(d);
        Summary s = Summary.read(RunFiles.ofRun(run).summary());
        HistoryLine line = HistoryLine.of(name, Files.getLastModifiedTime(run).toInstant(), s);
        String level = line.levels().keySet().iterator().next();
        (isCapped ? capped : plain)
            .add(
                new RunValue(
                    name, Files.getLastModifiedTime(run).toMillis(), line.value(level, figure)));
      }
    }
    plain.sort(Comparator.comparingLong(RunValue::millis));
    capped.sort(Comparator.comparingLong(RunValue::millis));
    if (plain.size() < length || plain.size() < step - 1 || capped.size() < length - step + 1) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s holds %d plain and %d capped runs: a series of %d with its step at %d needs %d"
                  + " plain and %d capped",
              out,
              plain.size(),
              capped.size(),
              length,
              step,
              length,
              length - step + 1));
    }
    double plainMean = plain.stream().mapToDouble(RunValue::value).average().orElse(Double.NaN);
    double cappedMean = capped.stream().mapToDouble(RunValue::value).average().orElse(Double.NaN);
    System.out.printf(
        Locale.ROOT,
        "change points in %s: %d plain runs (mean %.2f), %d capped runs (mean %.2f, %+.1f%%);"
            + " %d series of %d runs a kind, the step at run %d%n",
        figure,
        plain.size(),
        plainMean,
        capped.size(),
        cappedMean,
        100 * (cappedMean / plainMean - 1),
        series,
        length,
        step);
    java.util.Random random = new java.util.Random(41);
    int foundAtStep = 0;
    int quiet = 0;
    for (int i = 0; i < series; i++) {
      List<RunValue> before = inOrder(plain, step - 1, random);
      List<RunValue> after = inOrder(capped, length - step + 1, random);
      double[] withStep =
          Stream.concat(before.stream(), after.stream()).mapToDouble(RunValue::value).toArray();
      List<ChangePoints.ChangePoint> found =
          ChangePoints.find(withStep, ChangePoints.Settings.DEFAULT.withSeed(i + 1));
      boolean hit = found.stream().anyMatch(c -> Math.abs(c.index() - step) <= 1);
      foundAtStep += hit ? 1 : 0;
      double[] flat =
          inOrder(plain, length, random).stream().mapToDouble(RunValue::value).toArray();
      List<ChangePoints.ChangePoint> none =
          ChangePoints.find(flat, ChangePoints.Settings.DEFAULT.withSeed(i + 1));
      quiet += none.isEmpty() ? 1 : 0;
      System.out.printf(
          Locale.ROOT,
          "  series %d: with the step %s; without %s%n",
          i + 1,
          describe(found),
          describe(none));
    }
    System.out.printf(
        Locale.ROOT,
        "step found at run %d +- 1 in %d of %d series %s; no change point in %d of %d series"
            + " without a step %s%n",
        step,
        foundAtStep,
        series,
        rate(foundAtStep, series),
        quiet,
        series,
        rate(quiet, series));
  }

  /** A finished run's figure, and when it ended. */
  private record RunValue(String name, long millis, double value) {}

  /** {@code count} of {@code runs} drawn at random, kept in the order they ran. */
  private static List<RunValue> inOrder(List<RunValue> runs, int count, java.util.Random random) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      idx.add(i);
    }
    java.util.Collections.shuffle(idx, random);
    return idx.subList(0, count).stream().sorted().map(runs::get).toList();
  }

  private static String describe(List<ChangePoints.ChangePoint> found) {
    if (found.isEmpty()) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    for (ChangePoints.ChangePoint c : found) {
      parts.add(
          String.format(
              Locale.ROOT, "run %d (%+.1f%%, p %.3f)", c.index(), 100 * c.magnitude(), c.pValue()));
    }
    return String.join(", ", parts);
  }

  private static List<String> withoutGates(List<String> props) {
    List<String> out = new ArrayList<>(props);
    out.removeIf(p -> p.startsWith("gate."));
    return out;
  }

  /** The run's settings against a baseline run, with its own copy of the history. */
  private static List<String> against(
      List<String> plain, Path baseline, Path history, Path out, String name) throws IOException {
    Path copy = out.resolve("history-copies").resolve(name);
    if (!Files.exists(copy)) {
      copyTree(history, copy);
    }
    List<String> props = new ArrayList<>(plain);
    props.addAll(List.of("baseline=" + baseline, "history=" + copy));
    return props;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** Runs the kit once into {@code results} (or reads the run already there). */
  static Verdict run(Path results, List<String> props) throws Exception {
    if (!hasRun(results)) {
      Files.createDirectories(results);
      List<String> all = new ArrayList<>(props);
      all.add("seed=" + (System.nanoTime() & 0x7fffffffL));
      GatlingProcess.Outcome o =
          GatlingProcess.run(
              ServingBenchmarkSimulation.class, results, 1800, all.toArray(String[]::new));
      Files.writeString(
          results.resolve("exit-status.txt"),
          o.exitCode() + " " + o.millis() + "\n",
          StandardCharsets.UTF_8);
      Files.writeString(results.resolve("console.txt"), o.stdout() + o.stderr());
      if (o.exitCode() != 0 && o.exitCode() != 2) {
        throw new IllegalStateException(
            "run " + results + " failed (" + o.exitCode() + "):\n" + o.stdout() + o.stderr());
      }
      System.out.printf(
          Locale.ROOT, "  %s: exit %d, %.0f s%n", results, o.exitCode(), o.millis() / 1000.0);
    }
    String[] status = Files.readString(results.resolve("exit-status.txt")).trim().split(" ");
    Path run = onlyRun(results);
    AbFigures ab = Summary.read(RunFiles.ofRun(run).summary()).run().ab();
    int pairs = 0;
    double ratio = Double.NaN;
    double sd = Double.NaN;
    if (ab != null && !ab.gates().isEmpty()) {
      AbFigures.GateTrack g = ab.gates().get(0);
      pairs = g.pairsUsed();
      ratio = g.ratio() == null ? Double.NaN : g.ratio();
      sd = sd(g.logRatios());
    }
    Verdict v =
        new Verdict(
            decision(RunFiles.ofRun(run).gatesXml()),
            Integer.parseInt(status[0]),
            Long.parseLong(status[1]) / 1000.0,
            run,
            pairs,
            ratio,
            sd,
            ab == null ? "pair" : ab.unit());
    System.out.println("    " + results.getFileName() + ": " + v.describe());
    return v;
  }

  private static double sd(List<Double> x) {
    if (x.size() < 2) {
      return Double.NaN;
    }
    double mean = x.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double ss = x.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
    return Math.sqrt(ss / (x.size() - 1));
  }

  private static final Pattern CASE =
      Pattern.compile("<testcase [^>]*name=\"([^\"]*)\"(/>|>(.*?)</testcase>)", Pattern.DOTALL);

  /** The relative gate's verdict in {@code gates.xml}: FAIL, INCONCLUSIVE, PASS, or NONE. */
  static String decision(Path gatesXml) throws IOException {
    if (!Files.isRegularFile(gatesXml)) {
      return "NONE";
    }
    String xml = Files.readString(gatesXml);
    Matcher m = CASE.matcher(xml);
    while (m.find()) {
      if (m.group(1).contains("failed.pct")) {
        continue;
      }
      String body = m.group(3) == null ? "" : m.group(3);
      if (body.contains("<failure")) {
        return "FAIL";
      }
      return body.contains("<skipped") ? "INCONCLUSIVE" : "PASS";
    }
    return "NONE"; // a run without a relative gate: a history run, the first baseline
  }

  private static boolean hasRun(Path results) throws IOException {
    return Files.isRegularFile(results.resolve("exit-status.txt"));
  }

  private static Path onlyRun(Path results) throws IOException {
    try (Stream<Path> runs = Files.list(results)) {
      return runs.filter(p -> Files.isRegularFile(RunFiles.ofRun(p).summary()))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no run folder in " + results));
    }
  }

  private static void table(String mode, List<Verdict> same, List<Verdict> slower) {
    System.out.println();
    System.out.println(mode);
    System.out.printf(
        Locale.ROOT,
        "%-12s %8s %5s %5s %13s %22s %22s %14s %19s %13s%n",
        "comparison",
        "verdicts",
        "FAIL",
        "PASS",
        "INCONCLUSIVE",
        "FAIL rate [95% CP]",
        "inconclusive [95% CP]",
        "median min/run",
        "median pairs or blocks (max)",
        "ratio min-max");
    row("A/A", same);
    row("capped", slower);
  }

  private static void row(String name, List<Verdict> v) {
    int n = v.size();
    long fail = v.stream().filter(x -> x.decision().equals("FAIL")).count();
    long pass = v.stream().filter(x -> x.decision().equals("PASS")).count();
    long inconclusive = n - fail - pass;
    List<Double> s = v.stream().map(Verdict::seconds).sorted(Comparator.naturalOrder()).toList();
    System.out.printf(
        Locale.ROOT,
        "%-12s %8d %5d %5d %13d %22s %22s %14.1f %19s %13s%n",
        name,
        n,
        fail,
        pass,
        inconclusive,
        rate((int) fail, n),
        rate((int) inconclusive, n),
        s.isEmpty() ? Double.NaN : s.get(s.size() / 2) / 60.0,
        medianPairs(v),
        ratioRange(v));
  }

  private static String medianPairs(List<Verdict> v) {
    List<Integer> p = v.stream().map(Verdict::pairs).filter(n -> n > 0).sorted().toList();
    return p.isEmpty()
        ? "-"
        : String.format(Locale.ROOT, "%d (%d)", p.get(p.size() / 2), p.get(p.size() - 1));
  }

  private static String ratioRange(List<Verdict> v) {
    double[] r = v.stream().mapToDouble(Verdict::ratio).filter(Double::isFinite).sorted().toArray();
    return r.length == 0 ? "-" : String.format(Locale.ROOT, "%.3f-%.3f", r[0], r[r.length - 1]);
  }

  /** {@code 0.05 [0.00, 0.25]}: the rate with its Clopper-Pearson 95% interval. */
  static String rate(int k, int n) {
    if (n == 0) {
      return "-";
    }
    double low =
        k == 0 ? 0.0 : BetaDistribution.of(k, n - k + 1.0).inverseCumulativeProbability(0.025);
    double high =
        k == n ? 1.0 : BetaDistribution.of(k + 1.0, n - k).inverseCumulativeProbability(0.975);
    return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", (double) k / n, low, high);
  }

  private static void projectClassPath() throws Exception {
    // under exec:java the JVM's class path is Maven's; the forked runs need the project's
    if (Thread.currentThread().getContextClassLoader() instanceof URLClassLoader loader) {
      List<String> entries = new ArrayList<>();
      for (URL u : loader.getURLs()) {
        entries.add(Path.of(u.toURI()).toString());
      }
      System.setProperty("java.class.path", String.join(File.pathSeparator, entries));
    }
  }
}
