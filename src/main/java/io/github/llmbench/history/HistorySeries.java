package io.github.llmbench.history;

import io.github.llmbench.analysis.ChangePoints;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One figure's series over the runs of one key at one level, and its change points.
 *
 * @param key the key's id
 * @param level the level's name
 * @param figure the figure's key ({@code tpot.mean})
 * @param runs the runs that have the figure, in order
 * @param values each run's value (the mean of its trials)
 * @param changePoints the change points, found on the values' logs; each index counts {@link #runs}
 *     from 1
 */
public record HistorySeries(
    String key,
    String level,
    String figure,
    List<HistoryLine> runs,
    double[] values,
    List<ChangePoints.ChangePoint> changePoints) {

  /** The series of every key, level and figure the history has, in the order first seen. */
  public static List<HistorySeries> all(List<HistoryLine> lines, ChangePoints.Settings settings) {
    Set<String> keys = new LinkedHashSet<>();
    lines.forEach(l -> keys.add(l.key()));
    List<HistorySeries> out = new ArrayList<>();
    for (String key : keys) {
      List<HistoryLine> ofKey = lines.stream().filter(l -> key.equals(l.key())).toList();
      Set<String> levels = new LinkedHashSet<>();
      ofKey.forEach(l -> levels.addAll(l.levels().keySet()));
      for (String level : levels) {
        for (var m : HistoryFigures.ALL) {
          HistorySeries s = of(ofKey, key, level, m.key(), settings);
          if (!s.runs().isEmpty()) {
            out.add(s);
          }
        }
      }
    }
    return out;
  }

  /** The series of one figure over these runs (of one key), the runs without it left out. */
  public static HistorySeries of(
      List<HistoryLine> ofKey,
      String key,
      String level,
      String figure,
      ChangePoints.Settings settings) {
    List<HistoryLine> runs = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (HistoryLine l : ofKey) {
      double v = l.value(level, figure);
      if (Double.isFinite(v)) {
        runs.add(l);
        values.add(v);
      }
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    return new HistorySeries(key, level, figure, runs, v, onLogs(v, settings));
  }

  /**
   * The change points of the values' logs, their levels given back as geometric means: a run's
   * figure varies by a factor, so a +10% step is one size whatever the level, and a slow run weighs
   * as much as a fast one. Values at or under 0 (a figure that can be 0) are searched as they are.
   */
  static List<ChangePoints.ChangePoint> onLogs(double[] v, ChangePoints.Settings settings) {
    for (double x : v) {
      if (!(x > 0)) {
        return ChangePoints.find(v, settings);
      }
    }
    double[] logs = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      logs[i] = Math.log(v[i]);
    }
    return ChangePoints.find(logs, settings).stream()
        .map(
            c ->
                new ChangePoints.ChangePoint(
                    c.index(), Math.exp(c.before()), Math.exp(c.after()), c.pValue()))
        .toList();
  }
}
