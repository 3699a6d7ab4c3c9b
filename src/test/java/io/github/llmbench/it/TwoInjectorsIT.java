package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.cli.MergeMain;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two injectors on this machine share one level against one server ({@code -Dinjector=i/2}, {@code
 * -Dstart.at}), merge into one report, and give what one process running the whole load gives: the
 * same request count and peak concurrency, and the same throughput within noise. The two injectors,
 * their merge and the one process run once for the class.
 *
 * <p>They write into one results folder, as two {@code mvn gatling:test} in one checkout do: each
 * run's files land in its own Gatling run folder, whole (when the kit took the newest folder for
 * its own, both wrote into the later one and the first run's records were lost).
 */
class TwoInjectorsIT {
  /** Gatling's last console line names its report: {@code file:///.../<run folder>/index.html}. */
  private static final Pattern GATLING_REPORT = Pattern.compile("(file:\\S+)/index\\.html");

  private static final Pattern KIT_RECORDS =
      Pattern.compile("Per-request records: (.+)/llm/requests\\.jsonl");
  private static final String CONC = "6";
  private static final String SECONDS = "6";
  private static final String LEVEL = "c" + CONC;

  /** Gatling's line once its simulation runs: the injector is up, its run folder made. */
  private static final String STARTED =
      "Simulation " + ServingBenchmarkSimulation.class.getName() + " started";

  /**
   * The first lead from the injectors' launch to their {@code -Dstart.at}: a little over what two
   * JVMs starting Gatling and the kit together took on 2 cores (10-11 s, a lone one 5-6 s, under a
   * load of 3-5); doubled while they miss it, {@value #ATTEMPTS} tries at most.
   */
  private static final long FIRST_LEAD_MS = 12_000;

  private static final int ATTEMPTS = 3;

  @TempDir static Path dir;

  private static VllmSimulator sim;
  private static long startAt;
  private static Path results;
  private static List<GatlingProcess.Outcome> injectors;
  private static List<RequestRecord> ra;
  private static List<RequestRecord> rb;
  private static int mergeExitCode;
  private static String mergeConsole;
  private static Path merged;
  private static Summary m;
  private static Summary s;

