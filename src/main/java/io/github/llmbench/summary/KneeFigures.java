package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.Knee;
import java.util.List;

/**
 * The ladder's verdicts ({@link Knee}): the points it was read from, the hinge fit, and the knee,
 * highest-power, saturation and over-saturation levels with their sentences.
 *
 * @param throughputBasis which throughput the points use (steady or whole-level)
 * @param fit the two-line fit, null when the ladder is too short for one
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record KneeFigures(
    String throughputBasis,
    List<Point> levels,
    Fit fit,
    String kneeLevel,
    String kneeVerdict,
    String powerLevel,
    String powerVerdict,
    String saturationLevel,
    String saturationVerdict,
    boolean overSaturated,
    List<String> overSaturatedLevels,
    String overSaturationVerdict) {

  /** One level of the ladder. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Point(
      String level,
      int concurrency,
      double outputThroughput,
      double meanTpotMs,
      double p99TtftMs,
      double meanE2elMs,
      double power,
      boolean ttftGrowing) {}

  /** The two-line (hinge) fit of throughput against concurrency. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Fit(
      double breakConcurrency,
      double preSlope,
      double tailSlope,
      double slopeRatio,
      double fitImprovement) {}

  public static KneeFigures of(Knee.Result k) {
    List<Point> points =
        k.points().stream()
            .map(
                p ->
                    new Point(
                        p.level(),
                        p.concurrency(),
                        p.outputThroughput(),
                        p.meanTpotMs(),
                        p.p99TtftMs(),
                        p.meanE2elMs(),
                        p.power(),
                        p.ttftTrend() != null && p.ttftTrend().growing()))
            .toList();
    Knee.Fit f = k.fit();
    return new KneeFigures(
        k.basis(),
        points,
        f == null
            ? null
            : new Fit(
                f.breakConcurrency(),
                f.preSlope(),
                f.tailSlope(),
                f.slopeRatio(),
                f.fitImprovement()),
        k.kneeLevel(),
        k.kneeVerdict(),
        k.powerLevel(),
        k.powerVerdict(),
        k.saturationLevel(),
        k.saturationVerdict(),
        k.overSaturated(),
        k.overSaturatedLevels(),
        k.overSaturationVerdict());
  }
}
