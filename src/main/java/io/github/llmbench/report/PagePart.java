package io.github.llmbench.report;

import java.util.Arrays;
import java.util.List;

/**
 * A section's part of {@code llm.html} as data: its anchor, its nav entry (null: none) and what it
 * shows, in order. {@link PageParts#part} renders it, escaping every text.
 *
 * @param anchor the part's element id ({@code llm-levels})
 * @param navLabel the side navigation's label, null for a part without a nav entry
 * @param items what the part shows, in order
 */
record PagePart(String anchor, String navLabel, List<Item> items) {

  PagePart {
    items = List.copyOf(items);
  }

  /** What a part shows. */
  sealed interface Item permits Heading, Bullets, Table, Note, Chart {}

  /** A title bar over the items after it. */
  record Heading(String text) implements Item {}

  /**
   * A bulleted list.
   *
   * @param style the list's look ({@code llm-verdicts}, {@code llm-guards})
   */
  record Bullets(String style, List<String> lines) implements Item {
    Bullets {
      lines = List.copyOf(lines);
    }
  }

  /**
   * A table: a title, its headers, its rows (the first cell a row's name); a cell is any value,
   * written as text, or a {@link Link}.
   */
  record Table(String title, List<String> headers, List<List<Object>> rows) implements Item {
    Table {
      headers = List.copyOf(headers);
      rows = List.copyOf(rows);
    }
  }

  /** A table cell that links to {@code href}, showing the address. */
  record Link(String href) {}

  /**
   * A note under a table or chart.
   *
   * @param text the note
   * @param kitText a constant sentence of the kit's own, written as it is (its apostrophes kept):
   *     it may hold no markup character
   */
  record Note(String text, boolean kitText) implements Item {
    Note {
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

  /** A chart's box; the page's script draws the chart of that id. */
  record Chart(String id) implements Item {}

  /** A table row of {@code cells} (null cells are written empty). */
  static List<Object> row(Object... cells) {
    return Arrays.asList(cells);
  }
}
