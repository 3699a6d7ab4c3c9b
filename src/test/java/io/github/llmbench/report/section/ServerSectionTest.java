package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.ScrapedLevels.counter;
import static io.github.llmbench.report.section.ScrapedLevels.sample;
import static io.github.llmbench.report.section.ScrapedLevels.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's figures per level, as rows: vLLM scraped every second over a c2 level of 10 s, with
 * 2 requests running inside its steady window (2 s to 8 s) and none outside, and its token counters
 * scraped around the level.
 */
class ServerSectionTest {
  private static final ServerSection SECTION = new ServerSection();
  private static final String C2 =
      "Server metrics (c2): over the level, its steady window, and the client's own figure";

  /**
   * Running: 2 at the 7 scrapes from 2 s to 8 s, 0 at the other 4 (mean 14 / 11 over the level); 25
   * prompt tokens (the client sent 20) and {@code generated} generation tokens (it got 16).
   */
  private static List<ServerSample> vllm(long start, double generated) {
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 10_000; t += 1_000) {
      s.add(sample(start + t, "vllm:num_requests_running", t >= 2_000 && t <= 8_000 ? 2 : 0));
    }
    s.addAll(counter("vllm:prompt_tokens_total", start, 100, 125));
    s.addAll(counter("vllm:generation_tokens_total", start, 0, generated));
    return s;
  }

  private static final RunAnalysis RUN = ScrapedLevels.run("c2", vllm(start(0), 16));

  private static Table c2() {
    return SectionRows.of(SECTION, RUN, RunInfo.NONE).table(C2);
  }

  @Test
  void theRowsAreTheFiguresTheServerReportedInTheReportsOrder() {
    assertEquals(
        List.of(
            "running_mean",
            "running_max",
            "prompt_tokens",
            "generation_tokens",
            "prompt_tokens_per_s",
            "generation_tokens_per_s"),
        List.copyOf(SectionRows.byName(c2()).keySet()));
  }

  @Test
  void theHeadersAreTheFigureTheLevelItsSteadyWindowAndTheClient() {
    assertEquals(List.of("Figure", "Level", "Steady window", "Client"), c2().headers());
  }

  @Test
  void aGaugeIsAveragedOverTheLevelAndOverItsSteadyWindow() {
    assertEquals("1.273", SectionRows.cell(c2(), "running_mean", "Level"), "14 / 11");
    assertEquals("2", SectionRows.cell(c2(), "running_mean", "Steady window"));
    assertEquals("", SectionRows.cell(c2(), "running_mean", "Client"), "the client has none");
  }

  @Test
  void aCounterIsItsGrowthOverTheLevelBesideTheClientsCount() {
    assertEquals("25", SectionRows.cell(c2(), "prompt_tokens", "Level"));
    assertEquals("20", SectionRows.cell(c2(), "prompt_tokens", "Client"));
    // 25 tokens over the level's 10 s; the client's 20 over the same 10 s
    assertEquals("2.500", SectionRows.cell(c2(), "prompt_tokens_per_s", "Level"));
    assertEquals("2", SectionRows.cell(c2(), "prompt_tokens_per_s", "Client"));
  }

  @Test
  void aLevelWhoseServerReportedNothingGetsNoTable() {
    RunAnalysis two = ScrapedLevels.twoLevels(vllm(start(0), 16));
    assertTrue(SECTION.appliesTo(two));
    assertEquals(
        List.of(C2),
        SectionRows.of(SECTION, two, RunInfo.NONE).tables().stream().map(Table::title).toList());
    assertEquals("", SECTION.levelText(two, two.levels().get("c4"), true));
  }

  @Test
  void theServerAndGpuChartsFollowTheTables() {
    assertEquals(
        List.of("llm-chart-server", "llm-chart-gpu"),
        SectionRows.of(SECTION, RUN, RunInfo.NONE).charts().stream().map(Chart::id).toList());
  }

  @Test
  @SuppressWarnings("unchecked")
  void theChartDataHoldsEveryScrapeOfTheGauges() {
    Map<String, Object> data = new LinkedHashMap<>();
    SECTION.putChartData(RUN, RunInfo.NONE, data);
    List<double[]> running = ((Map<String, List<double[]>>) data.get("server")).get("running");
    assertEquals(11, running.size());
    assertEquals(2, running.get(2)[1]);
  }

  @Test
  void aRunWithoutServerMetricsGetsNothing() {
    SectionRows.assertSilent(SECTION, ScrapedLevels.run("c2", List.of()));
  }

  @Test
  void theConsoleLineOfAFigureGivesItsLevelAndSteadyValues() {
    SectionRows.assertBlockLine(
        SECTION,
        RUN,
        "c2",
        " Server metrics (c2) ",
        l -> List.of(l.split(" +")).equals(List.of("prompt_tokens", "25", "25", "20")));
  }

  @Test
  void theServersTokensApartFromTheClientsAreAGuardLineOfTheConsoleBlock() {
    // 20 generated against the 16 the client received: +25%
    RunAnalysis other = ScrapedLevels.run("c2", vllm(start(0), 20));
    String block = SECTION.levelText(other, other.levels().get("c2"), false);
    assertTrue(
        block
            .lines()
            .anyMatch(
                l ->
                    l.startsWith("! the server generated 20 tokens at c2, the client received 16")),
        block);
  }
}
