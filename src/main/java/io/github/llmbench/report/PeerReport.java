package io.github.llmbench.report;

import io.github.llmbench.analysis.PeerFigures;
import io.github.llmbench.report.section.Numbers;
import io.github.llmbench.report.section.ServingResultBlock;
import java.util.List;

/**
 * A level's figures under another tool's definitions ({@code exec:java@report ... --as TOOL}), as
 * console text: the tool's tables with its titles, labels and statistic columns, and under each of
 * its figures the kit's own figure of the same statistic, so the difference shows; then the notes.
 *
 * <p>A table of single values (vLLM's result block) prints a row as vLLM does ({@code "{:<40}
 * {:<10}"}) with {@code kit <value>} after it; its first title is centred in {@code =}, the others
 * in {@code -}, in {@value ServingResultBlock#WIDTH} columns. A table with statistic columns
 * (AIPerf's, GuideLLM's) prints its title with the level, a header, the tool's line of each figure,
 * and a {@code kit} line under it. A value a side has no figure for reads {@code N/A}. Numbers use
 * Python's {@code .Nf} rounding (half-even on the exact binary value), as the result block.
 */
public final class PeerReport {

  /** The label of the kit's line under a figure, and of its value beside one. */
  public static final String KIT = "kit";

  /** Width of a statistic column. */
  private static final int COLUMN = 11;

  private PeerReport() {}

  /** The figures as text, lines ended by {@code \n}. */
  public static String format(PeerFigures figures) {
    StringBuilder sb = new StringBuilder();
    boolean first = true;
    for (PeerFigures.Table table : figures.tables()) {
      if (table.columns().size() == 1) {
        singleValues(sb, table, figures.level(), first);
      } else {
        columns(sb, table, figures.level());
      }
      first = false;
    }
    for (String note : figures.notes()) {
      sb.append("Note: ").append(note).append('\n');
    }
    return sb.toString();
  }

  /**
   * The line printed before the levels: which tool's definitions, and that nothing is rewritten.
   */
  public static String heading(String tool, String runDir) {
    return "Figures of "
        + runDir
        + " under "
        + tool
        + "'s definitions, each beside the kit's own ("
        + KIT
        + "); nothing is rewritten.\n";
  }

  private static void singleValues(
      StringBuilder sb, PeerFigures.Table table, String level, boolean first) {
    if (first) {
      String title = titled(table.title(), level);
      sb.append(ServingResultBlock.center(" " + title + " ", '=', ServingResultBlock.WIDTH));
    } else {
      sb.append(ServingResultBlock.center(table.title(), '-', ServingResultBlock.WIDTH));
    }
    sb.append('\n');
    for (PeerFigures.Row row : table.rows()) {
      String peer = number(row.peer(0), row.decimals());
      String kit = number(row.kit(0), row.decimals());
      sb.append(ServingResultBlock.rowText(row.label(), peer))
          .append(' ')
          .append(KIT)
          .append(' ')
          .append(kit)
          .append('\n');
    }
  }

  private static void columns(StringBuilder sb, PeerFigures.Table table, String level) {
    int labelWidth = KIT.length();
    for (PeerFigures.Row row : table.rows()) {
      labelWidth = Math.max(labelWidth, row.label().length());
    }
    sb.append(titled(table.title(), level)).append('\n');
    StringBuilder header = new StringBuilder(padLeft("Metric", labelWidth));
    table.columns().forEach(c -> header.append(padLeft(c, COLUMN)));
    sb.append(header).append('\n');
    for (PeerFigures.Row row : table.rows()) {
      line(sb, row.label(), labelWidth, row.peer(), row.decimals());
      line(sb, KIT, labelWidth, row.kit(), row.decimals());
    }
  }

  /** The title with its level, as the kit's blocks: {@code Serving Benchmark Result (c4)}. */
  private static String titled(String title, String level) {
    return level.isEmpty() ? title : title + " (" + level + ")";
  }

  private static void line(
      StringBuilder sb, String label, int labelWidth, List<Double> values, int decimals) {
    StringBuilder line = new StringBuilder(padLeft(label, labelWidth));
    values.forEach(v -> line.append(padLeft(number(v, decimals), COLUMN)));
    sb.append(line).append('\n');
  }

  /**
   * The value with that many decimals (Python's rounding); {@code N/A} for a missing one. {@link
   * Numbers#fixed}, not Python's sign of {@link Numbers#f2}: a value that rounds to zero from below
   * reads {@code 0.00} here, as this report has always printed it beside the peer's.
   */
  static String number(double v, int decimals) {
    return Double.isNaN(v) ? "N/A" : Numbers.fixed(v, decimals);
  }

  private static String padLeft(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }
}
