package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * A capacity search's answer ({@code -Dsearch}): what it searched, the highest load that met every
 * objective, each probe, and the throughput and goodput at the answer.
 *
 * @param search {@code conc} or {@code rate}
 * @param capacity the answer, null when no load met the objectives
 * @param objectives each objective's limit by its key ({@code ttft.p99})
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CapacityFigures(
    String search,
    String status,
    Double capacity,
    Double lowestBroken,
    String answer,
    Map<String, Double> objectives,
    double precision,
    List<Probe> probes,
    Double requestThroughputAtCapacity,
    Double outputThroughputAtCapacity,
    Double requestGoodputAtCapacity,
    Double goodputPctAtCapacity,
    String goodputObjectives,
    String goodputObjectivesFrom)
    implements ModeFigures {

  /** The value of {@link #search} of a search over request rates. */
  public static final String RATE = "rate";

  /** The value of {@link #search} of a search over concurrencies. */
  public static final String CONC = "conc";

  /** One probe: its level, whether it met the objectives, which broke, its figures. */
  public record Probe(
      String level,
      double load,
      boolean met,
      int requests,
      List<String> broken,
      Map<String, Double> figures) {}

  /** Whether the search was over request rates (else concurrencies). */
  public boolean overRates() {
    return RATE.equals(search);
  }
}
