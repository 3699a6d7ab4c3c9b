package io.github.llmbench.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's figures over one window, by key ({@link ServerFigure}), in the order they were put
 * ({@code summary.json} keeps that order; the reports go by {@link ServerFigures#KEYS}'). A figure
 * the server does not report is held with a null value, never 0, apart from one the window never
 * looked at (absent). Pure.
 *
 * @param values each figure's value, null where the server reports none
 */
public record ServerFigureValues(Map<ServerFigure, Double> values) {
  public static final ServerFigureValues NONE = new ServerFigureValues(Map.of());

  public ServerFigureValues {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The figure's value, null when the server did not report it. */
  public Double get(ServerFigure key) {
    return values.get(key);
  }

  /** The figure's value, NaN when the server did not report it. */
  public double orNaN(ServerFigure key) {
    Double v = values.get(key);
    return v == null ? Double.NaN : v;
  }

  /** Whether the window holds the figure, reported or not (null). */
  public boolean has(ServerFigure key) {
    return values.containsKey(key);
  }

  /** Whether the window holds no figure (a level without a steady window, a server not read). */
  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** Whether no figure has a value. */
  public boolean noneReported() {
    return values.values().stream().allMatch(v -> v == null);
  }

  /** The values by name, in their order: {@code summary.json}'s form. */
  public Map<String, Double> byName() {
    Map<String, Double> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k.name(), v));
    return out;
  }

  /**
   * The values of {@code summary.json}'s form, in its order: each name as the key a family declares
   * (or {@link ServerFigures#IDEAL_HIT_RATE}); a name none declares (a file of another version) is
   * kept under a key of its own, labelled by its name, so the file reads back whole.
   */
  public static ServerFigureValues ofNames(Map<String, Double> byName) {
    Map<ServerFigure, Double> out = new LinkedHashMap<>();
    byName.forEach((name, v) -> out.put(key(name), v));
    return new ServerFigureValues(out);
  }

  private static ServerFigure key(String name) {
    if (name.equals(ServerFigures.IDEAL_HIT_RATE.name())) {
      return ServerFigures.IDEAL_HIT_RATE;
    }
    return ServerFigures.named(name).orElseGet(() -> new ServerFigure(name, "", name));
  }

  /** As {@code summary.json} writes the values: {@code {running_mean=3.0, ...}}. */
  @Override
  public String toString() {
    return byName().toString();
  }
}
