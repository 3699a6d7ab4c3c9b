package io.github.llmbench.analysis;

import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A ladder over images, at one load: each level's TTFT and input tokens against the images its
 * requests carried, and what one more costs, fitted as a line over the levels (mean TTFT and mean
 * input tokens against the count of a ladder over {@code -Dimages}, or against the megapixels a
 * request carries on a ladder over {@code -Dimage.size}). Pure.
 *
 * @param over what the ladder steps over
 * @param msPerStep the fitted mean TTFT added by one image, or by one megapixel a request
 * @param tokensPerStep the fitted mean input tokens (as the server counted them) added by the same
 */
public record ImageLadder(
    Over over, List<Point> points, double msPerStep, double tokensPerStep, String verdict) {

  public ImageLadder {
    points = List.copyOf(points);
  }

  /** What a ladder over images steps over. */
  public enum Over {
    /** the images per request ({@code -Dimages=0,1,2,4}) */
    COUNT,
    /** the images' size at one count ({@code -Dimage.size=256x256,1024x1024}) */
    SIZE
  }

  /** One level of the ladder. */
  public record Point(
      String level,
      ImageStep step,
      double meanTtftMs,
      double p99TtftMs,
      double meanInputTokens,
      double outputThroughput) {

    /** Its images per request. */
    public int images() {
      return step.count();
    }

    /** The megapixels each of its requests carries; 0 when the level names no size. */
    public double megapixels() {
      return step.count() * step.size().map(ImageStep.Size::pixels).orElse(0L) / 1e6;
    }

    /** What the ladder's fit puts it at: its count, or its megapixels. */
    double x(Over over) {
      return over == Over.COUNT ? images() : megapixels();
    }
  }

  /**
   * The ladder of the levels that step over images, in order of the count or the size; empty when
   * fewer than two levels do, or none of them completed a request.
   */
  public static Optional<ImageLadder> of(Collection<RunAnalysis.Level> levels) {
    List<Point> points = new ArrayList<>();
    for (RunAnalysis.Level l : levels) {
      Optional<ImageStep> step = Level.parse(l.name()).flatMap(Level::images);
      ServingMetrics s = l.serving();
      if (step.isEmpty() || s.completed() == 0) {
        continue;
      }
      points.add(
          new Point(
              l.name(),
              step.get(),
              s.ttft().mean(),
              s.ttft().p99(),
              s.totalInputTokens() / (double) s.completed(),
              s.outputThroughput()));
    }
    if (points.isEmpty()) {
      return Optional.empty();
    }
    Over over = points.get(0).step().size().isPresent() ? Over.SIZE : Over.COUNT;
    points.removeIf(p -> p.step().size().isPresent() != (over == Over.SIZE));
    if (points.size() < 2) {
      return Optional.empty();
    }
    points.sort(Comparator.comparingDouble((Point p) -> p.x(over)).thenComparing(Point::level));
    double[] x = points.stream().mapToDouble(p -> p.x(over)).toArray();
    LinearFit ttft = LinearFit.of(x, points.stream().mapToDouble(Point::meanTtftMs).toArray());
    LinearFit tokens =
        LinearFit.of(x, points.stream().mapToDouble(Point::meanInputTokens).toArray());
    return Optional.of(
        new ImageLadder(
            over, points, ttft.slope(), tokens.slope(), verdict(over, points, ttft, tokens)));
  }

  private static String verdict(Over over, List<Point> points, LinearFit ttft, LinearFit tokens) {
    Point first = points.get(0);
    Point last = points.get(points.size() - 1);
    if (over == Over.COUNT) {
      return String.format(
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
    }
    return String.format(
        Locale.ROOT,
        "Each megapixel of image a request adds %.1f ms to the mean TTFT and %.0f input tokens"
            + " (%d image%s a request, fitted over %d sizes); mean TTFT %.1f ms at %s, %.1f ms at"
            + " %s.",
        ttft.slope(),
        tokens.slope(),
        first.images(),
        first.images() == 1 ? "" : "s",
        points.size(),
        first.meanTtftMs(),
        first.step().size().orElseThrow(),
        last.meanTtftMs(),
        last.step().size().orElseThrow());
  }
}
