package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A level spread over two servers and two models, as rows: server a answered requests 0-3 (one a
 * second, each 1 s long, TTFT 20 ms, 8 tokens); server b requests 4-5 (each 2 s long, TTFT 80 ms,
 * 16 tokens) and failed one more. The even requests asked model m1, the odd ones m2.
 */
class RoutesSectionTest {
  private static final RoutesSection SECTION = new RoutesSection();
  private static final String A = "http://a:8000";
  private static final String B = "http://b:8000";

  private static List<RequestRecord> level(String level, long t0) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      boolean onA = i < 4;
      long start = t0 + 1_000L * i;
      rs.add(
          TestRecords.ok(level)
              .start(start)
              .end(start + (onA ? 1_000 : 2_000))
              .ttft(onA ? 20 : 80)
              .e2el(onA ? 1_000 : 2_000)
              .outputTokens(onA ? 8 : 16)
              .route(Route.of(onA ? A : B, i % 2 == 0 ? "m1" : "m2"))
              .build());
    }
    rs.add(
        TestRecords.failed(level, "HTTP 500")
            .start(t0 + 4_500)
            .end(t0 + 4_600)
            .route(Route.of(B, "m1"))
            .build());
    return rs;
  }

  private static RunAnalysis run(List<RequestRecord> records) {
    return RunAnalysis.of(RunAnalysis.Inputs.builder(records).build());
  }

  private static final RunAnalysis RUN = run(level("c2", 0));

  private static Table servers() {
    return SectionRows.of(SECTION, RUN, RunInfo.NONE).table("Per server (c2)");
  }

  @Test
  void eachServerIsARowInTheOrderItWasFirstSentTo() {
    assertEquals(List.of(A, B), List.copyOf(SectionRows.byName(servers()).keySet()));
  }

  @Test
  void theHeadersAreTheCountsTheThroughputsAndTheLatencies() {
    assertEquals(
        List.of(
            "Server",
            "Completed",
            "Failed",
            "Req/s",
            "Output tok/s",
            "Mean TTFT (ms)",
            "P99 TTFT (ms)",
            "Mean TPOT (ms)",
            "Mean E2EL (ms)"),
        servers().headers());
  }

  @Test
  void aServersRowCountsOnlyItsOwnRequests() {
    assertEquals(List.of("4", "0"), SectionRows.byName(servers()).get(A).subList(0, 2));
    assertEquals(List.of("2", "1"), SectionRows.byName(servers()).get(B).subList(0, 2));
  }

  @Test
  void aServersThroughputIsOverItsOwnRequestsSpan() {
    // a: 4 requests, 32 tokens over 0-4 s; b: 2 requests, 32 tokens over 4-7 s
    assertEquals("1.00", SectionRows.cell(servers(), A, "Req/s"));
    assertEquals("8.00", SectionRows.cell(servers(), A, "Output tok/s"));
    assertEquals("0.67", SectionRows.cell(servers(), B, "Req/s"));
    assertEquals("10.67", SectionRows.cell(servers(), B, "Output tok/s"));
  }

  @Test
  void aServersLatenciesAreThoseOfItsOwnRequests() {
    assertEquals("20.00", SectionRows.cell(servers(), A, "Mean TTFT (ms)"));
    assertEquals("80.00", SectionRows.cell(servers(), B, "P99 TTFT (ms)"));
    assertEquals("2000.00", SectionRows.cell(servers(), B, "Mean E2EL (ms)"));
  }

  @Test
  void eachModelIsARowOfTheModelTable() {
    Table models = SectionRows.of(SECTION, RUN, RunInfo.NONE).table("Per model (c2)");
    assertEquals("Model", models.headers().get(0));
    assertEquals(List.of("m1", "m2"), List.copyOf(SectionRows.byName(models).keySet()));
    // m1: requests 0, 2, 4 and the failed one; m2: 1, 3, 5
    assertEquals(List.of("3", "1"), SectionRows.byName(models).get("m1").subList(0, 2));
    assertEquals("40.00", SectionRows.cell(models, "m2", "Mean TTFT (ms)"));
  }

  @Test
  void eachLevelHasTablesOfItsOwn() {
    List<RequestRecord> two = new ArrayList<>(level("c2", 0));
    two.addAll(level("c4", 10_000));
    assertEquals(
        List.of("Per server (c2)", "Per model (c2)", "Per server (c4)", "Per model (c4)"),
        SectionRows.of(SECTION, run(two), RunInfo.NONE).tables().stream()
            .map(Table::title)
            .toList());
  }

  @Test
  void aLevelOfOneServerAndOneModelGetsNothing() {
    SectionRows.assertSilent(
        SECTION, run(List.of(TestRecords.ok("c2").build(), TestRecords.ok("c2").build())));
  }

  @Test
  void theConsoleLineOfAServerGivesItsCountsThroughputsAndLatencies() {
    SectionRows.assertBlockLine(
        SECTION,
        RUN,
        "c2",
        " Per server (c2) ",
        l ->
            l.startsWith(B + " ")
                && List.of(l.split(" +"))
                    .subList(0, 6)
                    .equals(List.of(B, "2", "1", "0.67", "10.67", "80.00")));
  }
}
