package io.github.llmbench.analysis;

import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The latency percentiles a run reports ({@code -Dpercentiles}, vLLM's {@code
 * --metric-percentiles}) and those it computes besides: the ones its gates and objectives name
 * (they are judged whether printed or not); every {@link LatencyStats} also holds P90 and P99,
 * which the kit's own figures read.
 *
 * @param shown the percentiles the result blocks print, in order
 * @param computed every percentile to compute: {@code shown} first, then the others needed
 * @param asked whether {@code shown} was asked for; when not, each block keeps its own rows
 */
public record ReportedPercentiles(List<Double> shown, List<Double> computed, boolean asked) {

  /** No {@code -Dpercentiles} and nothing else needed: vLLM's seed rows, P99 then P90. */
  public static final ReportedPercentiles DEFAULT = of(Optional.empty(), List.of());

  public ReportedPercentiles {
    shown = List.copyOf(shown);
    computed = List.copyOf(computed);
  }

  /**
   * The percentiles asked for (else {@link LatencyStats#DEFAULT_PERCENTILES}), and those {@code
   * needed} besides.
   */
  public static ReportedPercentiles of(Optional<List<Double>> asked, Collection<Double> needed) {
    List<Double> shown = asked.orElse(LatencyStats.DEFAULT_PERCENTILES);
    LinkedHashSet<Double> all = new LinkedHashSet<>(shown);
    all.addAll(needed);
    return new ReportedPercentiles(shown, new ArrayList<>(all), asked.isPresent());
  }

  /**
   * A block's latency rows: the mean, the median, then each shown percentile, as vLLM's block; the
   * block's {@code own} rows when none were asked for (so its output stays as it was).
   */
  public List<Statistic> rows(List<Statistic> own) {
    if (!asked) {
      return own;
    }
    List<Statistic> rows = new ArrayList<>(List.of(Statistic.MEAN, Statistic.MEDIAN));
    shown.forEach(p -> rows.add(Statistic.percentile(p)));
    return List.copyOf(rows);
  }
}
