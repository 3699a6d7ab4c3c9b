package io.github.llmbench.gates;

import static io.gatling.javaapi.core.CoreDsl.details;

import io.gatling.javaapi.core.Assertion;
import java.util.ArrayList;
import java.util.List;

/**
 * The gates Gatling can check itself, as Gatling assertions on the kit's records in each level's
 * group, so Gatling's report and exit status show them too: {@code failed.pct} on the request
 * record ({@code details("c128", "request").failedRequests().percent().lte(1)}). Latency gates are
 * the kit's alone ({@link GateCheck}): it judges their intervals (PASS, FAIL or INCONCLUSIVE), and
 * a Gatling assertion on the value would fail a run the interval passed.
 */
public final class GatlingAssertions {
  private GatlingAssertions() {}

  /**
   * @param gates the run's gates
   * @param levels the measured levels' tags, which a gate of every level applies to
   * @param baselineFigures the baseline's figures by level, for relative limits (empty without one)
   * @param requestRecord the name of the stream's own record in each level's group
   */
  public static List<Assertion> of(
      List<Gate> gates, List<String> levels, RunFigures baselineFigures, String requestRecord) {
    List<Assertion> out = new ArrayList<>();
    for (Gate g : gates) {
      if (g.metric() != GateMetric.FAILED_PCT) {
        continue;
      }
      for (String level : g.level() == null ? levels : List.of(g.level().tag())) {
        double limit = g.limitAt(baselineFigures.figure(g.metric(), level));
        if (Double.isNaN(limit)) {
          continue; // the baseline lacks the figure: the kit's check reports it
        }
        // on the request record, one per stream, so the share is of the level's streams
        out.add(details(level, requestRecord).failedRequests().percent().lte(limit));
      }
    }
    return out;
  }
}
