package io.github.llmbench.analysis;

import io.github.llmbench.core.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A ladder over {@code -Dimages}: each level's TTFT and input tokens against the images its
 * requests carried, and what one more image costs, fitted as a line over the levels (mean TTFT and
 * mean input tokens against the count). Pure.
 *
 * @param msPerImage the fitted mean TTFT added by one image, in ms
 * @param tokensPerImage the fitted mean input tokens (as the server counted them) added by one
 */
public record ImageLadder(
    List<Point> points, double msPerImage, double tokensPerImage, String verdict) {

  public ImageLadder {
    points = List.copyOf(points);
  }

  /** One level of the ladder. */
  public record Point(
      String level,
      int images,
      double meanTtftMs,
      double p99TtftMs,
      double meanInputTokens,
      double outputThroughput) {}

  /**
   * The ladder of the levels that step over images, in image order; empty when fewer than two
   * levels do, or none of them completed a request.
   */
  public static Optional<ImageLadder> of(Collection<RunAnalysis.Level> levels) {
    List<Point> points = new ArrayList<>();
    for (RunAnalysis.Level l : levels) {
      Optional<Level> level = Level.parse(l.name());
      ServingMetrics s = l.serving();
      if (level.isEmpty() || level.get().images().isEmpty() || s.completed() == 0) {
        continue;
      }
      points.add(
          new Point(
              l.name(),
              level.get().images().getAsInt(),
              s.ttft().mean(),
              s.ttft().p99(),
              s.totalInputTokens() / (double) s.completed(),
              s.outputThroughput()));
    }
    if (points.size() < 2) {
      return Optional.empty();
    }
    points.sort(Comparator.comparingInt(Point::images).thenComparing(Point::level));
    double[] x = points.stream().mapToDouble(Point::images).toArray();
    LinearFit ttft = LinearFit.of(x, points.stream().mapToDouble(Point::meanTtftMs).toArray());
    LinearFit tokens =
        LinearFit.of(x, points.stream().mapToDouble(Point::meanInputTokens).toArray());
    Point first = points.get(0);
    Point last = points.get(points.size() - 1);
    String verdict =
        String.format(
            Locale.ROOT,
            "Each image adds %.1f ms to the mean TTFT and %.0f input tokens (fitted over %d"
                + " levels); mean TTFT %.1f ms at %d image%s, %.1f ms at %d.",
            ttft.slope(),
            tokens.slope(),
            points.size(),
            first.meanTtftMs(),
            first.images(),
            first.images() == 1 ? "" : "s",
            last.meanTtftMs(),
            last.images());
    return Optional.of(new ImageLadder(points, ttft.slope(), tokens.slope(), verdict));
  }
}
