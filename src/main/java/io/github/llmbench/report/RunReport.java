package io.github.llmbench.report;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunFiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The end-of-run report, one entry point for a live run (the shutdown hook) and for a re-do ({@link
 * ReportMain}): analyses the records ({@link RunAnalysis}), prints per level vLLM's {@code Serving
 * Benchmark Result} block, the {@code Steady-State Metrics} block and the roofline rows and the
 * reasons of its failures, then the ladder verdicts; writes {@code llm/summary.json} and {@code
 * llm.html} (linked from Gatling's pages).
 */
public final class RunReport {

  /** How to give the roofline its inputs, printed when one is missing. */
  public static final String ROOFLINE_HINT =
      "Give them to the re-do command: mvn -q compile exec:java@report"
          + " -Dexec.args=\"<run dir> --model <catalog id or config.json> --gpu <catalog id>"
          + " [--tp N]\".";

  private RunReport() {}

  /**
   * Computes everything, prints it, writes {@code llm/summary.json} and {@code llm.html}.
   *
   * @param runDir Gatling's run folder (holding {@code index.html} and {@code llm/})
   * @param records the run's records ({@code warmup} level included or not: it is left out)
   * @param telemetry the server's metrics of the run ({@link RunAnalysis.Telemetry#NONE} without)
   * @param concurrencyByLevel configured concurrency per level; missing levels named {@code cN} get
   *     N
   * @param model the served model, null to skip the roofline
   * @param gpu the server's GPU, null to skip the roofline
   * @param tp tensor-parallel GPUs (at least 1)
   * @param metadata run metadata for summary.json and the page (secrets are dropped)
   * @param console where the blocks and verdicts go
   * @return the analysis
   */
  public static RunAnalysis write(
      Path runDir,
      List<RequestRecord> records,
      RunAnalysis.Telemetry telemetry,
      Map<String, Integer> concurrencyByLevel,
      ModelSpec model,
      GpuSpec gpu,
      int tp,
      Map<String, Object> metadata,
      PrintStream console) {
    RunAnalysis a =
        RunAnalysis.of(records, telemetry, concurrencyByLevel, model, gpu, tp, ROOFLINE_HINT);
    console.print(consoleText(a));
    Path summary = RunFiles.ofRun(runDir).summary();
    SummaryJson.write(summary, summary(a, metadata));
    Path page = LlmPage.write(runDir, a, metadata);
    console.println("Summary:             " + summary);
    console.println("LLM report page:     " + page);
    return a;
  }

  /** The summary.json content: metadata, vLLM's fields, levels with their blocks, the knee. */
  public static Map<String, Object> summary(RunAnalysis a, Map<String, ?> metadata) {
    return summary(a, metadata, Map.of(), Map.of());
  }

  /**
   * The summary.json content with figures measured beyond the analysis (a level's goodput): each
   * level's {@code levelFields} after its blocks, {@code topFields} at the end.
   */
  public static Map<String, Object> summary(
      RunAnalysis a,
      Map<String, ?> metadata,
      Map<String, ? extends Map<String, ?>> levelFields,
      Map<String, ?> topFields) {
    Map<String, ServingMetrics> levels = new LinkedHashMap<>();
    a.levels().forEach((n, l) -> levels.put(n, l.serving()));
    Map<String, Map<String, Object>> extras = AnalysisJson.levelExtras(a);
    levelFields.forEach(
        (level, fields) ->
            extras.computeIfAbsent(level, k -> new LinkedHashMap<>()).putAll(fields));
    Map<String, Object> top = new LinkedHashMap<>(AnalysisJson.topExtras(a));
    top.putAll(topFields);
    return SummaryJson.build(metadata, a.overall(), levels, extras, top);
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
    StringBuilder sb = new StringBuilder();
    a.levels()
        .forEach(
            (name, l) -> {
              sb.append(
                  ServingResultBlock.format(
                      l.serving(),
                      several
                          ? ServingResultBlock.titleFor(name)
                          : ServingResultBlock.DEFAULT_TITLE));
              sb.append(SteadyStateBlock.format(l.steady(), several ? name : null));
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
              sb.append(FailureBlock.format(l.failures(), several ? name : null));
              sb.append('\n');
            });
    return sb.toString();
  }

  /** The ladder verdicts: knee, highest power, saturation, over-saturation. */
  public static String kneeText(RunAnalysis a) {
    StringBuilder sb = new StringBuilder();
    sb.append("Ladder (output throughput basis: ")
        .append(a.knee().basis().replace('_', ' '))
        .append("):\n");
    for (String v : a.knee().verdicts()) {
      sb.append("  ").append(v).append('\n');
    }
    return sb.toString();
  }
}
