package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Bullets;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Heading;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Link;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A section's page parts read as data, as its rows tests check them: its tables by title, a row's
 * cells as the text the page shows (a missing cell empty, a link its address), its headings, notes,
 * bullets and charts. No HTML: the page's rendering has tests of its own.
 */
final class SectionRows {

  private final List<PagePart> parts;

  private SectionRows(List<PagePart> parts) {
    this.parts = List.copyOf(parts);
  }

  /** The parts {@code section} gives the page for this analysis and run. */
  static SectionRows of(ReportSection section, RunAnalysis a, RunInfo info) {
    return new SectionRows(section.page(a, info));
  }

  List<PagePart> parts() {
    return parts;
  }

  /** Every item of every part, in page order. */
  List<Item> items() {
    return parts.stream().flatMap(p -> p.items().stream()).toList();
  }

  List<Table> tables() {
    return items().stream().filter(Table.class::isInstance).map(Table.class::cast).toList();
  }

  /** The table of this title; fails naming the titles there are. */
  Table table(String title) {
    return tables().stream()
        .filter(t -> t.title().equals(title))
        .findFirst()
        .orElseGet(
            () ->
                fail(
                    "no table '"
                        + title
                        + "'; the tables: "
                        + tables().stream().map(Table::title).toList()));
  }

  /** A table's rows, each its cells as the page shows them. */
  static List<List<String>> text(Table t) {
    return t.rows().stream().map(SectionRows::cells).toList();
  }

  /** A table's rows by their first cell, each the rest of its cells as text. */
  static Map<String, List<String>> byName(Table t) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (List<String> row : text(t)) {
      m.put(row.get(0), row.subList(1, row.size()));
    }
    return m;
  }

  /** A table's row names (each row's first cell), in page order. */
  static List<String> names(Table t) {
    return text(t).stream().map(row -> row.get(0)).toList();
  }

  /** One cell of the row named {@code row}, under the header {@code header}. */
  static String cell(Table t, String row, String header) {
    int column = t.headers().indexOf(header);
    if (column < 0) {
      fail("no column '" + header + "' in " + t.title() + ": " + t.headers());
    }
    List<String> cells = byName(t).get(row);
    if (cells == null) {
      fail("no row '" + row + "' in " + t.title() + ": " + byName(t).keySet());
    }
    return column == 0 ? row : cells.get(column - 1);
  }

  /** The title bars' texts, in page order. */
  List<String> headings() {
    return items().stream()
        .filter(Heading.class::isInstance)
        .map(i -> ((Heading) i).text())
        .toList();
  }

  List<String> notes() {
    return items().stream().filter(Note.class::isInstance).map(i -> ((Note) i).text()).toList();
  }

  List<String> bullets() {
    List<String> lines = new ArrayList<>();
    items().stream()
        .filter(Bullets.class::isInstance)
        .forEach(i -> lines.addAll(((Bullets) i).lines()));
    return lines;
  }

  List<Chart> charts() {
    return items().stream().filter(Chart.class::isInstance).map(Chart.class::cast).toList();
  }

  /**
   * Fails unless {@code section} stays silent for this run: it does not apply, its page parts hold
   * no table row, and no level has a console block.
   */
  static void assertSilent(ReportSection section, RunAnalysis a) {
    assertFalse(section.appliesTo(a), "applies");
    for (Table t : of(section, a, RunInfo.NONE).tables()) {
      assertEquals(List.of(), t.rows(), t.title());
    }
    for (RunAnalysis.Level l : a.levels().values()) {
      assertEquals("", section.levelText(a, l, true), l.name());
    }
  }

  /**
   * Fails unless level {@code level}'s console block, as a run of several levels prints it, opens
   * with a line holding {@code title} and has a line that {@code line} accepts.
   */
  static void assertBlockLine(
      ReportSection section, RunAnalysis a, String level, String title, Predicate<String> line) {
    String block = section.levelText(a, a.levels().get(level), true);
    assertTrue(block.lines().findFirst().orElse("").contains(title), block);
    assertTrue(block.lines().anyMatch(line), block);
  }

  /** The words of {@code level}'s line at the run's end ({@link ServingSection#levelLines}). */
  static List<String> runEndLine(ReportSection s, RunAnalysis a, String level) {
    return s.runText(a).lines().filter(l -> l.startsWith(level + " ")).findFirst().stream()
        .flatMap(l -> Arrays.stream(l.trim().split(" +")))
        .toList();
  }

  private static List<String> cells(List<Object> row) {
    List<String> out = new ArrayList<>();
    for (Object c : row) {
      out.add(c == null ? "" : c instanceof Link l ? l.href() : String.valueOf(c));
    }
    return out;
  }
}
