package io.github.llmbench.run;

import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.PrefixSharing;
import io.github.llmbench.analysis.RampWindows;
import io.github.llmbench.analysis.ReportedPercentiles;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.capture.ClientProbe;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.injection.Target;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.report.page.LlmPage;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsDescription;
import io.github.llmbench.settings.WorkloadSettings;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.ServingFigures;
import io.github.llmbench.telemetry.MetricsScraper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The end of each level and of the run: the console blocks as levels drain, then the ladder
 * verdicts, a line per level, the gates, and the files ({@code llm/summary.json}, {@code
 * llm/gates.xml}, {@code llm.html}).
 */
final class RunEnd {
  private final BenchSettings settings;
  private final LoadMode mode;

  /** The mode's part of this run: its answer and its gates' judging at the end. */
  private final LoadMode.Running running;

  private final RunGates gates;
  private final Target target;
  private final List<Phase> phases;
  private final RunRecorder recorder;
  private final RooflineInputs roofline;
  private final PrintStream out;
  private final RunHistory history;

  /**
   * What was found before the load, asked for at the end: the preparation's lines exist only once
   * it has run.
   */
  private final Supplier<Map<String, String>> serverChecks;

  /** The server's (and GPUs') metrics during the run; null when none are read. */
  private final MetricsScraper scraper;

  /** The load generator's own health during the run. */
  private final ClientProbe clientProbe;

  private final Set<String> printedLevels = ConcurrentHashMap.newKeySet();

  /**
   * Each open level's arrival schedule, drawn as its population draws it, for the delivered load.
   */
  private final Map<String, double[]> arrivals;

  private List<GateResult> gateResults = List.of();

  private final ReportedPercentiles percentiles;

  private RunEnd(Builder b) {
    this.settings = b.settings;
    this.mode = b.mode;
    this.running = b.running;
    this.gates = b.gates;
    this.target = b.target;
    this.phases = b.phases;
    this.recorder = b.recorder;
    this.roofline = b.roofline;
    this.serverChecks = b.serverChecks;
    this.scraper = b.serverChecks.scraper();
    this.clientProbe = b.clientProbe;
    this.history = b.history;
    this.out = b.out;
    this.arrivals = Populations.arrivalTimes(phases, settings.workload().seed());
    this.percentiles = percentiles(settings, gates, mode);
  }

  static Builder builder() {
    return new Builder();
  }

  /** What a run's end is made of, set by name. */
  static final class Builder {
    private BenchSettings settings;
    private LoadMode mode;
    private LoadMode.Running running;
    private RunGates gates;
    private Target target;
    private List<Phase> phases;
    private RunRecorder recorder;
    private RooflineInputs roofline;
    private ServerChecks serverChecks;
    private ClientProbe clientProbe;
    private RunHistory history;
    private PrintStream out;

    Builder settings(BenchSettings v) {
      settings = v;
      return this;
    }

    Builder mode(LoadMode v, LoadMode.Running r) {
      mode = v;
      running = r;
      return this;
    }

    Builder gates(RunGates v) {
      gates = v;
      return this;
    }

    Builder target(Target v) {
      target = v;
      return this;
    }

    Builder phases(List<Phase> v) {
      phases = v;
      return this;
    }

    Builder recorder(RunRecorder v) {
      recorder = v;
      return this;
    }

    Builder roofline(RooflineInputs v) {
      roofline = v;
      return this;
    }

    /** What was found before the load, and the metrics scraper it set up. */
    Builder serverChecks(ServerChecks v) {
      serverChecks = v;
      return this;
    }

    Builder clientProbe(ClientProbe v) {
      clientProbe = v;
      return this;
    }

    Builder history(RunHistory v) {
      history = v;
      return this;
    }

    Builder out(PrintStream v) {
      out = v;
      return this;
    }

    RunEnd build() {
      return new RunEnd(this);
    }
  }

  /**
   * Prints a level's blocks (serving, steady state, roofline) as soon as it has drained; returns
   * its analysis (null for the warmup).
   */
  RunAnalysis.Level levelDrained(Level level) {
    if (scraper != null) {
      scraper.scrapeNow(); // the level's counters end here, before the next level starts
    }
    clientProbe.sampleNow();
    List<RequestRecord> records = ofLevel(recorder.finishedSoFar(), level.tag());
    if (!level.measured()) {
      out.println("warmup done: " + records.size() + " requests (left out of every summary)");
      return null;
    }
    RunAnalysis a = analysis(records, liveSamples(), clientProbe.samples());
    out.println();
    out.print(RunReport.levelsText(a, mode.titlesLevels(phases)));
    printProfiles(records);
    printedLevels.add(level.tag());
    return a.levels().get(level.tag());
  }

