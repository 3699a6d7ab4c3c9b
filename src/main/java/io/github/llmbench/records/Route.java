package io.github.llmbench.records;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a request went when the run spreads them: the server of several ({@code -Dbase.url=U1,U2})
 * and the model of a mix ({@code -Dmodel=a,b}); each null when the run has one. Shared: a run has
 * few routes and many records.
 */
public record Route(String endpoint, String model) {

  private static final Map<Route, Route> SHARED = new ConcurrentHashMap<>();

  /** The one instance of this route, or null when neither is set. */
  public static Route of(String endpoint, String model) {
    if (endpoint == null && model == null) {
      return null;
    }
    Route r = new Route(endpoint, model);
    return SHARED.size() < 10_000 ? SHARED.computeIfAbsent(r, k -> k) : r;
  }

  /** The endpoint of a record's route, or null. */
  public static String endpointOf(Route r) {
    return r == null ? null : r.endpoint;
  }

  /** The model of a record's route, or null. */
  public static String modelOf(Route r) {
    return r == null ? null : r.model;
  }
}
