package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.ScrapedLevels.gpu;
import static io.github.llmbench.report.section.ScrapedLevels.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GPUs' energy per level, as rows: two GPUs whose DCGM energy counter (mJ) grew by 3,600 J and
 * 6,000 J between the scrapes 1 s before and 1 s after a c2 level of 16 output tokens (12 s apart).
 */
class EnergySectionTest {
  private static final EnergySection SECTION = new EnergySection();
  private static final String TITLE = "Energy: the GPUs' joules per output token (DCGM)";
  private static final String COUNTER = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  private static final String POWER = "DCGM_FI_DEV_POWER_USAGE";

  private static List<ServerSample> counters(long start) {
    return List.of(
        gpu(start - 1_000, COUNTER, 0, 1e6, false),
        gpu(start - 1_000, COUNTER, 1, 2e6, false),
        gpu(start + 11_000, COUNTER, 0, 1e6 + 3.6e6, false),
        gpu(start + 11_000, COUNTER, 1, 2e6 + 6e6, false));
  }

  private static final RunAnalysis RUN = ScrapedLevels.run("c2", counters(start(0)));

  private static Table table(RunAnalysis a) {
    return SectionRows.of(SECTION, a, RunInfo.NONE).table(TITLE);
  }

  @Test
  void theHeadersNameEachFigureAndItsUnit() {
    assertEquals(
        List.of(
            "Level",
            "J per output token",
            "Output tokens per kWh",
            "Mean power per GPU (W)",
            "GPUs",
            "Seconds",
            "Joules (all GPUs)",
            "Source"),
        table(RUN).headers());
  }

  @Test
  void theCounterGivesTheJoulesOfEveryGpuBetweenTheScrapesAroundTheLevel() {
    assertEquals("9600.00", SectionRows.cell(table(RUN), "c2", "Joules (all GPUs)"));
    assertEquals("12.00", SectionRows.cell(table(RUN), "c2", "Seconds"));
    assertEquals("2", SectionRows.cell(table(RUN), "c2", "GPUs"));
    assertEquals(
        "DCGM energy counter over the level", SectionRows.cell(table(RUN), "c2", "Source"));
  }

  @Test
  void theJoulesArePerOutputTokenPerKwhAndPerGpuSecond() {
    // 9600 J for 16 tokens; 16 tokens per 9600 / 3.6e6 kWh; 9600 J / 12 s / 2 GPUs
    assertEquals("600.00", SectionRows.cell(table(RUN), "c2", "J per output token"));
    assertEquals("6,000", SectionRows.cell(table(RUN), "c2", "Output tokens per kWh"));
    assertEquals("400.00", SectionRows.cell(table(RUN), "c2", "Mean power per GPU (W)"));
  }

  @Test
  void aLevelWithoutReadingsGetsNoRow() {
    RunAnalysis two = ScrapedLevels.twoLevels(counters(start(0)));
    assertEquals(List.of("c2"), List.copyOf(SectionRows.byName(table(two)).keySet()));
  }

  @Test
  void theSimulatorsPowerIsIntegratedOverTheSteadyWindowAndSaidToBeSo() {
    // one GPU at 250 W, scraped every second: 6 s of the steady window, 1500 J
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 10_000; t += 1_000) {
      s.add(gpu(start(0) + t, POWER, 0, 250, true));
    }
    RunAnalysis sim = ScrapedLevels.run("c2", s);
    assertEquals("1500.00", SectionRows.cell(table(sim), "c2", "Joules (all GPUs)"));
    assertEquals("6.00", SectionRows.cell(table(sim), "c2", "Seconds"));
    assertEquals(
        "DCGM power integrated over the steady window"
            + " (simulated by the kit's simulator, not measured)",
        SectionRows.cell(table(sim), "c2", "Source"));
    assertTrue(
        SectionRows.of(SECTION, sim, RunInfo.NONE).notes().stream()
            .anyMatch(n -> n.startsWith("These readings are the kit's simulator's")));
  }

  @Test
  void measuredReadingsGetNoSimulatorsNote() {
    assertTrue(
        SectionRows.of(SECTION, RUN, RunInfo.NONE).notes().stream()
            .noneMatch(n -> n.contains("simulator")));
  }

  @Test
  void aRunWithoutDcgmGetsNothing() {
    SectionRows.assertSilent(SECTION, ScrapedLevels.run("c2", List.of()));
  }

  @Test
  void theConsoleBlockGivesTheJoulesPerOutputToken() {
    SectionRows.assertBlockLine(
        SECTION,
        RUN,
        "c2",
        " Energy (c2) ",
        l -> l.startsWith("Energy per output token (J):") && l.endsWith(" 600.00"));
  }
}
