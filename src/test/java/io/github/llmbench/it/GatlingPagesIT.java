package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gatling's own pages agree with {@code requests.jsonl}: one closed-model level with some server
 * failures, its {@code index.html}, the level's group page and its {@code request} page read in
 * headless Chromium (tables from the DOM, charts from Highcharts once drawn). The run is made once
 * for the class.
 *
 * <p>What Gatling reads of a record: its stream's whole ms, E2EL truncated when completed, send to
 * failure when failed; a level's group (one stream per group) reads the same as its cumulated
 * response time. Gatling's percentiles are t-digest estimates: each is checked to lie between the
 * records' exact values one percentage point of rank either side (and 1 ms of rounding).
 */
@Tag("chromium")
class GatlingPagesIT {
  private static final String LEVEL = "c4";

  @TempDir static Path results;

  private static Path runDir;
  private static List<RequestRecord> records;
  private static GatlingReport index;

  @BeforeAll
  static void runOneLevelWithFailures() throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "conc", "4",
                "duration", "5",
                "input.len", "64",
                "output.len", "16",
                "sim.faults", "500:0.15",
                "gate.failed.pct", "60",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode(), run.console());
    runDir = run.runDir();
    records =
        RequestsJsonl.read(RunFiles.ofRun(runDir).requests()).stream()
            .filter(r -> r.level().equals(LEVEL))
            .toList();
    assertTrue(records.stream().anyMatch(RequestRecord::ok), "some served");
    assertTrue(records.stream().anyMatch(r -> !r.ok()), "some failed");
    assertFalse(records.stream().anyMatch(RequestRecord::cancelled), "none cancelled");
    index = GatlingReport.ofHtml(Chromium.open(runDir.resolve("index.html")).dom());
  }

  private static long count(Predicate<RequestRecord> p) {
    return records.stream().filter(p).count();
  }

  /** What Gatling reads of a record, whole ms: E2EL truncated, else send to failure. */
  private static long gatlingMs(RequestRecord r) {
    return r.ok() ? r.e2elMs().longValue() : r.endMs() - r.startMs();
  }

  private static List<Long> sortedMs(Predicate<RequestRecord> p) {
    return records.stream().filter(p).map(GatlingPagesIT::gatlingMs).sorted().toList();
  }

  private static long meanMs(Predicate<RequestRecord> p) {
    return Math.round(
        records.stream().filter(p).mapToLong(GatlingPagesIT::gatlingMs).average().orElseThrow());
  }

  /** Checks Gatling's estimate of quantile {@code q} against the records' exact values. */
  private static void assertQuantile(String what, long gatling, List<Long> sorted, double q) {
    int n = sorted.size();
    long lo = sorted.get(Math.max(0, (int) Math.ceil((q - 0.01) * n) - 1));
    long hi = sorted.get(Math.min(n - 1, Math.max(0, (int) Math.ceil((q + 0.01) * n) - 1)));
    assertTrue(
        lo - 1 <= gatling && gatling <= hi + 1,
        what + " " + gatling + " ms, the records' between " + lo + " and " + hi + " ms");
  }

  /** Checks a row's times against the records' (those {@code p} selects). */
  private static void assertTimes(
      String what, GatlingReport.Times t, List<Integer> percentiles, Predicate<RequestRecord> p) {
    List<Long> sorted = sortedMs(p);
    assertQuantile(what + " min", t.min(), sorted, 0);
    for (int i = 0; i < percentiles.size(); i++) {
      assertQuantile(
          what + " p" + percentiles.get(i),
          t.percentiles().get(i),
          sorted,
          percentiles.get(i) / 100.0);
    }
    assertQuantile(what + " max", t.max(), sorted, 1);
    assertEquals(meanMs(p), t.mean(), what + " mean");
  }

  /** The percentiles Gatling's tables show, from a page's row titles ("50th percentile"). */
  private static List<Integer> percentiles(Map<String, List<String>> stats) {
    List<Integer> ps = new ArrayList<>();
    for (String title : stats.keySet()) {
      Matcher m = Pattern.compile("(\\d+)th percentile").matcher(title);
      if (m.matches()) {
        ps.add(Integer.parseInt(m.group(1)));
      }
    }
    return ps;
  }

  private static Map<String, List<String>> detailsStats(String page) throws Exception {
    return GatlingReport.detailsStats(Chromium.open(runDir.resolve(page)).dom());
  }

  private static long cell(Map<String, List<String>> stats, String row, int column) {
    return Long.parseLong(stats.get(row).get(column).replace(",", ""));
  }

  /** A details page's Total (column 0) or OK (1) times. */
  private static GatlingReport.Times times(Map<String, List<String>> stats, int column) {
    List<Long> ps = new ArrayList<>();
    for (int p : percentiles(stats)) {
      ps.add(cell(stats, p + "th percentile", column));
    }
    return new GatlingReport.Times(
        cell(stats, "Min", column), ps, cell(stats, "Max", column), cell(stats, "Mean", column));
  }

  @Test
  void theIndexCountsTheLevelsStreamsInItsGroupAndRequestRows() {
    for (GatlingReport.Row row :
        List.of(
            index.group(LEVEL).orElseThrow(),
            index.request(List.of(LEVEL), "request").orElseThrow())) {
      assertEquals(records.size(), row.total(), row.toString());
      assertEquals(count(RequestRecord::ok), row.ok(), row.toString());
      assertEquals(count(r -> !r.ok()), row.ko(), row.toString());
    }
  }

  @Test
  void theIndexsGroupAndRequestRowsReadTheRecordsTimes() throws Exception {
    List<Integer> percentiles = percentiles(detailsStats(GatlingReport.groupPage(LEVEL)));
    assertEquals(4, percentiles.size(), percentiles.toString());
    assertTimes("group row", index.groupTimes(LEVEL).orElseThrow(), percentiles, r -> true);
    assertTimes(
        "request row",
        index.requestTimes(List.of(LEVEL), "request").orElseThrow(),
        percentiles,
        r -> true);
  }

  @Test
  void theGroupsAndRequestsStatsTablesReadTheRecords() throws Exception {
    for (String page :
        List.of(
            GatlingReport.groupPage(LEVEL), GatlingReport.requestPage(List.of(LEVEL), "request"))) {
      Map<String, List<String>> stats = detailsStats(page);
      assertEquals(records.size(), cell(stats, "Total count", 0), page);
      assertEquals(count(RequestRecord::ok), cell(stats, "Total count", 1), page);
      assertEquals(count(r -> !r.ok()), cell(stats, "Total count", 2), page);
      assertTimes(page + " Total", times(stats, 0), percentiles(stats), r -> true);
      assertTimes(page + " OK", times(stats, 1), percentiles(stats), RequestRecord::ok);
    }
  }

  private static final Map<String, Map<String, Chromium.Chart>> CHARTS = new HashMap<>();

  /** A page's charts as Chromium drew them, read once for the class. */
  private static Chromium.Chart chart(String page, String container) throws Exception {
    if (!CHARTS.containsKey(page)) {
      CHARTS.put(page, Chromium.charts(runDir.resolve(page)));
    }
    Chromium.Chart c = CHARTS.get(page).get(container);
    assertTrue(c != null, "no chart " + container + " in " + page + ": " + CHARTS.get(page));
    return c;
  }

  private static String groupPage() {
    return GatlingReport.groupPage(LEVEL);
  }

  private static String requestPage() {
    return GatlingReport.requestPage(List.of(LEVEL), "request");
  }

  @Test
  void theRangesCountTheRecordsByTheirTimes() throws Exception {
    for (String page : List.of(groupPage(), requestPage())) {
      Chromium.Chart ranges = chart(page, "RangesContainerId");
      // the bounds as the chart names them: "t < 1000 ms", ..., "t >= 5000 ms", "failed"
      Matcher bound = Pattern.compile("(\\d+) ms").matcher(String.join(" ", ranges.categories()));
      TreeSet<Long> bounds = new TreeSet<>();
      while (bound.find()) {
        bounds.add(Long.parseLong(bound.group(1)));
      }
      assertEquals(2, bounds.size(), ranges.categories().toString());
      long lower = bounds.first();
      long higher = bounds.last();
      assertEquals(
          List.of(
              (double) count(r -> r.ok() && gatlingMs(r) < lower),
              (double) count(r -> r.ok() && gatlingMs(r) >= lower && gatlingMs(r) < higher),
              (double) count(r -> r.ok() && gatlingMs(r) >= higher),
              (double) count(r -> !r.ok())),
          ranges.series().get(0).y(),
          page);
    }
  }

  /**
   * A chart of a level's page and whether its values are the records' times (else the group's
   * duration: the records' times plus the kit's work around the stream, no less than them).
   */
  private record Drawn(String page, String container, boolean recordsTimes) {}

  @Test
  void theDistributionsHoldEachRecordOnceWhereItsTimeIs() throws Exception {
    List<Long> ok = sortedMs(RequestRecord::ok);
    for (Drawn d :
        List.of(
            new Drawn(groupPage(), "groupCumulatedResponseTimeDistributionContainerId", true),
            new Drawn(groupPage(), "groupDurationDistributionContainerId", false),
            new Drawn(requestPage(), "responseTimeDistributionContainerId", true))) {
      Chromium.Chart c = chart(d.page(), d.container());
      for (String status : List.of("OK", "KO")) {
        List<Double> pct = c.series(status).y();
        double sum = pct.stream().mapToDouble(Double::doubleValue).sum();
        long nonZero = pct.stream().filter(v -> v > 0).count();
        double share = 100.0 * count(r -> r.ok() == status.equals("OK")) / records.size();
        // each bucket's share is shown cut to 0.01 %
        assertTrue(
            sum <= share + 1e-9 && sum >= share - 0.01 * nonZero,
            d + " " + status + ": " + sum + " %, the records' " + share + " %");
      }
      List<Double> at = c.categories().stream().map(Double::parseDouble).toList();
      double step = at.size() > 1 ? at.get(1) - at.get(0) : 1;
      List<Double> pct = c.series("OK").y();
      for (int i = 0; i < pct.size(); i++) {
        if (pct.get(i) > 0) {
          assertTrue(at.get(i) >= ok.get(0) - step, d + " bucket " + at.get(i));
          assertTrue(
              !d.recordsTimes() || at.get(i) <= ok.get(ok.size() - 1) + step,
              d + " bucket " + at.get(i));
        }
      }
    }
  }

  /**
   * Gatling buckets a group or a record by its start (a group's a little before its stream's send)
   * into a second of the run, and draws the bucket at a whole second: a point and its streams'
   * sends are within 1.5 s.
   */
  private static final long BUCKET_SLACK_MS = 1500;

  @Test
  void thePercentilesOverTimeFollowTheSendsWithinTheRecordsTimes() throws Exception {
    for (Drawn d :
        List.of(
            new Drawn(groupPage(), "groupCumulatedResponseTimeOverTimeContainerId", true),
            new Drawn(groupPage(), "groupDurationOverTimeContainerId", false),
            new Drawn(requestPage(), "responseTimeOverTimeContainerId", true))) {
      assertPercentilesOverTime(d, chart(d.page(), d.container()));
    }
  }

  private static void assertPercentilesOverTime(Drawn d, Chromium.Chart c) {
    List<Long> ok = sortedMs(RequestRecord::ok);
    List<Long> sends =
        records.stream().filter(RequestRecord::ok).map(RequestRecord::startMs).toList();
    Chromium.Series min = c.series("min");
    Chromium.Series max = c.series("max");
    List<Long> points = new ArrayList<>();
    for (int i = 0; i < min.y().size(); i++) {
      if (min.y().get(i) == null) {
        continue;
      }
      long x = Math.round(min.x().get(i));
      points.add(x);
      assertTrue(
          sends.stream().anyMatch(t -> Math.abs(t - x) <= BUCKET_SLACK_MS),
          d + ": a point at " + x + ", where no stream was sent");
      assertTrue(min.y().get(i) >= ok.get(0) - 1, d + ": min " + min.y().get(i) + " < " + ok);
      assertTrue(
          !d.recordsTimes() || max.y().get(i) <= ok.get(ok.size() - 1) + 1,
          d + ": max " + max.y().get(i) + " > " + ok.get(ok.size() - 1));
    }
    for (long t : sends) {
      assertTrue(
          points.stream().anyMatch(x -> Math.abs(t - x) <= BUCKET_SLACK_MS),
          d + ": no point for the send at " + t + ": " + points);
    }
  }

  @Test
  void theConcurrentUsersChartPeaksAtTheRecordsPeakInFlight() throws Exception {
    Chromium.Chart users = chart("index.html", "MaxConcurrentUsersContainerId");
    double peakUsers =
        users.series(LEVEL).y().stream()
            .filter(v -> v != null)
            .mapToDouble(Double::doubleValue)
            .max()
            .orElseThrow();
    assertEquals(peakInFlight(), (long) peakUsers, "the level's users: its requests in flight");
  }

  /** The most requests in flight at once, from the records' send and end times. */
  private static long peakInFlight() {
    return ServingMetricsCalculator.peakConcurrentRequests(records);
  }
}
