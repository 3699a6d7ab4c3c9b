package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Bullets;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The confound guards of every level, at the top of the page: what the figures below must be read
 * with (the server's, the client's, the delivered load's, the level's ends). The console prints
 * each guard in its own level's block.
 */
final class GuardsSection implements ReportSection {

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return !guards(a).isEmpty();
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    return List.of(new PagePart("llm-guards", null, List.of(new Bullets("llm-guards", guards(a)))));
  }

  private static List<String> guards(RunAnalysis a) {
    List<String> lines = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      lines.addAll(l.server().guards());
      addIfAny(lines, l.client().guard(l.name()));
      addIfAny(lines, l.delivered().guard(l.name()));
      addIfAny(lines, l.ends().guard(l.name()));
    }
    return lines;
  }

  private static void addIfAny(List<String> lines, String guard) {
    if (guard != null) {
      lines.add(guard);
    }
  }
}
