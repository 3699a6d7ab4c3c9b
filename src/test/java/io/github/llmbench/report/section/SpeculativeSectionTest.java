package io.github.llmbench.report.section;

import static io.github.llmbench.report.section.ScrapedLevels.counter;
import static io.github.llmbench.report.section.ScrapedLevels.sample;
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
 * Speculative decoding per level, as rows: vLLM's counters grew by 200 drafts of 600 tokens, 300 of
 * them accepted, over a c2 level whose requests streamed 2 tokens a chunk.
 */
class SpeculativeSectionTest {
  private static final SpeculativeSection SECTION = new SpeculativeSection();
  private static final String TITLE =
      "Speculative decoding: the server's acceptance, the client's tokens per chunk";

  private static List<ServerSample> vllm(long start) {
    List<ServerSample> s = new ArrayList<>();
    s.addAll(counter("vllm:spec_decode_num_drafts_total", start, 1000, 1200));
    s.addAll(counter("vllm:spec_decode_num_draft_tokens_total", start, 3000, 3600));
    s.addAll(counter("vllm:spec_decode_num_accepted_tokens_total", start, 1500, 1800));
    return s;
  }

  private static final RunAnalysis RUN = ScrapedLevels.run("c2", vllm(start(0)));

  private static Table table(RunAnalysis a) {
    return SectionRows.of(SECTION, a, RunInfo.NONE).table(TITLE);
  }

  @Test
  void theHeadersAreTheServersFiguresThenTheClients() {
    assertEquals(
        List.of(
            "Level",
            "Acceptance rate (%)",
            "Mean accepted length",
            "Drafts",
            "Draft tokens",
            "Accepted tokens",
            "Client tokens per chunk"),
        table(RUN).headers());
  }

  @Test
  void theCountersGiveTheDraftsAndTheirTokensOverTheLevel() {
    assertEquals(
        List.of("200", "600", "300"), SectionRows.byName(table(RUN)).get("c2").subList(2, 5));
  }

  @Test
  void theAcceptanceIsAcceptedOverDraftedAndTheLengthOnePlusAcceptedPerDraft() {
    // 300 / 600 = 50%; 1 + 300 / 200 = 2.5
    assertEquals("50.00", SectionRows.cell(table(RUN), "c2", "Acceptance rate (%)"));
    assertEquals("2.500", SectionRows.cell(table(RUN), "c2", "Mean accepted length"));
  }

  @Test
  void theClientsTokensPerChunkStandBeside() {
    assertEquals("2.00", SectionRows.cell(table(RUN), "c2", "Client tokens per chunk"));
  }

  @Test
  void sglangsGaugesGiveTheRatesAndLeaveTheCountsEmpty() {
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 10_000; t += 5_000) {
      s.add(sample(start(0) + t, "sglang:spec_accept_rate", 0.25));
      s.add(sample(start(0) + t, "sglang:spec_accept_length", 3));
    }
    Table t = table(ScrapedLevels.run("c2", s));
    assertEquals(List.of("25.00", "3", "", "", "", "2.00"), SectionRows.byName(t).get("c2"));
  }

  @Test
  void onlyTheLevelsTheServerSpeculatedInGetARow() {
    RunAnalysis two = ScrapedLevels.twoLevels(vllm(start(0)));
    assertEquals(List.of("c2"), List.copyOf(SectionRows.byName(table(two)).keySet()));
    assertEquals("", SECTION.levelText(two, two.levels().get("c4"), true));
  }

  @Test
  void aRunWithoutSpeculationGetsNothing() {
    List<ServerSample> plain = counter("vllm:generation_tokens_total", start(0), 0, 16);
    SectionRows.assertSilent(SECTION, ScrapedLevels.run("c2", plain));
  }

  @Test
  void theConsoleBlockGivesTheDraftsAndTheirTokens() {
    SectionRows.assertBlockLine(
        SECTION,
        RUN,
        "c2",
        " Speculative decoding (c2) ",
        l -> l.startsWith("Drafts:") && l.endsWith(" 200 (600 tokens, 300 accepted)"));
  }
}
