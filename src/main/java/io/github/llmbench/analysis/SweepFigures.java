package io.github.llmbench.analysis;

import io.github.llmbench.core.SloFigure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a sweep found: each combination's levels as points of throughput against interactivity,
 * their Pareto frontier, and the best one under the objectives (the highest output throughput among
 * the levels meeting every objective of {@code -Dslo}; without objectives, the highest). Pure.
 *
 * @param candidates every measured level of every combination, in the sweep's order
 * @param frontier their frontier ({@link ParetoFrontier}), of output throughput per GPU
 * @param slo the objectives, empty for none
 * @param best the best candidate, empty when none meets the objectives
 */
public record SweepFigures(
    List<Candidate> candidates,
    ParetoFrontier frontier,
    Map<SloFigure, Double> slo,
    Optional<Candidate> best) {

  /**
   * One level of one combination.
   *
   * @param combination the combination's name, e.g. {@code max_num_seqs=64,input.len=128}
   * @param level the level's tag, e.g. {@code c16}
   * @param outputThroughput output tokens per second over the level (steady window when it has one)
   * @param meanTpotMs the level's mean TPOT, NaN without one
   * @param figures the figures an objective may bound (NaN where the level has none)
   * @param gpus the GPUs its server ran on: its throughput per GPU is divided by them
   */
  public record Candidate(
      String combination,
      String level,
      double outputThroughput,
      double meanTpotMs,
      Map<SloFigure, Double> figures,
      int gpus) {
    public Candidate {
      figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** {@code combination level}, as the chart and the table name it. */
    public String name() {
      return combination.isEmpty() ? level : combination + " " + level;
    }

    /** Whether every objective holds (a figure the level lacks does not). */
    public boolean meets(Map<SloFigure, Double> slo) {
      for (Map.Entry<SloFigure, Double> o : slo.entrySet()) {
        Double v = figures.get(o.getKey());
        if (v == null || !(v <= o.getValue())) {
          return false;
        }
      }
      return true;
    }
  }

  public SweepFigures {
    candidates = List.copyOf(candidates);
    slo = Collections.unmodifiableMap(new LinkedHashMap<>(slo));
  }

  /** The figures of {@code candidates}. */
  public static SweepFigures of(List<Candidate> candidates, Map<SloFigure, Double> slo) {
    List<ParetoFrontier.Point> points = new ArrayList<>();
    for (Candidate c : candidates) {
      points.add(
          new ParetoFrontier.Point(
              c.name(),
              c.outputThroughput() / Math.max(1, c.gpus()),
              ParetoFrontier.interactivity(c.meanTpotMs())));
    }
    Optional<Candidate> best =
        candidates.stream()
            .filter(c -> c.meets(slo) && Double.isFinite(c.outputThroughput()))
            .max(Comparator.comparingDouble(Candidate::outputThroughput));
    return new SweepFigures(candidates, ParetoFrontier.of(points), slo, best);
  }

  /** The point drawn for the {@code i}-th candidate. */
  public ParetoFrontier.Point point(int i) {
    return frontier.points().get(i);
  }

  /** Whether the {@code i}-th candidate is on the frontier. */
  public boolean onFrontier(int i) {
    return frontier.onFrontier(point(i));
  }
}
