package io.github.llmbench.report;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.gates.GateCheck;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GatesXml;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.report.page.LlmPage;
import io.github.llmbench.report.section.ReportSection;
import io.github.llmbench.report.section.ReportSections;
import io.github.llmbench.summary.LevelGoodput;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The end of a run, of a re-done report ({@link ReportMain}) and of a merge ({@link MergeMain}):
 * one pipeline. It prints per level each section's block ({@link ReportSections#CONSOLE}: vLLM's
 * {@code Serving Benchmark Result} and {@code Steady-State Metrics} blocks, the roofline rows, ...,
 * the reasons of its failures; the levels not printed yet), then the sections' run-end texts (a
 * ladder's verdicts, a line per level), a search's answer and the gates; and writes {@code
 * llm/summary.json}, {@code llm/gates.xml} (when there are gates) and {@code llm.html}.
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
    Map<String, LevelGoodput> goodput,
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

  public RunReport withGoodput(Map<String, LevelGoodput> g) {
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
    console.print(runEndText(analysis));
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
      GateCheck.familyLine(gates).ifPresent(console::println);
      GateCheck.uncalibratedLine(gates).ifPresent(console::println);
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

  /**
   * Per level, each section's console block in {@link ReportSections#CONSOLE}'s order (the serving
   * block, the steady-state block, the roofline lines, ..., the failures).
   *
   * @param several whether the run has several levels: titles then name the level
   */
  public static String levelsText(RunAnalysis a, boolean several) {
    return levelsText(a.levels(), a, several);
  }

  private static String levelsText(
      Map<String, RunAnalysis.Level> levels, RunAnalysis a, boolean several) {
    List<ReportSection> sections = applying(a);
    StringBuilder sb = new StringBuilder();
    for (RunAnalysis.Level l : levels.values()) {
      sections.forEach(s -> sb.append(s.levelText(a, l, several)));
      sb.append('\n');
    }
    return sb.toString();
  }

  /** The run's end: each section's text (the ladder's verdicts, a line per level). */
  static String runEndText(RunAnalysis a) {
    StringBuilder sb = new StringBuilder();
    applying(a).forEach(s -> sb.append(s.runText(a)));
    return sb.toString();
  }

  private static List<ReportSection> applying(RunAnalysis a) {
    return ReportSections.CONSOLE.stream().filter(s -> s.appliesTo(a)).toList();
  }
}
