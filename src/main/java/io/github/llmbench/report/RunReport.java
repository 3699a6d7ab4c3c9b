package io.github.llmbench.report;

import io.github.llmbench.analysis.ImageLadder;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GatesXml;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The end of a run, of a re-done report ({@link ReportMain}) and of a merge ({@link MergeMain}):
 * one pipeline. It prints per level vLLM's {@code Serving Benchmark Result} block, the {@code
 * Steady-State Metrics} block, the roofline rows and the reasons of its failures (the levels not
 * printed yet), then the ladder verdicts, a line per level, a search's answer and the gates; and
 * writes {@code llm/summary.json}, {@code llm/gates.xml} (when there are gates) and {@code
 * llm.html}.
 *
 * @param analysis the run's analysis
 * @param info what the run was
 * @param goodput each level's goodput, where objectives were set
 * @param answer a capacity search's console block, empty for other runs
 * @param gates the gates' results, empty without gates
 */
public record RunReport(
    RunAnalysis analysis,
    RunInfo info,
    Map<String, LevelSummary.Goodput> goodput,
    String answer,
    List<GateResult> gates) {

  /** How to give the roofline its inputs, printed when one is missing. */
  public static final String ROOFLINE_HINT =
      "Give them to the re-do command: mvn -q compile exec:java@report"
          + " -Dexec.args=\"<run dir> --model <catalog id or config.json> --gpu <catalog id>"
          + " [--tp N]\".";

  public RunReport {
    goodput = Map.copyOf(goodput);
    gates = List.copyOf(gates);
  }

  /** The report of an analysis: no goodput, no search, no gates. */
  public static RunReport of(RunAnalysis a, RunInfo info) {
    return new RunReport(a, info, Map.of(), "", List.of());
  }

  public RunReport withGoodput(Map<String, LevelSummary.Goodput> g) {
    return new RunReport(analysis, info, g, answer, gates);
  }

  public RunReport withAnswer(String block) {
    return new RunReport(analysis, info, goodput, block, gates);
  }

  public RunReport withGates(List<GateResult> results) {
    return new RunReport(analysis, info, goodput, answer, results);
  }

  /** The summary.json content. */
  public Summary summary() {
    return Summary.of(analysis, info).withGoodput(goodput);
  }

  /**
   * Prints what was not printed yet and the run's end, writes the run folder's files.
   *
   * @param runDir Gatling's run folder (holding {@code index.html} and {@code llm/})
   * @param printed the levels whose blocks were printed as they drained
   * @return the summary written
   */
  public Summary write(Path runDir, Set<String> printed, PrintStream console) {
    Map<String, RunAnalysis.Level> unprinted = new LinkedHashMap<>(analysis.levels());
    unprinted.keySet().removeAll(printed);
    if (!unprinted.isEmpty()) {
      console.println();
      console.print(
          levelsText(unprinted, analysis, analysis.levels().size() > 1 || !answer.isEmpty()));
    }
    console.print(kneeText(analysis));
    console.print(levelLines(analysis));
    if (!answer.isEmpty()) {
      console.println();
      console.print(answer);
    }
    RunFiles files = RunFiles.ofRun(runDir);
    if (!gates.isEmpty()) {
      boolean merged = info.injectors() != null;
      console.println();
      console.println(
          merged
              ? "=================== Gates (merged) ==========="
              : "=================== Gates ====================");
      gates.forEach(r -> console.println(r.line()));
      write(
          files.gatesXml(),
          GatesXml.of(gates, "gatling-llm-bench gates" + (merged ? " (merged)" : "")));
      console.println("Gates (JUnit XML):   " + files.gatesXml());
    }
    Summary summary = summary();
    summary.write(files.summary());
    Path page = LlmPage.write(runDir, analysis, info);
    console.println("Per-request records: " + files.requests());
    console.println("Summary:             " + files.summary());
    console.println("LLM report page:     " + page);
    return summary;
  }

  /** Whether a gate failed. */
  public boolean gatesFailed() {
    return gates.stream().anyMatch(r -> !r.pass());
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Everything printed: per level the serving block, the steady-state block and the roofline. */
  public static String consoleText(RunAnalysis a) {
    return levelsText(a, a.levels().size() > 1) + kneeText(a);
  }

  /**
   * Per level: the serving block, the steady-state block, the roofline lines and, when some
   * requests failed, the failure block ({@link FailureBlock}).
   *
   * @param several whether the run has several levels: titles then name the level
   */
  public static String levelsText(RunAnalysis a, boolean several) {
    return levelsText(a.levels(), a, several);
  }

  private static String levelsText(
      Map<String, RunAnalysis.Level> levels, RunAnalysis a, boolean several) {
    StringBuilder sb = new StringBuilder();
    levels.forEach(
        (name, l) -> {
          sb.append(
              ServingResultBlock.format(
                  l.serving(),
                  several ? ServingResultBlock.titleFor(name) : ServingResultBlock.DEFAULT_TITLE));
          String ends = l.ends().guard(name);
          if (ends != null) {
            sb.append("! ").append(ends).append('\n');
          }
          sb.append(
              SteadyStateBlock.format(
                  l.steady(), several ? name : null, a.percentiles(), l.serving().pooling()));
          sb.append(
              SteadyStateBlock.roofline(
                  l.roofline(),
                  a.model() == null ? null : a.model().hfId(),
                  a.gpu() == null ? null : a.gpu().name(),
                  a.tp(),
                  l.rooflineNote()));
          sb.append(WorkloadBlocks.turns(l.turns(), several ? name : null));
          sb.append(WorkloadBlocks.lateness(l.lateness(), name));
          sb.append(ServerBlock.format(l, several ? name : null));
          sb.append(ReasoningBlock.format(l.reasoning(), several ? name : null));
          sb.append(ChunkBlock.format(l.chunks(), several ? name : null));
          sb.append(ClientBlock.format(l.client(), l.delivered(), name, several));
          sb.append(TrialsBlock.format(l.trials(), l.samples(), several ? name : null));
          sb.append(RampBlock.format(l.ramp(), several ? name : null));
          sb.append(RouteBlock.format(l.routes(), several ? name : null));
          sb.append(FailureBlock.format(l.failures(), several ? name : null));
          sb.append('\n');
        });
    return sb.toString();
  }

  /**
   * The ladder verdicts: knee, highest power, saturation, over-saturation; for a ladder over
   * images, TTFT and input tokens against the images per request or their size.
   */
  public static String kneeText(RunAnalysis a) {
    StringBuilder sb = new StringBuilder();
    Optional<ImageLadder> images = ImageLadder.of(a.levels().values());
    if (images.isPresent()) {
      boolean count = images.get().over() == ImageLadder.Over.COUNT;
      sb.append(
          count
              ? "Images per request (TTFT against the count):\n"
              : "Image size (TTFT against the megapixels a request carries):\n");
      int width = images.get().points().stream().mapToInt(p -> p.level().length()).max().orElse(0);
      for (ImageLadder.Point p : images.get().points()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  %-"
                    + Math.max(12, width)
                    + "s %s  mean TTFT %9.2f ms  P99 TTFT %9.2f ms  mean input %8.1f tok%n",
                p.level(),
                count
                    ? String.format(Locale.ROOT, "%3d images", p.images())
                    : String.format(
                        Locale.ROOT,
                        "%3d x %-9s %7.3f MP",
                        p.images(),
                        p.step().size().orElseThrow(),
                        p.megapixels()),
                p.meanTtftMs(),
                p.p99TtftMs(),
                p.meanInputTokens()));
      }
      return sb.append("  ").append(images.get().verdict()).append('\n').toString();
    }
    sb.append(
            a.pooling() ? "Ladder (input throughput basis: " : "Ladder (output throughput basis: ")
        .append(a.knee().basis().replace('_', ' '))
        .append("):\n");
    for (String v : a.knee().verdicts()) {
      sb.append("  ").append(v).append('\n');
    }
    return sb.toString();
  }

  /**
   * A line per level: its counts, throughputs, mean TPOT and P99 TTFT; a pooling run's: its input
   * tok/s, mean and P99 E2EL.
   */
  static String levelLines(RunAnalysis a) {
    StringBuilder sb = new StringBuilder("\n=================== Levels ===================\n");
    boolean pooling = a.pooling(); // generates nothing: its input throughput and E2EL instead
    LatencyFigure first = LatencyFigure.of(pooling ? Metric.E2EL : Metric.TPOT, Statistic.MEAN);
    LatencyFigure second = LatencyFigure.of(pooling ? Metric.E2EL : Metric.TTFT, Statistic.P99);
    sb.append(
        String.format(
            "%-8s %9s %7s %10s %12s %14s %13s%n",
            "level",
            "completed",
            "failed",
            "req/s",
            pooling ? "in tok/s" : "out tok/s",
            first.label() + " ms",
            second.label() + " ms"));
    a.levels()
        .forEach(
            (level, l) -> {
              ServingMetrics m = l.serving();
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%-8s %9d %7d %10.2f %12.2f %14.2f %13.2f%n",
                      level,
                      m.completed(),
                      m.failed(),
                      m.requestThroughput(),
                      pooling ? m.inputThroughput() : m.outputThroughput(),
                      m.latency(first.metric()).value(first.statistic()),
                      m.latency(second.metric()).value(second.statistic())));
            });
    return sb.toString();
  }
}
