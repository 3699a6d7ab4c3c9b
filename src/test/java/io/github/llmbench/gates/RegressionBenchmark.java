package io.github.llmbench.gates;

import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.CpuQuota;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.LlamaServer;
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
 *   -Dexec.args="--mode interleaved --verdicts 20 --share 0.85 --gate tpot.mean=+10% --out target/regression"
 * </pre>
 *
 * <p>Modes: {@code calibrate} runs interleaved pairs to a fixed count ({@code --pairs}) for each
 * share in {@code --shares} and prints the slowdown each gives; {@code interleaved} alternates A/A
 * verdicts (two servers, neither capped) and A/B verdicts (the candidate server capped at {@code
 * --share}), each one run with {@code -Dcandidate.url}; {@code history} first runs {@code
 * --history-runs} plain runs of {@code --trials} trials into a history, then alternates a capped
 * and a plain run, each against the plain run before it as {@code -Dbaseline} and with the
 * history's noise (each against its own copy of the history, so verdict runs do not feed it). Run
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
      double pairSd) {
    String describe() {
      return pairs == 0
          ? String.format(Locale.ROOT, "%s, %.0f s", decision, seconds)
          : String.format(
              Locale.ROOT,
              "%s, ratio %.3f after %d pairs, log sd of a pair %.3f, %.0f s",
              decision,
              ratio,
              pairs,
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
    try (Servers servers = Servers.start(mode.equals("history") ? 1 : 2)) {
      switch (mode) {
        case "calibrate" -> calibrate(servers, out, common, a);
        case "interleaved" -> interleaved(servers, out, common, verdicts, share, a);
        case "history" -> history(servers, out, common, verdicts, share, a);
        default -> throw new IllegalArgumentException("--mode: calibrate, interleaved or history");
      }
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
    for (String s : a.getOrDefault("shares", "1,0.9,0.85,0.8").split(",")) {
      double share = Double.parseDouble(s);
      servers.quotas().get(1).limit(share);
      List<String> props = new ArrayList<>(common);
      props.addAll(
          List.of(
              "base.url=" + servers.url(0),
              "candidate.url=" + servers.url(1),
              "ab.min.pairs=" + pairs,
              "ab.max.pairs=" + pairs));
      long throttledBefore = servers.quotas().get(1).throttledPeriods();
      Verdict v = run(out.resolve("calibrate-" + s), props);
      System.out.printf(
          Locale.ROOT,
          "share %.2f: %s, B throttled in %d periods of 10 ms, %s%n",
          share,
          v.describe(),
          servers.quotas().get(1).throttledPeriods() - throttledBefore,
          v.run());
    }
    servers.quotas().get(1).limit(1.0);
  }

  private static void interleaved(
      Servers servers,
      Path out,
      List<String> common,
      int verdicts,
      double share,
      Map<String, String> a)
      throws Exception {
    List<String> props = new ArrayList<>(common);
    props.addAll(
        List.of(
            "base.url=" + servers.url(0),
            "candidate.url=" + servers.url(1),
            "ab.max.pairs=" + a.getOrDefault("max-pairs", "20")));
    List<Verdict> same = new ArrayList<>();
    List<Verdict> slower = new ArrayList<>();
    for (int i = 0; i < verdicts; i++) {
      servers.quotas().get(1).limit(1.0);
      same.add(run(out.resolve("aa-" + i), props));
      servers.quotas().get(1).limit(share);
      slower.add(run(out.resolve("ab-" + i), props));
    }
    servers.quotas().get(1).limit(1.0);
    table("interleaved A/B", same, slower);
  }

  private static void history(
      Servers servers,
      Path out,
      List<String> common,
      int verdicts,
      double share,
      Map<String, String> a)
      throws Exception {
    int historyRuns = Integer.parseInt(a.getOrDefault("history-runs", "10"));
    Path history = out.resolve("history");
    List<String> plain = new ArrayList<>(common);
    plain.addAll(List.of("base.url=" + servers.url(0), "trials=" + a.getOrDefault("trials", "5")));
    CpuQuota quota = servers.quotas().get(0);
    quota.limit(1.0);
    for (int i = 0; i < historyRuns; i++) {
      List<String> props = new ArrayList<>(plain);
      props.add("history=" + history);
      props.removeIf(p -> p.startsWith("gate."));
      run(out.resolve("history-" + i), props);
    }
    List<Verdict> same = new ArrayList<>();
    List<Verdict> slower = new ArrayList<>();
    Path baseline = onlyRun(run(out.resolve("plain-0"), withoutGates(plain)).run());
    for (int i = 0; i < verdicts; i++) {
      quota.limit(share);
      slower.add(run(out.resolve("capped-" + i), against(plain, baseline, history, out, "c" + i)));
      quota.limit(1.0);
      Verdict next =
          run(out.resolve("plain-" + (i + 1)), against(plain, baseline, history, out, "p" + i));
      same.add(next);
      baseline = onlyRun(next.run());
    }
    table("stored baseline, history noise (" + historyRuns + " runs)", same, slower);
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
            sd);
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

  /** The relative gate's verdict in {@code gates.xml}: FAIL, INCONCLUSIVE or PASS. */
  static String decision(Path gatesXml) throws IOException {
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
    throw new IllegalStateException("no relative gate in " + gatesXml);
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
        "%-12s %8s %5s %5s %13s %22s %22s %14s %13s%n",
        "comparison",
        "verdicts",
        "FAIL",
        "PASS",
        "INCONCLUSIVE",
        "FAIL rate [95% CP]",
        "inconclusive [95% CP]",
        "median min/run",
        "median pairs");
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
        "%-12s %8d %5d %5d %13d %22s %22s %14.1f %13s%n",
        name,
        n,
        fail,
        pass,
        inconclusive,
        rate((int) fail, n),
        rate((int) inconclusive, n),
        s.isEmpty() ? Double.NaN : s.get(s.size() / 2) / 60.0,
        medianPairs(v));
  }

  private static String medianPairs(List<Verdict> v) {
    List<Integer> p = v.stream().map(Verdict::pairs).filter(n -> n > 0).sorted().toList();
    return p.isEmpty() ? "-" : String.valueOf(p.get(p.size() / 2));
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
