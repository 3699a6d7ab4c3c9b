package io.github.llmbench.summary;

import io.github.llmbench.analysis.ServerFigures;
import java.util.List;
import java.util.Map;

/**
 * The server's figures ({@link ServerFigures#NAMES}) over the level and its steady window, and the
 * confounds found.
 */
public record ServerLevelFigures(
    Map<String, Double> level, Map<String, Double> steady, List<String> guards) {

  /** A figure over the level, NaN when the server did not report it. */
  public double levelFigure(String name) {
    Double v = level == null ? null : level.get(name);
    return v == null ? Double.NaN : v;
  }
}
