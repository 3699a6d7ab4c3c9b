package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client's table: per probed level, the load generator's own health and delivered load. */
class ClientSectionTest {
  private static final ClientSection SECTION = new ClientSection();
  private static final String TITLE =
      "Client: the load generator's own health (steady window, else the level)";

  /**
   * c4: four users back to back for 20 s, the probe's samples a second each over it: two event
   * loops busy 0.2 and 0.4 s of each second on a JVM of 4 cores, 99 probes 50 µs late and one 2 ms
   * late, no GC pause, 200 MB of heap. c8, later, has no sample.
   */
  private static RunAnalysis run() {
    List<RequestRecord> rs =
        new ArrayList<>(BackToBackLevels.backToBack("c4", 4, 20, BackToBackLevels.T, b -> b));
    rs.addAll(BackToBackLevels.backToBack("c8", 8, 5, BackToBackLevels.T + 100_000, b -> b));
    List<ClientSample> samples = new ArrayList<>();
    for (int s = 1; s <= 20; s++) {
      samples.add(
          new ClientSample(
              BackToBackLevels.T + s * 1000L,
              1000,
              new ClientSample.Cpu(4, 600_000_000L, new long[] {200_000_000L, 400_000_000L}),
              new ClientSample.Memory(0, 200L << 20),
              new ClientSample.Lag(new long[] {50, 2000}, new int[] {99, 1}, 2000, 0)));
    }
    return BackToBackLevels.analysis(rs, new RunAnalysis.Telemetry(List.of(), null, samples));
  }

  private static Table table() {
    return SectionRows.of(SECTION, run(), RunInfo.NONE).table(TITLE);
  }

  @Test
  void onlyAProbedLevelHasARow() {
    assertEquals(List.of("c4"), List.copyOf(SectionRows.byName(table()).keySet()));
  }

  @Test
  void theHeadersNameTheHealthFiguresAndTheDeliveredLoad() {
    assertEquals(
        List.of(
            "Level",
            "Verdict",
            "JVM CPU (cores)",
            "Busiest event loop (% core)",
            "Loop lag p50 (ms)",
            "Loop lag p99 (ms)",
            "Loop lag max (ms)",
            "GC pauses (ms)",
            "Heap max (MB)",
            "Delivered load"),
        table().headers());
  }

  @Test
  void theCpuIsTheJvmsCoresAndTheBusiestLoopsShare() {
    assertEquals("0.60", SectionRows.cell(table(), "c4", "JVM CPU (cores)"));
    assertEquals("40.0", SectionRows.cell(table(), "c4", "Busiest event loop (% core)"));
  }

  @Test
  void theLagIsOverEveryProbe() {
    Table t = table();
    // 99 of every 100 probes 50 µs late: p50 and p99 50 µs; the max 2 ms
    assertEquals("0.050", SectionRows.cell(t, "c4", "Loop lag p50 (ms)"));
    assertEquals("0.050", SectionRows.cell(t, "c4", "Loop lag p99 (ms)"));
    assertEquals("2.0", SectionRows.cell(t, "c4", "Loop lag max (ms)"));
  }

  @Test
  void theMemoryIsTheGcPausesAndTheMostHeapInUse() {
    assertEquals("0", SectionRows.cell(table(), "c4", "GC pauses (ms)"));
    assertEquals("200", SectionRows.cell(table(), "c4", "Heap max (MB)"));
  }

  @Test
  void aLateLoopWithinTheLimitsIsHealthy() {
    assertEquals("healthy", SectionRows.cell(table(), "c4", "Verdict"));
  }

  @Test
  void fourUsersBackToBackDeliverFourInFlight() {
    assertEquals("4.00 of 4 in flight (100.0%)", SectionRows.cell(table(), "c4", "Delivered load"));
  }

  @Test
  void theConsoleBlockGivesTheVerdictAndItsLimits() {
    SectionRows.assertBlockLine(
        SECTION, run(), "c4", "Client (c4)", l -> l.startsWith("verdict: healthy (2 event loops,"));
  }

  @Test
  void aRunWithoutTheProbeHasNoTable() {
    RunAnalysis a =
        BackToBackLevels.analysis(
            BackToBackLevels.backToBack("c4", 4, 5, BackToBackLevels.T, b -> b));
    assertTrue(SECTION.appliesTo(a), "its delivered load is still said on the console");
    assertTrue(SectionRows.of(SECTION, a, RunInfo.NONE).parts().isEmpty());
  }

  @Test
  void aRunOfNeitherProbeNorKnownLoadGetsNothing() {
    RunAnalysis a =
        BackToBackLevels.analysis(
            BackToBackLevels.backToBack("custom", 2, 2, BackToBackLevels.T, b -> b));
    assertFalse(SECTION.appliesTo(a));
    assertEquals("", SECTION.levelText(a, a.levels().get("custom"), false));
  }
}
