package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.DeliveredLoad;
import io.github.llmbench.core.Statistic;
import java.util.Locale;

/**
 * The load delivered against the asked one.
 *
 * @param model {@code closed} (requests in flight against C) or {@code open} (requests/s against
 *     the arrival schedule's)
 * @param slotIdleMedianMs closed: the median of the requests' slot idle times (a user's previous
 *     request's end to this one's send) over the steady window, where the records have them
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeliveredFigures(
    String model,
    double asked,
    Double delivered,
    Double deliveredPct,
    Double userWaitMs,
    Double sendLatenessMedianMs,
    Double sendLatenessP99Ms,
    Double e2elWithWaitMeanMs,
    Double e2elWithWaitP99Ms,
    Double clientQueueMedianMs,
    Double clientQueueP99Ms,
    Double slotIdleMedianMs,
    Double slotIdleP99Ms,
    String guard) {

  static DeliveredFigures of(DeliveredLoad d, String level) {
    if (d.kind() == DeliveredLoad.Kind.NONE) {
      return null;
    }
    boolean open = d.kind() == DeliveredLoad.Kind.OPEN;
    return new DeliveredFigures(
        d.kind().name().toLowerCase(Locale.ROOT),
        d.asked(),
        LevelSummary.finite(d.delivered()),
        LevelSummary.finite(d.pct()),
        LevelSummary.finite(d.userWaitMs()),
        open ? LevelSummary.finite(d.sendLateness().median()) : null,
        open ? LevelSummary.finite(d.sendLateness().value(Statistic.P99)) : null,
        open && d.e2elWithWait().count() > 0 ? LevelSummary.finite(d.e2elWithWait().mean()) : null,
        open && d.e2elWithWait().count() > 0
            ? LevelSummary.finite(d.e2elWithWait().value(Statistic.P99))
            : null,
        d.clientQueue().count() > 0 ? LevelSummary.finite(d.clientQueue().median()) : null,
        d.clientQueue().count() > 0
            ? LevelSummary.finite(d.clientQueue().value(Statistic.P99))
            : null,
        d.slotIdle().count() > 0 ? LevelSummary.finite(d.slotIdle().median()) : null,
        d.slotIdle().count() > 0 ? LevelSummary.finite(d.slotIdle().value(Statistic.P99)) : null,
        d.guard(level));
  }
}
