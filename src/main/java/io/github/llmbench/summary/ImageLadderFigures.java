package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ImageLadder;
import java.util.List;
import java.util.Optional;

/**
 * A ladder over {@code -Dimages} ({@link ImageLadder}): each level's TTFT and input tokens against
 * its images per request, and what one image adds, fitted over the levels.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ImageLadderFigures(
    List<Point> levels, double msPerImage, double inputTokensPerImage, String verdict) {

  /** One level of the ladder. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Point(
      String level,
      int images,
      double meanTtftMs,
      double p99TtftMs,
      double meanInputTokens,
      double outputThroughput) {}

  /** The ladder's figures, or null for a run that is none. */
  public static ImageLadderFigures of(Optional<ImageLadder> ladder) {
    return ladder
        .map(
            l ->
                new ImageLadderFigures(
                    l.points().stream()
                        .map(
                            p ->
                                new Point(
                                    p.level(),
                                    p.images(),
                                    p.meanTtftMs(),
                                    p.p99TtftMs(),
                                    p.meanInputTokens(),
                                    p.outputThroughput()))
                        .toList(),
                    l.msPerImage(),
                    l.tokensPerImage(),
                    l.verdict()))
        .orElse(null);
  }
}
