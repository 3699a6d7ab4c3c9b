package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.Assertion;
import io.gatling.shared.model.assertion.AssertionMessage;
import io.github.llmbench.core.Metric;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which gates become Gatling assertions, on which record, as Gatling itself words them. */
class GatlingAssertionsTest {
  private static final List<String> LEVELS = List.of("c8", "c16");

  /**
   * The default: Gatling's stats hold one record per stream, {@code request}, timed for its E2EL.
   */
  private static final Map<Metric, String> REQUEST_ONLY = Map.of(Metric.E2EL, "request");

  private static List<String> messages(
      Map<String, String> gates,
      Map<String, Map<String, Double>> baseline,
      Map<Metric, String> records) {
    Map<String, LevelFigures> levels = new HashMap<>();
    baseline.forEach(
        (level, figures) -> {
          Map<GateMetric, Double> typed = new HashMap<>();
          figures.forEach((key, value) -> typed.put(GateMetric.parse(key).orElseThrow(), value));
          levels.put(level, new LevelFigures(typed));
        });
    RunFigures baselineFigures = new RunFigures(levels, Optional.empty());
    List<Assertion> assertions =
        GatlingAssertions.of(
            GateSet.parse(gates, "-Dgate.").gates(), LEVELS, baselineFigures, "request", records);
    return assertions.stream().map(a -> AssertionMessage.message(a.asScala())).sorted().toList();
  }

  @Test
  void anE2elGateIsAGatlingAssertionOnTheRequestRecordAndATtftGateIsLeftToTheKit() {
    assertEquals(
        List.of(
            "c16 / request: 99th percentile of response time is less than or equal to 1500.0",
            "c8 / request: 99th percentile of response time is less than or equal to 1500.0"),
        messages(
            Map.of("e2el.p99", "1500.9", "ttft.p99", "200", "tpot.mean", "40", "itl.p90", "30"),
            Map.of(),
            REQUEST_ONLY));
  }

  @Test
  void failuresAreCountedOnTheRequestRecordOfEachLevel() {
    assertEquals(
        List.of(
            "c16 / request: percentage of failed events is less than or equal to 1.0",
            "c8 / request: mean of response time is less than or equal to 900.0",
            "c8 / request: percentage of failed events is less than or equal to 1.0"),
        messages(Map.of("failed.pct", "1", "c8.e2el.mean", "900"), Map.of(), REQUEST_ONLY));
  }

  @Test
  void latencyRecordsAskedForGetTheirAssertions() {
    Map<Metric, String> all = new EnumMap<>(Metric.class);
    for (Metric m : Metric.values()) {
      all.put(m, m == Metric.E2EL ? "request" : m.name());
    }
    assertEquals(
        List.of(
            "c8 / ITL: 90th percentile of response time is less than or equal to 30.0",
            "c8 / TPOT: mean of response time is less than or equal to 40.0",
            "c8 / TTFT: 50th percentile of response time is less than or equal to 200.0"),
        messages(
            Map.of("c8.ttft.median", "200", "c8.tpot.mean", "40", "c8.itl.p90", "30"),
            Map.of(),
            all));
  }

  @Test
  void throughputGatesAndRelativeLimitsWithoutABaselineFigureAreLeftToTheKit() {
    Map<String, Map<String, Double>> baseline = Map.of("c8", Map.of("e2el.p90", 1000.0));
    assertEquals(
        List.of("c8 / request: 90th percentile of response time is less than or equal to 1100.0"),
        messages(
            Map.of(
                "e2el.p90",
                "+10%",
                "output_throughput.min",
                "100",
                "goodput.pct",
                "90",
                "goodput",
                "ttft:500"),
            baseline,
            REQUEST_ONLY));
  }
}
