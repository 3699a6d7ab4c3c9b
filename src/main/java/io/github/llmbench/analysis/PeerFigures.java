package io.github.llmbench.analysis;

import java.util.List;

/**
 * One level's figures as another benchmarking tool would print them from the same records, each
 * beside the kit's own figure of the same name and statistic ({@link PeerTool}).
 *
 * @param tool the tool's name as {@code --as} takes it ({@code vllm}, {@code aiperf}, {@code
 *     guidellm})
 * @param level the level's tag ({@code ""} for records without one)
 * @param tables the tool's tables, in the order it prints them
 * @param notes one line each: where the tool's figure differs from the kit's, and what the records
 *     cannot give back
 */
public record PeerFigures(String tool, String level, List<Table> tables, List<String> notes) {

  public PeerFigures {
    tables = List.copyOf(tables);
    notes = List.copyOf(notes);
  }

  /**
   * One of the tool's tables.
   *
   * @param title its title as the tool prints it
   * @param columns the statistics it prints per figure ({@code avg}, {@code p99}, ...); one column
   *     for a table of single values
   * @param rows the figures, in the tool's order
   */
  public record Table(String title, List<String> columns, List<Row> rows) {

    public Table {
      columns = List.copyOf(columns);
      rows = List.copyOf(rows);
    }
  }

  /**
   * One figure: the tool's values per column and the kit's values of the same statistics ({@link
   * #MISSING} where one has none).
   *
   * @param label the tool's label, with its unit as the tool writes it
   * @param decimals the decimals the tool prints (0 for counts)
   * @param peer the tool's value per column
   * @param kit the kit's value per column, under the kit's definitions
   */
  public record Row(String label, int decimals, List<Double> peer, List<Double> kit) {

    public Row {
      peer = List.copyOf(peer);
      kit = List.copyOf(kit);
      if (peer.size() != kit.size()) {
        throw new IllegalArgumentException(
            label + ": " + peer.size() + " values against the kit's " + kit.size());
      }
    }

    /** A single value beside the kit's. */
    public static Row single(String label, int decimals, double peer, double kit) {
      return new Row(label, decimals, List.of(peer), List.of(kit));
    }

    /** The tool's value of a column. */
    public double peer(int column) {
      return peer.get(column);
    }

    /** The kit's value of a column. */
    public double kit(int column) {
      return kit.get(column);
    }
  }

  /** A value one side has no figure for: printed {@code N/A}. */
  public static final double MISSING = Double.NaN;

  /** The table of that title; {@link IllegalArgumentException} when there is none. */
  public Table table(String title) {
    return tables.stream()
        .filter(t -> t.title().equals(title))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no table " + title + " in " + tool));
  }

  /** The row of that label in any table; {@link IllegalArgumentException} when there is none. */
  public Row row(String label) {
    return tables.stream()
        .flatMap(t -> t.rows().stream())
        .filter(r -> r.label().equals(label))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no row " + label + " in " + tool));
  }
}
