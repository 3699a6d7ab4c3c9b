package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.summary.RunInfo;
import java.util.List;
import java.util.Map;

/**
 * One part of a run's report, in one file: from the same analysis rows, its console block per
 * level, its console text at the run's end, its page parts (nav entry, tables, notes, chart boxes:
 * data, no HTML; {@code report.page.LlmPage} renders them with {@code PageParts}) and its entries
 * of the page's chart data. A section is registered once in {@link ReportSections}; a run it does
 * not apply to gets nothing of it (no console line, no nav item, no box).
 */
public interface ReportSection {

  /** Whether the run has anything for this section; else it stays silent. */
  boolean appliesTo(RunAnalysis a);

  /**
   * The section's console block for one level, lines ended by {@code \n}; empty when the level has
   * nothing for it.
   *
   * @param several whether the run has several levels: titles then name the level
   */
  default String levelText(RunAnalysis a, RunAnalysis.Level level, boolean several) {
    return "";
  }

  /** What the section prints once at the run's end, after every level's blocks. */
  default String runText(RunAnalysis a) {
    return "";
  }

  /** The section's parts of {@code llm.html}, in page order; empty for a console-only section. */
  default List<PagePart> page(RunAnalysis a, RunInfo info) {
    return List.of();
  }

  /** Puts the section's entries into the page's chart data ({@code #llm-data}). */
  default void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> data) {}
}
