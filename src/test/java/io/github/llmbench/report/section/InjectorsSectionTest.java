package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.RunInfo.InjectorRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A merged run's injectors: a row each, with its requests, clock offset and Gatling report. */
class InjectorsSectionTest {
  private static final InjectorsSection SECTION = new InjectorsSection();
  private static final String TITLE =
      "Injectors merged into this run (each one's Gatling report stays in its folder)";
  private static final RunAnalysis NO_RECORDS = BackToBackLevels.analysis(List.of());

  private static final RunInfo MERGED =
      RunInfo.builder()
          .injector("merged: 3 injectors")
          .injectors(
              List.of(
                  new InjectorRun("0/3", "run-0", 120, 0.0, "injector-0/index.html"),
                  new InjectorRun("1/3", "run-1", 80, 12.4, "injector-1/index.html"),
                  new InjectorRun("2/3", "run-2", 7, null, "injector-2/index.html")))
          .build();

  private static Table table() {
    return SectionRows.of(SECTION, NO_RECORDS, MERGED).table(TITLE);
  }

  @Test
  void aRowPerInjectorInTheirOrder() {
    assertEquals(List.of("0/3", "1/3", "2/3"), List.copyOf(SectionRows.byName(table()).keySet()));
  }

  @Test
  void theHeaders() {
    assertEquals(
        List.of("Injector", "Requests", "First sends after injector 0's (ms)", "Gatling report"),
        table().headers());
  }

  @Test
  void eachRowHasItsRequestsAndItsReportsAddress() {
    assertEquals("80", SectionRows.cell(table(), "1/3", "Requests"));
    assertEquals("injector-1/index.html", SectionRows.cell(table(), "1/3", "Gatling report"));
  }

  @Test
  void theOffsetIsSignedWholeMsAndEmptyWhenNoLevelIsShared() {
    assertEquals("+0", SectionRows.cell(table(), "0/3", "First sends after injector 0's (ms)"));
    assertEquals("+12", SectionRows.cell(table(), "1/3", "First sends after injector 0's (ms)"));
    assertEquals("", SectionRows.cell(table(), "2/3", "First sends after injector 0's (ms)"));
  }

  @Test
  void theReportCellIsALink() {
    assertTrue(table().rows().get(0).get(3) instanceof PagePart.Link);
  }

  @Test
  void thePartHasNoNavEntry() {
    assertNull(SectionRows.of(SECTION, NO_RECORDS, MERGED).parts().get(0).navLabel());
  }

  @Test
  void aRunThatWasNoMergeGetsNothing() {
    assertTrue(SectionRows.of(SECTION, NO_RECORDS, RunInfo.NONE).parts().isEmpty());
    RunInfo none = RunInfo.builder().injectors(List.of()).build();
    assertTrue(SectionRows.of(SECTION, NO_RECORDS, none).parts().isEmpty());
  }
}
