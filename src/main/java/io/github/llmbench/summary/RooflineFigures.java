package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.RunAnalysis;

/**
 * A level's roofline ({@link Roofline}): the model, GPU and tp it used, the roofs, the decode and
 * whole-workload points; or, when it could not be drawn, only why ({@code skipped}).
 *
 * @param skipped why there is no roofline (a model or GPU unknown), null when there is one
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RooflineFigures(
    String skipped,
    String model,
    String modelName,
    String gpu,
    Integer tp,
    Double peakFlops,
    Double bandwidthBytesPerS,
    Double ridgeFlopPerByte,
    Double meanBatch,
    Double meanContextTokens,
    Double meanPromptTokens,
    Double flopsPerToken,
    Double prefillFlopsPerToken,
    Double stepBytes,
    Double stepReadMs,
    Double outputTokensPerS,
    Double prefillTokensPerS,
    Point decode,
    Point wholeWorkload,
    String note,
    Double prefixCacheShare) {

  /** One point on the roofline: operational intensity, attained and roof FLOP/s, the roof. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Point(
      double operationalIntensity,
      double attainedFlops,
      double roofFlops,
      double attainment,
      String roof) {

    static Point of(Roofline.Point p) {
      return new Point(
          p.oi(),
          p.attainedFlops(),
          p.roofFlops(),
          p.attainment(),
          p.computeBound() ? "compute" : "bandwidth");
    }
  }

  public static RooflineFigures of(RunAnalysis.Level l, RunAnalysis a) {
    Roofline r = l.roofline();
    if (r == null) {
      return new RooflineFigures(
          l.rooflineNote(),
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null);
    }
    return new RooflineFigures(
        null,
        a.model().id(),
        a.model().hfId(),
        a.gpu().id(),
        a.tp(),
        r.peakFlops(),
        r.bandwidth(),
        r.ridge(),
        r.meanBatch(),
        r.meanContext(),
        r.meanPrompt(),
        r.flopsPerToken(),
        r.prefillFlopsPerToken(),
        r.stepBytes(),
        r.stepReadS() * 1e3,
        r.outputTps(),
        r.prefillTps(),
        Point.of(r.decode()),
        Point.of(r.whole()),
        r.prefixCacheNote(),
        r.cachedShare());
  }
}
