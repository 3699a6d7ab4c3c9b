package io.github.llmbench.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statistics table of Gatling's {@code index.html}, as a Gatling user reads it: a row per
 * record name in its group, one per group, and "All Requests" (Gatling 3.15's markup and names).
 */
public final class GatlingReport {
  private final String index;

  private GatlingReport(String index) {
    this.index = index;
  }

  /** The report as a page's markup holds it (a file's, or Chromium's DOM of it). */
  public static GatlingReport ofHtml(String index) {
    return new GatlingReport(index);
  }

  public static GatlingReport of(Path runDir) {
    try {
      return new GatlingReport(Files.readString(runDir.resolve("index.html")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One row: counts, and the mean response time in whole ms. */
  public record Row(long total, long ok, long ko, long meanMs) {}

  /** The "All Requests" row (Gatling's Global). */
  public Row global() {
    return row("ROOT")
        .orElseThrow(() -> new AssertionError("no All Requests row in Gatling's report"));
  }

  /**
   * The row of record {@code name} in {@code groups} ({@code c8}, then {@code request}), or empty.
   */
  public Optional<Row> request(List<String> groups, String name) {
    List<String> path = new ArrayList<>(groups);
    path.add(name);
    return row("req_" + fileName(String.join(" / ", path)));
  }

  /**
   * A row's response times in whole ms: min, the percentiles Gatling shows (50, 75, 95, 99 by
   * default), max and mean.
   */
  public record Times(long min, List<Long> percentiles, long max, long mean) {}

  /** The times of the group {@code groups}' row, or empty. */
  public Optional<Times> groupTimes(String... groups) {
    return times("group_" + fileName(String.join(" / ", groups)));
  }

  /** The times of record {@code name}'s row in {@code groups}, or empty. */
  public Optional<Times> requestTimes(List<String> groups, String name) {
    List<String> path = new ArrayList<>(groups);
    path.add(name);
    return times("req_" + fileName(String.join(" / ", path)));
  }

  /** The file of the group {@code groups}' own page, in the run folder. */
  public static String groupPage(String... groups) {
    return "group_" + fileName(String.join(" / ", groups)) + ".html";
  }

  /** The file of record {@code name}'s own page in {@code groups}, in the run folder. */
  public static String requestPage(List<String> groups, String name) {
    List<String> path = new ArrayList<>(groups);
    path.add(name);
    return "req_" + fileName(String.join(" / ", path)) + ".html";
  }

  /** The row of the index's Stats table whose id is {@code id}, as HTML. */
  private Optional<String> statsRow(String id) {
    Matcher m =
        Pattern.compile("id=\"stats-table-" + Pattern.quote(id) + "\"[\\s\\S]*?</tr>")
            .matcher(index);
    return m.find() ? Optional.of(m.group()) : Optional.empty();
  }

  private Optional<Times> times(String id) {
    return statsRow(id)
        .map(
            row ->
                new Times(
                    col(row, 7),
                    List.of(col(row, 8), col(row, 9), col(row, 10), col(row, 11)),
                    col(row, 12),
                    col(row, 13)));
  }

  /**
   * The "Stats" table of a group's or record's own page (its markup, or Chromium's DOM of it): per
   * row title ({@code Total count}, {@code Min}, {@code 50th percentile}, ..., {@code Max}, {@code
   * Mean}), the Total, OK and KO cells as shown ({@code -} where none).
   */
  public static java.util.Map<String, List<String>> detailsStats(String page) {
    int from = page.indexOf("infos-title\">Stats<");
    if (from < 0) {
      throw new AssertionError("no Stats table in the page");
    }
    String table = page.substring(from); // its rows are the page's only title/total/ok/ko cells
    Matcher row =
        Pattern.compile(
                "<td class=\"title\">([^<]+)(?:</abbr>)?</td>\\s*"
                    + "<td class=\"total\">([^<]*)</td>\\s*"
                    + "<td class=\"ok\">([^<]*)</td>\\s*"
                    + "<td class=\"ko\">([^<]*)</td>")
            .matcher(table);
    java.util.Map<String, List<String>> rows = new java.util.LinkedHashMap<>();
    while (row.find()) {
      rows.put(
          row.group(1).trim(),
          List.of(row.group(2).trim(), row.group(3).trim(), row.group(4).trim()));
    }
    return rows;
  }

  /** The row of the group {@code groups} ({@code c8}; {@code c2}, {@code SS}), or empty. */
  public Optional<Row> group(String... groups) {
    return row("group_" + fileName(String.join(" / ", groups)));
  }

  /**
   * How Gatling names a row and its page: the path cleaned and cut to 15 characters, then its hash.
   */
  private static String fileName(String path) {
    String clean = path.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-zA-Z0-9\\-]", "-");
    return clean.substring(0, Math.min(15, clean.length())) + "-" + path.trim().hashCode();
  }

  private Optional<Row> row(String id) {
    return statsRow(id).map(row -> new Row(col(row, 2), col(row, 3), col(row, 4), col(row, 13)));
  }

  private static long col(String row, int col) {
    Matcher m = Pattern.compile("col-" + col + "\">([-0-9,]+)<").matcher(row);
    if (!m.find()) {
      throw new AssertionError("no column " + col + " in " + row);
    }
    String v = m.group(1).replace(",", "");
    return v.equals("-") ? 0 : Long.parseLong(v);
  }
}
