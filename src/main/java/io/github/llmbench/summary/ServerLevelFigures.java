package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.StdConverter;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.analysis.ServerFigures;
import java.util.List;
import java.util.Map;

/**
 * The server's figures ({@link ServerFigures#KEYS}) over the level and its steady window, and the
 * confounds found. Each window is written as one flat object by the figures' names, in the order
 * they were put, and read back from it ({@link ServerFigureValues#ofNames}).
 */
public record ServerLevelFigures(
    @JsonSerialize(converter = ByName.class) @JsonDeserialize(converter = ByKey.class)
        ServerFigureValues level,
    @JsonSerialize(converter = ByName.class) @JsonDeserialize(converter = ByKey.class)
        ServerFigureValues steady,
    List<String> guards) {

  /** A figure over the level, NaN when the server did not report it. */
  public double levelFigure(ServerFigure key) {
    return level == null ? Double.NaN : level.orNaN(key);
  }

  /** A window's figures as {@code summary.json} writes them: by name. */
  static final class ByName extends StdConverter<ServerFigureValues, Map<String, Double>> {
    @Override
    public Map<String, Double> convert(ServerFigureValues values) {
      return values.byName();
    }
  }

  /** A window's figures read from {@code summary.json}'s names. */
  static final class ByKey extends StdConverter<Map<String, Double>, ServerFigureValues> {
    @Override
    public ServerFigureValues convert(Map<String, Double> byName) {
      return ServerFigureValues.ofNames(byName);
    }
  }
}
