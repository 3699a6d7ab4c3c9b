package io.github.llmbench.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The Pareto frontier of a sweep's points, as {@code vllm bench sweep plot_pareto} and
 * InferenceMAX-style charts draw it: output throughput (per GPU) against interactivity (output
 * tokens per second per user, 1000 / mean TPOT in ms). A point is on the frontier when no other
 * point is at least as good on both and better on one; a point missing either figure is drawn
 * nowhere and on no frontier. Pure.
 *
 * @param points every point, in the order given
 * @param frontier the points on the frontier, by interactivity, lowest first (so throughput falls
 *     along it)
 */
public record ParetoFrontier(List<Point> points, List<Point> frontier) {

  /**
   * One setting's figures.
   *
   * @param name the setting, e.g. {@code max_num_seqs=64}
   * @param throughput output tokens per second (per GPU when the sweep knows the GPUs)
   * @param interactivity output tokens per second per user
   */
  public record Point(String name, double throughput, double interactivity) {

    /** Whether it has both figures. */
    public boolean measured() {
      return Double.isFinite(throughput) && Double.isFinite(interactivity);
    }

    /** Whether it is at least as good as {@code o} on both figures and better on one. */
    boolean dominates(Point o) {
      return throughput >= o.throughput
          && interactivity >= o.interactivity
          && (throughput > o.throughput || interactivity > o.interactivity);
    }
  }

  public ParetoFrontier {
    points = List.copyOf(points);
    frontier = List.copyOf(frontier);
  }

  /** The frontier of {@code points}. */
  public static ParetoFrontier of(List<Point> points) {
    List<Point> frontier = new ArrayList<>();
    for (Point p : points) {
      if (p.measured() && points.stream().noneMatch(o -> o.measured() && o.dominates(p))) {
        frontier.add(p);
      }
    }
    frontier.sort(
        Comparator.comparingDouble(Point::interactivity)
            .thenComparing(Comparator.comparingDouble(Point::throughput).reversed()));
    return new ParetoFrontier(points, frontier);
  }

  /** Interactivity from a mean TPOT in ms: tokens per second per user; NaN without a TPOT. */
  public static double interactivity(double meanTpotMs) {
    return meanTpotMs > 0 && Double.isFinite(meanTpotMs) ? 1000.0 / meanTpotMs : Double.NaN;
  }

  /** Whether {@code p} is on the frontier. */
  public boolean onFrontier(Point p) {
    return frontier.contains(p);
  }
}