  @BeforeAll
  static void runTwoInjectorsTheirMergeAndOneProcess() throws Exception {
    sim = VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"));
    String[] common = {
      "base.url=" + sim.baseUrl(),
      "conc=" + CONC,
      "duration=" + SECONDS,
      "input.len=64",
      "output.len=64",
      "seed=11"
    };
    injectors = runInjectors(common);
    ra = RequestsJsonl.read(runFolder(0).resolve("llm/requests.jsonl"));
    rb = RequestsJsonl.read(runFolder(1).resolve("llm/requests.jsonl"));

    ByteArrayOutputStream console = new ByteArrayOutputStream();
    mergeExitCode =
        MergeMain.run(
            new String[] {
              runFolder(0).toString(), runFolder(1).toString(), "--out", merged.toString()
            },
            new PrintStream(console, true, StandardCharsets.UTF_8),
            System.err);
    mergeConsole = console.toString(StandardCharsets.UTF_8);
    assertEquals(0, mergeExitCode, mergeConsole);
    m = Summary.read(merged.resolve("llm/summary.json"));

    GatlingRun.Result single =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            dir.resolve("single"),
            Map.of(
                "base.url",
                sim.baseUrl(),
                "conc",
                CONC,
                "duration",
                SECONDS,
                "input.len",
                "64",
                "output.len",
                "64",
                "seed",
                "12"));
    assertEquals(0, single.exitCode(), single.console());
    s = TestReports.summary(single.runDir());
    System.out.printf(
        Locale.ROOT,
        "two injectors merged: %d requests, peak %d, %.1f tok/s (steady %.1f); one process: %d"
            + " requests, peak %d, %.1f tok/s (steady %.1f)%n",
        m.overall().completed(),
        m.overall().maxConcurrentRequests(),
        m.overall().outputThroughput(),
        steadyThroughput(m),
        s.overall().completed(),
        s.overall().maxConcurrentRequests(),
        s.overall().outputThroughput(),
        steadyThroughput(s));
  }

  @AfterAll
  static void stopTheSimulator() {
    if (sim != null) {
      sim.close();
    }
  }

  /**
   * Both injectors, on {@code -Dstart.at} a lead after their launch. They must both be up (Gatling
   * said its simulation started, their run folders made) before that instant: then each one's start
   * waits for it, and the first requests of both runs come when both folders exist, where a guess
   * by time went wrong. Whether they were is seen on their consoles, not guessed from a lead long
   * enough for a busy machine (15 s, most of it waited for): a lead they missed is doubled and both
   * are started again, in folders of their own.
   */
  private static List<GatlingProcess.Outcome> runInjectors(String[] common) throws Exception {
    long leadMs = FIRST_LEAD_MS;
    for (int attempt = 1; ; attempt++) {
      Path attemptDir = dir.resolve("attempt-" + attempt);
      results = attemptDir.resolve("injectors");
      merged = attemptDir.resolve("merged");
      long launched = System.currentTimeMillis();
      startAt = launched + leadMs;
      List<GatlingProcess.Running> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String[] props =
            Stream.concat(
                    Stream.of(common), Stream.of("injector=" + i + "/2", "start.at=" + startAt))
                .toArray(String[]::new);
        runs.add(GatlingProcess.start(ServingBenchmarkSimulation.class, results, Map.of(), props));
      }
      boolean up = bothUpBefore(runs, launched, startAt);
      System.out.printf(
          Locale.ROOT,
          "two injectors, attempt %d: %s %d ms after their launch (-Dstart.at)%n",
          attempt,
          up ? "both up before their start," : "not both up by their start,",
          leadMs);
      if (up) {
        List<GatlingProcess.Outcome> outcomes = new ArrayList<>();
        for (GatlingProcess.Running run : runs) {
          GatlingProcess.Outcome o = run.await(120);
          assertEquals(0, o.exitCode(), o.stdout() + o.stderr());
          outcomes.add(o);
        }
        return outcomes;
      }
      for (GatlingProcess.Running run : runs) {
        run.kill();
      }
      assertTrue(attempt < ATTEMPTS, "the injectors were never both up before their start");
      leadMs *= 2;
    }
  }

  /**
   * Whether both runs said their simulation started before {@code atMs} (epoch ms); prints how long
   * after {@code launchedMs} each did.
   */
  private static boolean bothUpBefore(List<GatlingProcess.Running> runs, long launchedMs, long atMs)
      throws Exception {
    long[] upMs = new long[runs.size()];
    while (System.currentTimeMillis() < atMs && Arrays.stream(upMs).anyMatch(t -> t == 0)) {
      for (int i = 0; i < runs.size(); i++) {
        if (upMs[i] == 0 && runs.get(i).stdout().contains(STARTED)) {
          upMs[i] = System.currentTimeMillis() - launchedMs;
        }
      }
      Thread.sleep(20);
    }
    System.out.println(
        "injectors up after their launch (ms, 0: not by their start): " + Arrays.toString(upMs));
    return Arrays.stream(upMs).allMatch(t -> t > 0);
  }

  /** The run folder injector {@code i} wrote: the one Gatling names on its console. */
  private static Path runFolder(int i) {
    Matcher gatling = GATLING_REPORT.matcher(injectors.get(i).stdout());
    assertTrue(gatling.find(), injectors.get(i).stdout());
    return real(Paths.get(URI.create(gatling.group(1))));
  }

  private static double steadyThroughput(Summary summary) {
    return summary.levels().get(LEVEL).steadyState().outputThroughput();
  }

  private static String both() {
    return "merged " + brief(m) + "\nsingle " + brief(s);
  }

  private static String brief(Summary summary) {
    return String.format(
        Locale.ROOT,
        "%d requests, peak %d, steady %.1f tok/s",
        summary.overall().completed(),
        summary.overall().maxConcurrentRequests(),
        steadyThroughput(summary));
  }

  @Test
  void eachInjectorSaysWhichItIsAndNeedsNoFolderOfItsOwn() {
    for (GatlingProcess.Outcome o : injectors) {
      String console = o.stdout() + o.stderr();
      assertTrue(o.stdout().contains("injector     "), o.stdout());
      assertFalse(console.contains("folder of their own"), console);
    }
  }

  @Test
  void eachInjectorWritesWhereGatlingWroteItsRun() {
    for (int i = 0; i < 2; i++) {
      String stdout = injectors.get(i).stdout();
      Matcher kit = KIT_RECORDS.matcher(stdout);
      assertTrue(kit.find(), stdout);
      assertEquals(
          runFolder(i),
          real(Paths.get(kit.group(1))),
          "the kit wrote where Gatling wrote this run");
    }
  }

  @Test
  void twoRunsTwoFoldersAndNothingElse() throws Exception {
    assertFalse(runFolder(0).equals(runFolder(1)), "two runs, two folders: " + runFolder(0));
    try (Stream<Path> listed = Files.list(results)) {
      assertEquals(
          Set.of(runFolder(0), runFolder(1)),
          listed.map(TwoInjectorsIT::real).collect(Collectors.toSet()),
          "nothing else in the results folder");
    }
  }

  @Test
  void eachInjectorsSummaryCountsItsOwnRecordsOnce() throws Exception {
    for (int i = 0; i < 2; i++) {
      Path run = runFolder(i);
      List<RequestRecord> records = i == 0 ? ra : rb;
      Summary summary = Summary.read(run.resolve("llm/summary.json"));
      assertEquals(
          records.size(),
          records.stream().map(RequestRecord::id).distinct().count(),
          "each request once in " + run);
      assertEquals(
          records.size(),
          summary.overall().completed() + summary.overall().failed(),
          "the summary counts this run's records, " + run);
      assertTrue(
          Files.isRegularFile(run.resolve("llm.html")),
          "llm.html beside Gatling's index.html in " + run);
    }
  }

  @Test
  void eachInjectorTagsItsRecordsAndSummary() throws Exception {
    assertEquals("0/2", Summary.read(runFolder(0).resolve("llm/summary.json")).run().injector());
    assertTrue(
        ra.stream().allMatch(r -> r.origin().injector() == 0 && r.level().equals(LEVEL)),
        "tagged, whole level's name");
    assertTrue(rb.stream().allMatch(r -> r.origin().injector() == 1), "tagged");
  }

  /**
   * Both were up before {@code -Dstart.at} ({@link #runInjectors}), and neither sent before it:
   * each one's first send came at or after it. How soon after is Gatling's start latency on the
   * machine (a chained population starts on the injector's next tick): printed, not bounded.
   */
  @Test
  void bothInjectorsStartOnStartAt() {
    long firstA = ra.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
    long firstB = rb.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
    System.out.printf(
        Locale.ROOT,
        "first sends after -Dstart.at: %d ms, %d ms%n",
        firstA - startAt,
        firstB - startAt);
    assertTrue(firstA >= startAt, (firstA - startAt) + " ms after -Dstart.at");
    assertTrue(firstB >= startAt, (firstB - startAt) + " ms after -Dstart.at");
  }

  @Test
  void theMergeCountsBothInjectorsAndGatesTheWholeLoad() throws Exception {
    assertEquals(ra.size() + rb.size(), m.overall().completed());
    assertEquals(2, m.run().injectors().size(), m.run().toString());
    assertTrue(
        Files.readString(merged.resolve("llm/gates.xml")).contains("failed.pct"),
        "the injectors' gates over the whole load");
  }

  @Test
  void theMergedPageLinksEachInjectorsGatlingReport() throws Exception {
    String page = Files.readString(merged.resolve("llm.html"));
    assertTrue(
        page.contains("<a href=\"../injectors/" + runFolder(0).getFileName() + "/index.html\">"),
        "each injector's Gatling report linked");
  }

  @Test
  void theMergedFolderHasGatlingsReportCountingEveryMergedRecord() throws Exception {
    List<RequestRecord> all = RequestsJsonl.read(merged.resolve("llm/requests.jsonl"));
    long counted = all.stream().filter(r -> !r.cancelled()).count();
    GatlingReport report = GatlingReport.of(merged);
    assertEquals(counted, report.global().total(), "All Requests");
    assertEquals(all.stream().filter(RequestRecord::ok).count(), report.global().ok());
    assertEquals(counted, report.request(List.of(LEVEL), "request").orElseThrow().total());
    assertEquals(all.size(), report.group(LEVEL).orElseThrow().total());
    assertTrue(mergeConsole.contains("Gatling's report of the merged records: "), mergeConsole);
  }

  @Test
  void theMergedGatlingReportsGroupReadsTheRecordsE2el() throws Exception {
    List<RequestRecord> all = RequestsJsonl.read(merged.resolve("llm/requests.jsonl"));
    long mean =
        Math.round(
            all.stream()
                .mapToLong(
                    r ->
                        r.cancelled()
                            ? 0
                            : r.ok() ? r.e2elMs().longValue() : r.endMs() - r.startMs())
                .average()
                .orElseThrow());
    assertEquals(mean, GatlingReport.of(merged).group(LEVEL).orElseThrow().meanMs());
  }

  @Test
  @Tag("chromium")
  void theMergedGroupPageCountsEveryMergedRecordInChromium() throws Exception {
    List<RequestRecord> all = RequestsJsonl.read(merged.resolve("llm/requests.jsonl"));
    Map<String, List<String>> stats =
        GatlingReport.detailsStats(
            Chromium.open(merged.resolve(GatlingReport.groupPage(LEVEL))).dom());
    assertEquals(
        List.of(
            String.valueOf(all.size()),
            String.valueOf(all.stream().filter(RequestRecord::ok).count()),
            String.valueOf(all.stream().filter(r -> !r.ok()).count())),
        stats.get("Total count").stream().map(v -> v.replace(",", "")).toList());
  }

  @Test
  void theMergeHasThePeakConcurrencyOfOneProcess() {
    assertEquals(s.overall().maxConcurrentRequests(), m.overall().maxConcurrentRequests(), both());
    assertEquals(Integer.parseInt(CONC), m.overall().maxConcurrentRequests(), both());
  }

  @Test
  void theMergeCompletesAsManyRequestsAsOneProcessWithinNoise() {
    assertEquals(
        s.overall().completed(), m.overall().completed(), 0.15 * s.overall().completed(), both());
  }

  @Test
  void theMergesSteadyThroughputIsOneProcesssWithinNoise() {
    // the steady window's: a late start of one injector (a JVM slow to start on a busy machine)
    // stretches the merged level's edges, not its steady middle
    double steadySingle = steadyThroughput(s);
    assertEquals(steadySingle, steadyThroughput(m), 0.15 * steadySingle, both());
  }

  /** A path as the file system resolves it (a temporary folder may be under a link). */
  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
