package io.github.llmbench.summary;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.Interval;
import java.util.Locale;

/**
 * A figure's interval.
 *
 * @param ciLow null when open (too few requests for a P99's lower rank)
 * @param ciHigh null when open (a P99 needs 368 requests for an upper bound at 95%)
 * @param basis {@code trials} or {@code within_run}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record FigureInterval(
    double estimate, Double ciLow, Double ciHigh, double confidence, String basis) {

  static FigureInterval of(Interval i) {
    return new FigureInterval(
        i.estimate(),
        Double.isFinite(i.low()) ? i.low() : null,
        Double.isFinite(i.high()) ? i.high() : null,
        i.confidence(),
        i.basis().name().toLowerCase(Locale.ROOT));
  }

  /** The interval again. */
  public Interval interval() {
    return new Interval(
        estimate,
        ciLow == null ? Double.NEGATIVE_INFINITY : ciLow,
        ciHigh == null ? Double.POSITIVE_INFINITY : ciHigh,
        confidence,
        Interval.Basis.valueOf(basis.toUpperCase(Locale.ROOT)));
  }
}
