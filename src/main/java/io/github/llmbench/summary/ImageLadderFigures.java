package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ImageLadder;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A ladder over images ({@link ImageLadder}): each level's TTFT and input tokens against its images
 * per request or their size, and what one image (or one megapixel a request) adds, fitted over the
 * levels.
 *
 * @param over {@code count} (a ladder over {@code -Dimages}) or {@code size} (over {@code
 *     -Dimage.size})
 * @param msPerImage on a ladder over counts, the mean TTFT one image adds; else null
 * @param inputTokensPerImage on a ladder over counts, the input tokens one image adds; else null
 * @param msPerMegapixel on a ladder over sizes, the mean TTFT one megapixel a request adds
 * @param inputTokensPerMegapixel on a ladder over sizes, the input tokens one megapixel adds
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ImageLadderFigures(
    String over,
    List<Point> levels,
    Double msPerImage,
    Double inputTokensPerImage,
    Double msPerMegapixel,
    Double inputTokensPerMegapixel,
    String verdict) {

  /**
   * One level of the ladder.
   *
   * @param size its images' {@code WxH} on a ladder over sizes, else null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Point(
      String level,
      int images,
      String size,
      double meanTtftMs,
      double p99TtftMs,
      double meanInputTokens,
      double outputThroughput) {}

  /** The ladder's figures, or null for a run that is none. */
  public static ImageLadderFigures of(Optional<ImageLadder> ladder) {
    return ladder.map(ImageLadderFigures::of).orElse(null);
  }

  private static ImageLadderFigures of(ImageLadder l) {
    boolean count = l.over() == ImageLadder.Over.COUNT;
    return new ImageLadderFigures(
        l.over().name().toLowerCase(Locale.ROOT),
        l.points().stream()
            .map(
                p ->
                    new Point(
                        p.level(),
                        p.images(),
                        p.step().size().map(Object::toString).orElse(null),
                        p.meanTtftMs(),
                        p.p99TtftMs(),
                        p.meanInputTokens(),
                        p.outputThroughput()))
            .toList(),
        count ? l.msPerStep() : null,
        count ? l.tokensPerStep() : null,
        count ? null : l.msPerStep(),
        count ? null : l.tokensPerStep(),
        l.verdict());
  }
}
