package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gatling's report of merged records, through Gatling's own log writer and report generator (a
 * Gatling upgrade that changes them breaks here): it counts and times each record as the injector's
 * run logged it. The report is written once for the class.
 */
class MergedGatlingReportTest {
  private static final long T0 = 1_800_000_000_000L;
  private static final String LOUD = "HTTP 500: <b>boom</b>";

  @TempDir static Path dir;

  private static final List<RequestRecord> records = new ArrayList<>();
  private static Path folder;
  private static GatlingReport report;

  @BeforeAll
  static void writeTheReport() throws Exception {
    for (int i = 0; i < 40; i++) {
      // E2EL from 100.7 ms to about 1 s, spread over 4 s of sends
      double e2el = 100.7 + (i * 37 % 40) * 23.3;
      records.add(TestRecords.ok("c2").start(T0 + i * 100L).e2el(e2el).build());
    }
    for (int i = 0; i < 5; i++) {
      records.add(
          TestRecords.failed("c2", LOUD).start(T0 + 50 + i * 700L).end(T0 + 80 + i * 700L).build());
    }
    records.add(
        TestRecords.failed("c2", RequestRecord.CANCELLED + " after 1 s")
            .start(T0 + 900)
            .end(T0 + 1900)
            .build());
    for (int i = 0; i < 10; i++) {
      records.add(
          TestRecords.ok("c4").profile("chat").start(T0 + 4000 + i * 50L).e2el(200.2 + i).build());
    }
    for (int i = 0; i < 5; i++) {
      // a closed model's one user after another: each sent as the one before ends
      records.add(TestRecords.ok("c1").start(T0 + 5000 + i * 200L).e2el(200.0).build());
    }
    records.add(TestRecords.ok(null).start(T0 + 6500).e2el(150.0).build());
    folder = dir.resolve("servingbenchmarksimulation-merged");
    Files.createDirectories(folder);
    Path index = MergedGatlingReport.write(folder, "servingbenchmarksimulation", "merged", records);
    assertEquals(folder.resolve("index.html"), index);
    report = GatlingReport.of(folder);
  }

  private static long count(Predicate<RequestRecord> p) {
    return records.stream().filter(p).count();
  }

  /** The whole ms Gatling reads for a record: E2EL truncated, else its span; 0 when cancelled. */
  private static long gatlingMs(RequestRecord r) {
    return r.cancelled() ? 0 : MergedGatlingReport.gatlingEndMs(r) - r.startMs();
  }

  private static long meanMs(String level) {
    return Math.round(
        records.stream()
            .filter(r -> level.equals(r.level()))
            .mapToLong(MergedGatlingReportTest::gatlingMs)
            .average()
            .orElseThrow());
  }

  @Test
  void allRequestsCountsEachStreamOnceOkOrKoAndNoCancelledOne() {
    GatlingReport.Row all = report.global();
    assertEquals(count(r -> !r.cancelled()), all.total());
    assertEquals(count(RequestRecord::ok), all.ok());
    assertEquals(count(r -> !r.ok() && !r.cancelled()), all.ko());
  }

  @Test
  void eachLevelsRequestRowReadsItsStreamsE2el() {
    GatlingReport.Row c2 = report.request(List.of("c2"), "request").orElseThrow();
    assertEquals(count(r -> "c2".equals(r.level()) && !r.cancelled()), c2.total());
    long mean =
        Math.round(
            records.stream()
                .filter(r -> "c2".equals(r.level()) && !r.cancelled())
                .mapToLong(MergedGatlingReportTest::gatlingMs)
                .average()
                .orElseThrow());
    assertEquals(mean, c2.meanMs());
  }

  @Test
  void eachLevelsGroupCountsItsRecordsAndReadsTheirTimes() {
    GatlingReport.Row c2 = report.group("c2").orElseThrow();
    assertEquals(count(r -> "c2".equals(r.level())), c2.total(), "the cancelled one too");
    assertEquals(count(r -> "c2".equals(r.level()) && r.ok()), c2.ok());
    assertEquals(meanMs("c2"), c2.meanMs());
  }

  @Test
  void aProfilesGroupIsInsideItsLevels() {
    assertEquals(10, report.group("c4", "chat").orElseThrow().total());
    assertEquals(10, report.request(List.of("c4", "chat"), "request").orElseThrow().total());
    assertEquals(meanMs("c4"), report.group("c4").orElseThrow().meanMs());
  }

  @Test
  void theConcurrentUsersPeakIsTheRecordsPeakInFlight() throws Exception {
    String index = Files.readString(folder.resolve("index.html"));
    int chart = index.indexOf("renderTo: 'MaxConcurrentUsersContainerId'");
    assertTrue(chart > 0, "a concurrent users chart");
    int series = index.indexOf("name: 'c1',", chart);
    assertTrue(series > 0, "c1's series");
    // its points, up to the series' tooltip
    Matcher point =
        Pattern.compile("\\[\\d+, (\\d+)\\]")
            .matcher(index.substring(series, index.indexOf("tooltip", series)));
    long peak = 0;
    while (point.find()) {
      peak = Math.max(peak, Long.parseLong(point.group(1)));
    }
    assertEquals(peakInFlight("c1"), peak, "one user at a time");
  }

  /** The most requests of {@code level} in flight at once (an end before a start in one ms). */
  private static long peakInFlight(String level) {
    return ServingMetricsCalculator.peakConcurrentRequests(
        records.stream().filter(r -> level.equals(r.level())).toList());
  }

  @Test
  void aRecordWithoutALevelIsInAGroupOfItsOwn() {
    assertEquals(1, report.group("all").orElseThrow().total());
  }

  @Test
  void theServersErrorIsShownAsText() throws Exception {
    String index = Files.readString(folder.resolve("index.html"));
    assertTrue(index.contains("boom"), "the error table names the reason");
    assertFalse(index.contains("<b>boom</b>"), "escaped");
  }
}
