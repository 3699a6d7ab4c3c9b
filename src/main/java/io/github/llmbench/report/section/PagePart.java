package io.github.llmbench.report.section;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A section's part of {@code llm.html} as data: its anchor, its nav entry (null: none) and what it
 * shows, in order. {@code report.page.PageParts.part} renders it, escaping every text.
 *
 * @param anchor the part's element id ({@code llm-levels})
 * @param navLabel the side navigation's label, null for a part without a nav entry
 * @param items what the part shows, in order
 */
public record PagePart(String anchor, String navLabel, List<Item> items) {

  public PagePart {
    items = List.copyOf(items);
  }

  /** What a part shows. */
  public sealed interface Item permits Heading, Bullets, Table, Note, Chart {}

  /** A title bar over the items after it. */
  public record Heading(String text) implements Item {}

  /**
   * A bulleted list.
   *
   * @param style the list's look ({@code llm-verdicts}, {@code llm-guards})
   */
  public record Bullets(String style, List<String> lines) implements Item {
    public Bullets {
      lines = List.copyOf(lines);
    }
  }

  /**
   * A table: a title, its headers, its rows (the first cell a row's name); a cell is any value,
   * written as text, or a {@link Link}.
   */
  public record Table(String title, List<String> headers, List<List<Object>> rows) implements Item {
    public Table {
      headers = List.copyOf(headers);
      rows = List.copyOf(rows);
    }
  }

  /** A table cell that links to {@code href}, showing the address. */
  public record Link(String href) {}

  /**
   * A note under a table or chart.
   *
   * @param text the note
   * @param kitText a constant sentence of the kit's own, written as it is (its apostrophes kept):
   *     it may hold no markup character
   */
  public record Note(String text, boolean kitText) implements Item {
    public Note {
      if (kitText && (text.indexOf('<') >= 0 || text.indexOf('&') >= 0)) {
        throw new IllegalArgumentException("a kit note holds no markup: " + text);
      }
    }

    /** A note of any text (escaped). */
    static Note of(String text) {
      return new Note(text, false);
    }

    /** A constant sentence of the kit's own. */
    static Note kit(String text) {
      return new Note(text, true);
    }
  }

  /**
   * A chart: its box on the page and its entry in the chart data's list, which the page's script
   * draws with the drawing of its kind ({@code llm-page.js}'s {@code KINDS}).
   *
   * @param id the box's element id
   * @param kind how it is drawn ({@code ladder}, {@code inflight}, {@code distribution}, ...)
   * @param spec what that drawing reads besides the page's shared data (title, series keys, ...)
   */
  public record Chart(String id, String kind, Map<String, Object> spec) implements Item {
    public Chart {
      spec = Collections.unmodifiableMap(new LinkedHashMap<>(spec));
    }

    static Chart of(String id, String kind) {
      return new Chart(id, kind, Map.of());
    }

    /** This chart with one more entry in its spec. */
    Chart with(String key, Object value) {
      Map<String, Object> m = new LinkedHashMap<>(spec);
      m.put(key, value);
      return new Chart(id, kind, m);
    }

    /** The chart's entry in the chart data: its id, its kind, then its spec. */
    public Map<String, Object> entry() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", id);
      m.put("kind", kind);
      m.putAll(spec);
      return m;
    }
  }

  /** A table row of {@code cells} (null cells are written empty). */
  static List<Object> row(Object... cells) {
    return Arrays.asList(cells);
  }
}
