package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Link;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A merged run's injectors, each with a link to its own Gatling report; none for other runs. */
final class InjectorsSection implements ReportSection {

  /** Whether the run was merged shows in its info, not its analysis: see {@link #page}. */
  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<RunInfo.InjectorRun> injectors = info.injectors();
    if (injectors == null || injectors.isEmpty()) {
      return List.of();
    }
    List<List<Object>> rows = new ArrayList<>();
    for (RunInfo.InjectorRun i : injectors) {
      rows.add(
          PagePart.row(
              i.injector(),
              i.requests(),
              i.clockOffsetMs() == null
                  ? ""
                  : String.format(Locale.ROOT, "%+.0f", i.clockOffsetMs()),
              new Link(i.gatlingReport())));
    }
    Table table =
        new Table(
            "Injectors merged into this run (each one's Gatling report stays in its folder)",
            List.of(
                "Injector", "Requests", "First sends after injector 0's (ms)", "Gatling report"),
            rows);
    return List.of(new PagePart("llm-injectors", null, List.of(table)));
  }
}
