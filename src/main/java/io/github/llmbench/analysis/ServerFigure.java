package io.github.llmbench.analysis;

/**
 * One figure of the server's metrics over a window, as a family declares it ({@link
 * CommonServerFigures}, {@link SpeculativeFigures}, {@link DisaggregatedFigures}; all of them in
 * {@link ServerFigures#KEYS}), and the key its value is kept under ({@link ServerFigureValues}).
 *
 * @param name as {@code summary.json} writes it, and a gate names it ({@code server.NAME})
 * @param unit for the gates' console lines: {@code ms}, {@code tok/s}, {@code W}, ... ({@code ""}
 *     for a count or a ratio)
 * @param label as the report's tables head its column
 */
public record ServerFigure(String name, String unit, String label) {

  /** Its name: what the figure is called wherever it is written. */
  @Override
  public String toString() {
    return name;
  }
}
