package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.ScrapedLevels.counter;
import static io.github.llmbench.report.section.ScrapedLevels.start;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Disaggregated serving per level, as rows: vLLM's NIXL histograms grew by 50 transfers of 5 GB in
 * all, taking 0.5 s, 2 of them failed; 50 prefills of 2 s and 50 decodes of 20 s in all; over a c2
 * level whose client saw a mean TTFT of 200 ms.
 */
class DisaggregatedSectionTest {
  private static final DisaggregatedSection SECTION = new DisaggregatedSection();
  private static final String TITLE =
      "Disaggregated serving: KV transfers from prefill to decode, the client's TTFT";

  /** vLLM's NIXL figures, with {@code transfers} transfers. */
  private static List<ServerSample> nixl(long start, double transfers) {
    List<ServerSample> s = new ArrayList<>();
    s.addAll(counter("vllm:nixl_xfer_time_seconds_sum", start, 1, 1.5));
    s.addAll(counter("vllm:nixl_xfer_time_seconds_count", start, 10, 10 + transfers));
    s.addAll(counter("vllm:nixl_bytes_transferred_sum", start, 0, 5e9));
    s.addAll(counter("vllm:nixl_bytes_transferred_count", start, 10, 10 + transfers));
    s.addAll(counter("vllm:nixl_num_failed_transfers_total", start, 1, 3));
    s.addAll(counter("vllm:request_prefill_time_seconds_sum", start, 0, 2));
    s.addAll(counter("vllm:request_prefill_time_seconds_count", start, 0, 50));
    s.addAll(counter("vllm:request_decode_time_seconds_sum", start, 0, 20));
    s.addAll(counter("vllm:request_decode_time_seconds_count", start, 0, 50));
    return s;
  }

  private static final RunAnalysis RUN = ScrapedLevels.run("c2", nixl(start(0), 50));

  private static Table table(RunAnalysis a) {
    return SectionRows.of(SECTION, a, RunInfo.NONE).table(TITLE);
  }

  @Test
  void theHeadersAreTheTransfersThePhasesAndTheClientsTtft() {
    assertEquals(
        List.of(
            "Level",
            "KV transfers",
            "Failed",
            "Mean transfer (ms)",
            "MB moved",
            "GB/s",
            "Mean prefill (ms)",
            "Mean decode (ms)",
            "Client mean TTFT (ms)"),
        table(RUN).headers());
  }

  @Test
  void theTransfersAndTheirFailuresAreTheCountersGrowthOverTheLevel() {
    assertEquals("50", SectionRows.cell(table(RUN), "c2", "KV transfers"));
    assertEquals("2", SectionRows.cell(table(RUN), "c2", "Failed"));
  }

  @Test
  void theTransfersTimeAndBytesGiveTheirMeanTheMegabytesAndTheRate() {
    // 0.5 s / 50 = 10 ms; 5e9 B = 5000 MB; 5 GB / 0.5 s = 10 GB/s
    assertEquals("10", SectionRows.cell(table(RUN), "c2", "Mean transfer (ms)"));
    assertEquals("5000", SectionRows.cell(table(RUN), "c2", "MB moved"));
    assertEquals("10", SectionRows.cell(table(RUN), "c2", "GB/s"));
  }

  @Test
  void thePhasesAreTheirHistogramsMeansBesideTheClientsTtft() {
    // 2 s / 50 = 40 ms; 20 s / 50 = 400 ms; the client's (100 + 300) / 2 ms
    assertEquals("40", SectionRows.cell(table(RUN), "c2", "Mean prefill (ms)"));
    assertEquals("400", SectionRows.cell(table(RUN), "c2", "Mean decode (ms)"));
    assertEquals("200.00", SectionRows.cell(table(RUN), "c2", "Client mean TTFT (ms)"));
  }

  @Test
  void onlyTheLevelsWithTransfersGetARow() {
    RunAnalysis two = ScrapedLevels.twoLevels(nixl(start(0), 50));
    assertEquals(List.of("c2"), List.copyOf(SectionRows.byName(table(two)).keySet()));
  }

  @Test
  void aServerThatTransferredNothingGetsNothing() {
    SectionRows.assertSilent(SECTION, ScrapedLevels.run("c2", nixl(start(0), 0)));
  }

  @Test
  void theConsoleBlockGivesTheTransfersAndTheirFailures() {
    SectionRows.assertBlockLine(
        SECTION,
        RUN,
        "c2",
        " Disaggregated serving (c2) ",
        l -> l.startsWith("KV transfers:") && l.endsWith(" 50 (2 failed)"));
  }
}
