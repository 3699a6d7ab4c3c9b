package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A level's serving metrics per server and per model, when the run spread its requests over several
 * ({@code -Dbase.url=U1,U2}, {@code -Dmodel=a,b}): one replica slower than the others, or one
 * model's share of the load, shows here. Each in the order its first request went; empty when the
 * level's requests had one. Pure.
 */
public record Routes(Map<String, ServingMetrics> byEndpoint, Map<String, ServingMetrics> byModel) {

  public static final Routes NONE = new Routes(Map.of(), Map.of());

  public Routes {
    byEndpoint = Collections.unmodifiableMap(new LinkedHashMap<>(byEndpoint));
    byModel = Collections.unmodifiableMap(new LinkedHashMap<>(byModel));
  }

  public boolean isEmpty() {
    return byEndpoint.isEmpty() && byModel.isEmpty();
  }

  /** The level's records' routes. */
  public static Routes of(List<RequestRecord> records, ReportedPercentiles percentiles) {
    return new Routes(
        by(records, r -> Route.endpointOf(r.route()), percentiles),
        by(records, r -> Route.modelOf(r.route()), percentiles));
  }

  private static Map<String, ServingMetrics> by(
      List<RequestRecord> records,
      Function<RequestRecord, String> key,
      ReportedPercentiles percentiles) {
    Map<String, List<RequestRecord>> groups = new LinkedHashMap<>();
    for (RequestRecord r : records) {
      String k = key.apply(r);
      if (k != null) {
        groups.computeIfAbsent(k, x -> new ArrayList<>()).add(r);
      }
    }
    Map<String, ServingMetrics> out = new LinkedHashMap<>();
    groups.forEach(
        (k, recs) -> out.put(k, ServingMetricsCalculator.compute(recs, null, percentiles)));
    return out;
  }
}
