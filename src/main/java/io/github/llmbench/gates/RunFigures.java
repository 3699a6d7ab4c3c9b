package io.github.llmbench.gates;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.summary.LevelGoodput;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A run's figures that gates are checked on, computed once: each measured level's, and a capacity
 * search's answer. This run's come from its analysis; a baseline's from its {@code summary.json}.
 *
 * @param levels each measured level's figures by its name, in run order
 * @param capacity a capacity search's answer, empty for a run without one (or none met)
 */
public record RunFigures(Map<String, LevelFigures> levels, Optional<Capacity> capacity) {

  /** No figures: a run without a baseline. */
  public static final RunFigures NONE = new RunFigures(Map.of(), Optional.empty());

  /**
   * A capacity search's answer.
   *
   * @param load the highest load that met every objective
   * @param rate whether it is a request rate ({@code -Dsearch=rate}) rather than a concurrency
   */
  public record Capacity(double load, boolean rate) {}

  public RunFigures {
    levels = Collections.unmodifiableMap(new LinkedHashMap<>(levels));
  }

  /**
   * The figures of each level of an analysis, with its goodput when there are objectives.
   *
   * @param goodput the goodput objectives ({@code -Dgate.goodput}), empty without
   */
  public static RunFigures of(RunAnalysis a, Optional<GoodputSpec> goodput) {
    Map<String, List<RequestRecord>> byLevel =
        a.records().stream()
            .filter(r -> r.level() != null)
            .collect(Collectors.groupingBy(RequestRecord::level));
    Map<String, LevelFigures> levels = new LinkedHashMap<>();
    a.levels()
        .forEach(
            (name, l) -> {
              List<RequestRecord> records = byLevel.getOrDefault(name, List.of());
              Optional<GoodputSpec.Count> good = goodput.map(g -> g.count(records));
              levels.put(name, LevelFigures.of(l, good));
            });
    return new RunFigures(levels, Optional.empty());
  }

  /** These figures with a capacity search's answer. */
  public RunFigures withCapacity(Optional<Capacity> answer) {
    return new RunFigures(levels, answer);
  }

  /** A level's figures ({@link LevelFigures#NONE} for a level it does not have). */
  public LevelFigures level(String name) {
    return levels.getOrDefault(name, LevelFigures.NONE);
  }

  /**
   * The figure a gate on {@code metric} measures where it is checked: the capacity at {@link
   * GateCheck#SEARCH_LEVEL}, any other at its level; NaN when the run does not have it.
   */
  public double figure(GateMetric metric, String where) {
    if (metric == GateMetric.CAPACITY && where.equals(GateCheck.SEARCH_LEVEL)) {
      return capacity.map(Capacity::load).orElse(Double.NaN);
    }
    return level(where).get(metric);
  }

  /** Each level's goodput, for the levels where it was measured. */
  public Map<String, LevelGoodput> goodput() {
    Map<String, LevelGoodput> out = new LinkedHashMap<>();
    levels.forEach((name, f) -> f.goodput().ifPresent(g -> out.put(name, g)));
    return out;
  }
}
