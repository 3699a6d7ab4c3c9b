package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.Assertion;
import io.gatling.shared.model.assertion.AssertionMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which gates become Gatling assertions, on which record, as Gatling itself words them. */
class GatlingAssertionsTest {
  private static final List<String> LEVELS = List.of("c8", "c16");

  private static List<String> messages(
      Map<String, String> gates, Map<String, Map<String, Double>> baseline) {
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
            GateSet.parse(gates, "-Dgate.").gates(), LEVELS, baselineFigures, "request");
    return assertions.stream().map(a -> AssertionMessage.message(a.asScala())).sorted().toList();
  }

  @Test
  void failuresAreCountedOnTheRequestRecordOfEachLevel() {
    assertEquals(
        List.of(
            "c16 / request: percentage of failed events is less than or equal to 1.0",
            "c8 / request: percentage of failed events is less than or equal to 1.0",
            "c8 / request: percentage of failed events is less than or equal to 5.0"),
        messages(Map.of("failed.pct", "1", "c8.failed.pct", "5"), Map.of()));
  }

  @Test
  void latencyThroughputAndGoodputGatesAreTheKitsAlone() {
    assertEquals(
        List.of(),
        messages(
            Map.of(
                "e2el.p99",
                "1500",
                "ttft.p99",
                "200",
                "tpot.mean",
                "40",
                "itl.p90",
                "30",
                "output_throughput.min",
                "100",
                "goodput.pct",
                "90",
                "goodput",
                "ttft:500"),
            Map.of()));
  }

  @Test
  void aRelativeFailureGateNeedsTheBaselinesFigure() {
    assertEquals(
        List.of("c8 / request: percentage of failed events is less than or equal to 11.0"),
        messages(Map.of("failed.pct", "+10%"), Map.of("c8", Map.of("failed.pct", 10.0))));
  }
}
