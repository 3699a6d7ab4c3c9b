package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.page.PageParts;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.AbFixtures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An interleaved A/B run's console block, page part (its rows as data) and chart data. */
class AbSectionTest {
  private static final RunAnalysis NO_RECORDS = BackToBackLevels.analysis(List.of());

  private static final AbFigures AB = AbFixtures.twoPairsFailed("<b>m2</b>");

  @Test
  void theBlockSaysEachGatesVerdictRatioPairsAndErrorRatesAndBothServers() {
    String block = AbSection.format(AB);
    assertTrue(block.contains("A (base):      http://a:8000 (m)"), block);
    assertTrue(block.contains("B (candidate): http://b:8000 (<b>m2</b>)"), block);
    assertTrue(block.contains("Pairs run:     2 of 30 s a side"), block);
    assertTrue(block.contains("stopped: decided"), block);
    assertTrue(
        block.contains(
            "tpot.mean                B/A 1.505 [1.400, 1.600] after 2 pairs (false alarm 5%, a"
                + " +10.0% change passes at most 10%)"),
        block);
    assertTrue(block.lines().anyMatch(l -> l.startsWith("FAIL ")), block);
  }

  @Test
  void theBlockAndThePageSayTheRatioIsTheStoppingLooksUnadjusted() {
    String label =
        "at the stopping look, not adjusted for early stopping: it overstates the change when the"
            + " test stops early";
    String block = AbSection.format(AB);
    assertTrue(block.contains("(ratios and intervals " + label + ")"), block);
    StringBuilder html = new StringBuilder();
    PageParts.part(html, new AbSection().page(NO_RECORDS, RunInfo.NONE.withAb(AB)).get(0));
    assertTrue(html.toString().contains("The ratios and intervals are " + label), html.toString());
  }

  @Test
  void thePageHasARowAndAChartPerGateAndEscapesTheServersWords() {
    RunInfo info = RunInfo.NONE.withAb(AB);
    List<PagePart> parts = new AbSection().page(NO_RECORDS, info);
    assertEquals(1, parts.size());
    StringBuilder html = new StringBuilder();
    PageParts.part(html, parts.get(0));
    assertTrue(html.toString().contains("llm-chart-ab-0"), html.toString());
    assertTrue(html.toString().contains("&lt;b&gt;m2&lt;/b&gt;"), html.toString());
    assertFalse(html.toString().contains("<b>m2"), html.toString());
    Map<String, Object> data = new LinkedHashMap<>();
    new AbSection().putChartData(NO_RECORDS, info, data);
    assertTrue(data.containsKey("ab"));
  }

  @Test
  void aRunThatWasNoAbRunGetsNothing() {
    assertTrue(new AbSection().page(NO_RECORDS, RunInfo.NONE).isEmpty());
    Map<String, Object> data = new LinkedHashMap<>();
    new AbSection().putChartData(NO_RECORDS, RunInfo.NONE, data);
    assertTrue(data.isEmpty());
  }

  /** {@link #AB} with a second gate that has no ratio yet. */
  private static final AbFigures TWO_GATES =
      new AbFigures(
          AB.baseUrl(),
          AB.candidateUrl(),
          AB.baseModel(),
          AB.candidateModel(),
          AB.level(),
          AB.trialSeconds(),
          AB.pairs(),
          List.of(
              AB.gates().get(0),
              new AbFigures.GateTrack(
                  "ttft.p99",
                  0.2,
                  "B/A",
                  0.05,
                  0.8,
                  List.of(),
                  List.of(),
                  "INCONCLUSIVE",
                  null,
                  null,
                  null,
                  0)),
          AB.stoppedBy(),
          AB.unit(),
          AB.blocks(),
          AB.serverLogs());

  private static SectionRows rows(AbFigures ab) {
    return SectionRows.of(new AbSection(), NO_RECORDS, RunInfo.NONE.withAb(ab));
  }

  @Test
  void theGatesTableHasItsHeadersAndARowPerGate() {
    Table t = rows(TWO_GATES).table("Gates decided on the pairs");
    assertEquals(
        "gate | verdict | ratio | estimate | interval | pairs | error rates",
        String.join(" | ", t.headers()));
    assertEquals(List.of("tpot.mean", "ttft.p99"), SectionRows.names(t));
  }

  @Test
  void aGatesRowHasItsVerdictRatioIntervalPairsAndErrorRates() {
    Table t = rows(AB).table("Gates decided on the pairs");
    assertEquals(
        List.of(
            "FAIL",
            "B/A",
            "1.505",
            "[1.400, 1.600]",
            "2",
            "false alarm 5%, a +10.0% change passes at most 10%"),
        SectionRows.byName(t).get("tpot.mean"));
  }

  @Test
  void aGateWithoutARatioYetHasEmptyEstimateAndInterval() {
    Table t = rows(TWO_GATES).table("Gates decided on the pairs");
    assertEquals("", SectionRows.cell(t, "ttft.p99", "estimate"));
    assertEquals("", SectionRows.cell(t, "ttft.p99", "interval"));
    assertEquals(
        "false alarm 5%, a +20.0% change passes at most 20%",
        SectionRows.cell(t, "ttft.p99", "error rates"));
  }

  @Test
  void eachGateHasItsChart() {
    List<Chart> charts = rows(TWO_GATES).charts();
    assertEquals(
        List.of("llm-chart-ab-0", "llm-chart-ab-1"), charts.stream().map(Chart::id).toList());
    assertEquals(List.of(0, 1), charts.stream().map(c -> c.spec().get("gate")).toList());
  }

  @Test
  void theFirstNoteNamesBothServersAndThePairsRun() {
    assertEquals(
        "A (base): http://a:8000 (m); B (candidate): http://b:8000 (<b>m2</b>); 2 pairs of 30 s"
            + " a side, stopped: decided.",
        rows(AB).notes().get(0));
  }
}
