package io.github.llmbench.gates;

import static io.gatling.javaapi.core.CoreDsl.details;

import io.gatling.javaapi.core.Assertion;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The gates Gatling can check itself, as Gatling assertions on the kit's records in each level's
 * group, so Gatling's report and exit status show them too: {@code failed.pct} on the request
 * record ({@code details("c128", "request").failedRequests().percent().lte(1)}), and a latency gate
 * on the record of that latency, where Gatling's stats have one ({@code e2el.p99}: the request
 * record's response time). Every other gate (TTFT without its records, throughput, goodput, server
 * figures) is checked by the kit alone ({@link GateCheck}), which fails the run as well. Gatling
 * counts whole milliseconds: a latency limit is rounded down.
 */
public final class GatlingAssertions {
  private GatlingAssertions() {}

  /**
   * @param gates the run's gates
   * @param levels the measured levels' tags, which a gate of every level applies to
   * @param baselineFigures the baseline's figures by level, for relative limits (empty without one)
   * @param requestRecord the name of the stream's own record in each level's group
   * @param latencyRecords the name of each latency's record in each level's group, for the
   *     latencies Gatling's stats hold
   */
  public static List<Assertion> of(
      List<Gate> gates,
      List<String> levels,
      RunFigures baselineFigures,
      String requestRecord,
      Map<Metric, String> latencyRecords) {
    List<Assertion> out = new ArrayList<>();
    for (Gate g : gates) {
      for (String level : g.level() == null ? levels : List.of(g.level().tag())) {
        double limit = g.limitAt(baselineFigures.figure(g.metric(), level));
        if (Double.isNaN(limit)) {
          continue; // the baseline lacks the figure: the kit's check reports it
        }
        assertion(g.metric(), level, limit, requestRecord, latencyRecords).ifPresent(out::add);
      }
    }
    return out;
  }

  private static Optional<Assertion> assertion(
      GateMetric metric,
      String level,
      double limit,
      String requestRecord,
      Map<Metric, String> latencyRecords) {
    if (metric == GateMetric.FAILED_PCT) {
      // on the request record, one per stream, so the share is of the level's streams
      return Optional.of(details(level, requestRecord).failedRequests().percent().lte(limit));
    }
    if (!(metric instanceof GateMetric.Latency latency)
        || !latencyRecords.containsKey(latency.figure().metric())) {
      return Optional.empty();
    }
    LatencyFigure figure = latency.figure();
    var time = details(level, latencyRecords.get(figure.metric())).responseTime();
    int ms = (int) Math.floor(limit);
    Statistic stat = figure.statistic();
    return Optional.of(
        stat == Statistic.MEAN ? time.mean().lte(ms) : time.percentile(stat.percentile()).lte(ms));
  }
}
