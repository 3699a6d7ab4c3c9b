package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.Status;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server sweep over the simulator as a server process (two {@code --max-num-seqs}) crossed with a
 * workload setting ({@code -Dsweep=output.len:8}), run as the Maven plugin runs it (a forked
 * Gatling JVM), its kit killed with SIGTERM once the first combination is done, then resumed to the
 * end. Two combinations keep it short; crossing several of each is {@code SweepRunTest}'s.
 */
class SweepIT {
  @TempDir static Path results;

  private static final String[] PROPS = {
    "serve.cmd=simulator --model sim-tiny --gpu rtx4090 --slowdown 8",
    "serve.params=max-num-seqs:1,4",
    "sweep=output.len:8",
    "slo=ttft.p99:100000",
    "conc=2",
    "prompts=6",
    "input.len=32",
    "metrics.interval=0.1"
  };

  private static Path folder;
  private static List<ProcessHandle> killedTree;
  private static List<String> killedCommands;
  private static boolean killedExited;
  private static Point firstDone;
  private static long firstRunRecords;
  private static GatlingProcess.Outcome resumed;
  private static SweepSummary.Sweep sweep;

  @BeforeAll
  static void sweepKilledThenResumed() throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    for (String p : PROPS) {
      cmd.add("-D" + p);
    }
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "io.gatling.app.Gatling",
            "--simulation",
            ServingBenchmarkSimulation.class.getName(),
            "--results-folder",
            results.toString()));
    Path log = results.resolve("killed.txt");
    Process kit =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    firstDone = awaitFirstDone(kit, log);
    // killed in the middle of the next combination: its server and its run both up
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    do {
      Thread.sleep(100);
      killedTree = new ArrayList<>(kit.descendants().toList());
      killedCommands = killedTree.stream().map(SweepIT::commandLine).toList();
    } while (System.nanoTime() < deadline
        && !(killedCommands.stream().anyMatch(c -> c.contains("VllmSimulatorMain"))
            && killedCommands.stream().anyMatch(c -> c.contains("io.gatling.app.Gatling"))));
    kit.destroy(); // SIGTERM, as Ctrl-C's or a CI runner's
    killedExited = kit.waitFor(60, TimeUnit.SECONDS);
    for (ProcessHandle h : killedTree) {
      h.onExit().get(30, TimeUnit.SECONDS);
    }
    firstRunRecords =
        RequestsJsonl.read(RunFiles.ofRun(folder.resolve(firstDone.run())).requests()).stream()
            .filter(RequestRecord::ok)
            .count();
    List<String> again = new ArrayList<>(List.of(PROPS));
    again.add("sweep.resume=" + folder);
    resumed =
        GatlingProcess.run(
            ServingBenchmarkSimulation.class, results, 240, again.toArray(String[]::new));
    sweep = SweepSummary.read(folder.resolve(SweepSummary.FILE)).sweep();
  }

  /** A process's arguments, from {@code /proc} (the JDK's view omits long ones). */
  private static String commandLine(ProcessHandle h) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(h.pid()), "cmdline"))
          .replace('\0', ' ');
    } catch (java.io.IOException e) {
      return "";
    }
  }

  /** Waits for the sweep's first finished combination (its folder found on the way). */
  private static Point awaitFirstDone(Process kit, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline && kit.isAlive()) {
      try (Stream<Path> s = Files.list(results)) {
        folder =
            s.filter(p -> p.getFileName().toString().startsWith("sweep-")).findFirst().orElse(null);
      }
      if (folder != null && Files.exists(folder.resolve(SweepSummary.FILE))) {
        for (Point p : SweepSummary.read(folder.resolve(SweepSummary.FILE)).sweep().points()) {
          if (p.status() == Status.done) {
            return p;
          }
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no combination finished:\n" + Files.readString(log));
  }

  @Test
  void aKilledKitLeavesNoServerAndNoRunBehind() {
    assertTrue(killedExited, "the kit ended on SIGTERM");
    assertTrue(
        killedCommands.stream().anyMatch(c -> c.contains("VllmSimulatorMain")),
        "the server was one of its processes: " + killedCommands);
    assertTrue(
        killedCommands.stream().anyMatch(c -> c.contains("io.gatling.app.Gatling")),
        "and the next combination's run");
    assertTrue(killedTree.stream().noneMatch(ProcessHandle::isAlive), "none left: " + killedTree);
  }

  @Test
  void theResumedSweepKeepsWhatWasDoneAndRunsTheRest() {
    assertEquals(0, resumed.exitCode(), resumed.stdout() + resumed.stderr());
    assertEquals(2, sweep.points().size());
    assertTrue(
        sweep.points().stream().allMatch(p -> p.status() == Status.done),
        sweep.points().toString());
    Point kept =
        sweep.points().stream()
            .filter(p -> p.name().equals(firstDone.name()))
            .findFirst()
            .orElseThrow();
    assertEquals(firstDone.run(), kept.run(), "not run again");
    assertEquals(6, firstRunRecords, "its records were intact after the kill");
    assertTrue(resumed.stdout().contains("1 done before, kept"), resumed.stdout());
  }

  @Test
  void eachServerRanWithItsOwnSettingByItsOwnMetrics() throws Exception {
    for (Point p : sweep.points()) {
      Summary s = Summary.read(RunFiles.summaryOf(folder.resolve(p.run())).orElseThrow());
      LevelSummary c2 = s.measuredLevels().get("c2");
      int maxNumSeqs = Integer.parseInt(p.server().get("max-num-seqs"));
      double running = c2.server().level().get(CommonServerFigures.RUNNING_MAX);
      assertEquals(
          Math.min(2, maxNumSeqs), running, 0.0, p.name() + ": the server's own running max");
      assertEquals(6, c2.figures().completed(), p.name());
      assertEquals(
          p.workload().get("output.len"), "" + c2.figures().totalOutputTokens() / 6, p.name());
    }
  }

  @Test
  void theSummaryNamesTheFrontierAndTheBestFromThePointsFigures() {
    double bestTput = -1;
    for (Point p : sweep.points()) {
      for (var l : p.levels().values()) {
        bestTput = Math.max(bestTput, l.outputThroughput());
        boolean dominated =
            sweep.points().stream()
                .flatMap(o -> o.levels().values().stream())
                .anyMatch(
                    o ->
                        o.outputThroughput() >= l.outputThroughput()
                            && o.interactivity() >= l.interactivity()
                            && (o.outputThroughput() > l.outputThroughput()
                                || o.interactivity() > l.interactivity()));
        assertEquals(!dominated, l.onFrontier(), p.name());
      }
    }
    assertEquals(bestTput, sweep.best().outputThroughput(), 1e-9, "every level met the loose SLO");
  }

  @Test
  @Tag("chromium")
  void thePageDrawsTheParetoChartAndSortsItsTable() throws Exception {
    Chromium.Dump d = Chromium.open(folder.resolve("sweep.html"));
    Chromium.assertChartsDrawn(d, 1);
    assertTrue(d.dom().contains("data-sorted=\"4 desc\""), "sorted by output throughput");
    String best = sweep.best().point();
    int first = d.dom().indexOf("<td class=\"total\">", d.dom().indexOf("llm-sweep-table"));
    assertTrue(
        d.dom().startsWith(best, first + "<td class=\"total\">".length()), "the best row first");
  }

  @Test
  void theConsoleGivesTheSweepsResultBlock() {
    assertTrue(resumed.stdout().contains("Sweep Result"));
    assertTrue(
        resumed.stdout().contains("Best under ttft.p99 <= 100000.00: " + sweep.best().point()),
        resumed.stdout());
  }
}
