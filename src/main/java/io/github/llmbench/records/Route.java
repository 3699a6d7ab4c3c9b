package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a request went when the run spreads them: the server of several ({@code -Dbase.url=U1,U2})
 * and the model of a mix ({@code -Dmodel=a,b}); each null when the run has one. Shared: a run has
 * few routes and many records. Written to {@code requests.jsonl} as {@code "endpoint"} and {@code
 * "model"}, each only when set.
 */
public record Route(String endpoint, String model) {

  private static final Map<Route, Route> SHARED = new ConcurrentHashMap<>();

  /** A record's route, in a run over several servers or models. */
  public static final RecordPart<Route> PART =
      new RecordPart<>("route", "endpoint", "model") {
        @Override
        void write(Route route, JsonOut out) throws IOException {
          if (route.endpoint() != null) {
            out.text("endpoint", route.endpoint());
          }
          if (route.model() != null) {
            out.text("model", route.model());
          }
        }

        @Override
        Reader<Route> reader() {
          return new Reader<>() {
            private String endpoint;
            private String model;

            @Override
            public void read(String name, JsonParser p, JsonToken t) throws IOException {
              if (name.equals("endpoint")) {
                endpoint = JsonIn.text(p, t, name);
              } else {
                model = JsonIn.text(p, t, name);
              }
            }

            @Override
            public Route value() {
              return Route.of(endpoint, model);
            }

            @Override
            public void reset() {
              endpoint = null;
              model = null;
            }
          };
        }
      };

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