  /** The server's samples so far, while the run goes on (none when no metrics are read). */
  private List<ServerSample> liveSamples() {
    return scraper == null ? List.of() : scraper.samples();
  }

  private RunAnalysis analysis(
      List<RequestRecord> records, List<ServerSample> samples, List<ClientSample> client) {
    Map<String, Integer> conc = new LinkedHashMap<>();
    for (Phase p : phases) {
      if (p
          instanceof Phase.Closed closed) { // this injector's share, where several share the level
        conc.put(closed.level().tag(), closed.conc());
      }
    }
    RunAnalysis.Telemetry telemetry =
        new RunAnalysis.Telemetry(
            samples,
            scraper == null ? null : target.model(),
            client,
            settings.workload().dataset() == BenchSettings.DatasetKind.RANDOM
                ? new PrefixSharing(
                    settings.workload().prefixLen(), settings.workload().prefixGroups())
                : PrefixSharing.NONE);
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(records)
            .telemetry(telemetry)
            .concurrencyByLevel(conc)
            .arrivalsByLevel(arrivals)
            .ramps(rampTimings())
            .model(roofline.model())
            .gpu(roofline.gpu())
            .tp(settings.report().roofline().tp())
            .rooflineHint(RunReport.ROOFLINE_HINT)
            .percentiles(percentiles)
            .build());
  }

  /** Each ramp level's length; its first send's lead is the analysis's, from the schedule. */
  private Map<String, RampWindows.Timing> rampTimings() {
    Map<String, RampWindows.Timing> out = new LinkedHashMap<>();
    LoadPlan.rampSeconds(phases)
        .forEach((level, seconds) -> out.put(level, new RampWindows.Timing(seconds, Double.NaN)));
    return out;
  }

  /**
   * {@code -Dpercentiles}, and the percentiles gates and objectives name besides: those are
   * computed (and judged) even when not shown.
   */
  private static ReportedPercentiles percentiles(
      BenchSettings settings, RunGates gates, LoadMode mode) {
    Set<Double> needed = new LinkedHashSet<>(gates.set().percentiles());
    needed.addAll(mode.percentilesJudged());
    return ReportedPercentiles.of(settings.report().percentiles(), needed);
  }

  private void printProfiles(List<RequestRecord> records) {
    Map<String, List<RequestRecord>> byProfile = byProfile(records);
    if (byProfile.isEmpty()) {
      return;
    }
    out.printf(
        "%-8s %9s %7s %14s %14s %14s %12s%n",
        "profile",
        "completed",
        "failed",
        LatencyFigure.of(Metric.TTFT, Statistic.MEAN).label() + " ms",
        LatencyFigure.of(Metric.TPOT, Statistic.MEAN).label() + " ms",
        LatencyFigure.of(Metric.E2EL, Statistic.MEAN).label() + " ms",
        "out tok/s");
    byProfile.forEach(
        (profile, rs) -> {
          ServingMetrics m =
              ServingMetricsCalculator.compute(rs, null, LatencyStats.DEFAULT_PERCENTILES);
          out.printf(
              Locale.ROOT,
              "%-8s %9d %7d %14.2f %14.2f %14.2f %12.2f%n",
              profile,
              m.completed(),
              m.failed(),
              m.ttft().mean(),
              m.tpot().mean(),
              m.e2el().mean(),
              m.outputThroughput());
        });
  }

  /**
   * Ends the run: records the requests still in flight as failed; prints what was not printed yet,
   * the ladder verdicts, a line per level and the gates; writes {@code llm/summary.json}, {@code
   * llm/gates.xml} and {@code llm.html}; stops the embedded simulator. Linking the page from
   * Gatling's menu, and failing the command on a broken gate, wait for Gatling's report ({@link
   * AfterReport}).
   */
  void finish() {
    List<RequestRecord> all =
        recorder.close(System.currentTimeMillis(), "unfinished when the run ended");
    Path dir = recorder.directory();
    List<ServerSample> samples = scraper == null ? List.of() : scraper.close(dir);
    RunAnalysis a = analysis(all, samples, clientProbe.close());
    Optional<GoodputSpec> goodput = gates.set().goodput();
    LoadMode.Answer answer = running.answer(a, goodput);
    RunInfo plain = runInfo(all, goodput);
    RunInfo info = answer.figures().map(plain::withMode).orElse(plain);
    // the figures the gates can name, each level's goodput and the mode's answer included:
    // computed once, for the summary and the gates
    RunFigures figures = RunFigures.of(a, goodput).withCapacity(answer.capacity());
    gateResults = running.judge(gates, figures);
    RunReport report =
        RunReport.of(a, info).withGoodput(figures.goodput()).withAnswer(answer.text());
    Path runDir = dir.getParent();
    Optional<HistoryLine> historyLine = history.line(runDir, report.summary());
    List<GateResult> judged = new ArrayList<>(gateResults);
    judged.addAll(history.check(historyLine, out));
    gateResults = List.copyOf(judged);
    report = report.withGates(gateResults);
    report.write(runDir, printedLevels, out);
    boolean gatesFailed = report.gatesFailed();
    // a run that failed a gate stays in the history for people and the change points, not for
    // the noise later runs learn (HistoryNoise)
    history.append(historyLine.map(l -> l.withGatesFailed(gatesFailed)), out);
    AfterReport.add(() -> afterReport(runDir, gatesFailed));
  }

  private void afterReport(Path runDir, boolean gatesFailed) {
    try {
      LlmPage.linkFromGatlingPages(runDir);
    } catch (IOException | RuntimeException e) {
      System.err.println(
          "gatling-llm-bench: could not link llm.html from Gatling's pages: " + e.getMessage());
    }
    if (gatesFailed && settings.gates().exitOnFailure()) {
      System.out.println(
          "gatling-llm-bench: performance gates FAILED (see the FAIL lines above and llm/gates.xml)");
      System.out.flush();
      System.err.flush();
      Runtime.getRuntime().halt(2); // Gatling's own status for failed assertions
    }
  }

  /** The gates' results of this run (empty before {@link #finish()} or without gates). */
  List<GateResult> gateResults() {
    return gateResults;
  }

  private RunInfo runInfo(List<RequestRecord> all, Optional<GoodputSpec> goodput) {
    List<RequestRecord> measured = all.stream().filter(r -> !RunAnalysis.isWarmup(r)).toList();
    WorkloadSettings w = settings.workload();
    Map<String, ServingFigures> profiles = new LinkedHashMap<>();
    for (String level : levelsInOrder(measured)) {
      byProfile(ofLevel(measured, level))
          .forEach(
              (profile, rs) ->
                  profiles.put(
                      level + "/" + profile,
                      ServingFigures.of(
                          ServingMetricsCalculator.compute(
                              rs, null, LatencyStats.DEFAULT_PERCENTILES))));
    }
    // the gates as given, for a merge of injectors to check them over the whole load
    Map<String, String> definitions = new LinkedHashMap<>();
    gates
        .set()
        .gates()
        .forEach(
            g ->
                definitions.put(
                    g.name(),
                    g.limit().relative()
                        ? String.format(Locale.ROOT, "%+f%%", g.limit().value())
                        : Double.toString(g.limit().value())));
    return RunInfo.builder()
        .date(RunInfo.date(LocalDateTime.now()))
        .backend(
            target.embedded()
                ? RunInfo.SIMULATOR_BACKEND
                : "openai-" + settings.server().api().id())
        .modelId(target.model())
        .injector(settings.injector().sharded() ? settings.injector().toString() : null)
        .baseUrl(target.baseUrl().toString())
        .endpoint(settings.server().api().path())
        .dataset(w.describe())
        .seed(w.seed())
        .inputLen(w.inputLen())
        .outputLen(w.outputLen())
        .rangeRatio(w.rangeRatio())
        .prefixLen(w.prefixLen())
        .warmupRequests(all.size() - measured.size())
        .profiles(profiles.isEmpty() ? null : profiles)
        .settings(SettingsDescription.of(settings, gates.describe()))
        // what was found before the load: the tokenizer, how exact the prompts are, the chat
        // template, the context
        .serverChecks(serverChecks.get())
        .gateDefinitions(definitions)
        .goodputObjectives(goodput.map(GoodputSpec::toString).orElse(null))
        .analysisInputs(analysisInputs())
        .build();
  }

  /** What a re-done report analyses with, typed (not read back from the settings' lines). */
  private RunInfo.AnalysisInputs analysisInputs() {
    WorkloadSettings w = settings.workload();
    boolean simulated = settings.server().embeddedSimulator();
    return new RunInfo.AnalysisInputs(
        settings.report().percentiles().orElse(null),
        simulated ? settings.simulator().model() : null,
        simulated ? settings.simulator().gpu() : null,
        w.prefixLen() > 0 ? w.prefixGroups() : null);
  }

  private static List<RequestRecord> ofLevel(List<RequestRecord> records, String level) {
    return records.stream().filter(r -> level.equals(r.level())).toList();
  }

  private static List<String> levelsInOrder(List<RequestRecord> records) {
    return new ArrayList<>(ServingMetricsCalculator.byLevel(records).keySet());
  }

  private static Map<String, List<RequestRecord>> byProfile(List<RequestRecord> records) {
    Map<String, List<RequestRecord>> out = new LinkedHashMap<>();
    for (RequestRecord r : records) {
      if (r.profile() != null) {
        out.computeIfAbsent(r.profile(), k -> new ArrayList<>()).add(r);
      }
    }
    return out;
  }
}
