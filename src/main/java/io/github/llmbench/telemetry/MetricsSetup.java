package io.github.llmbench.telemetry;

import io.github.llmbench.core.Level;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.servers.ServerProfiles;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a run scrapes: the server's {@code /metrics} when it answers with metrics the kit maps, else
 * the first other path a known server serves them at ({@link ServerProfiles#metricsPaths}:
 * trtllm-serve's {@code /prometheus/metrics}) that does (asked once, before the load), and the
 * other endpoints given; with the start line that says so.
 *
 * @param scraper the scraper, or null when there is nothing to scrape
 * @param note the start line: what is scraped, how often, to which file
 */
public record MetricsSetup(MetricsScraper scraper, String note) {

  /**
   * @param serverUrls the server's base URL, or several sent to in turn ({@code -Dbase.url=U1,U2}):
   *     each one's metrics are asked at the path the first answers on, with its headers and API
   *     key, every round's scrapes at one time so that the replicas' counters add up
   * @param others further endpoints ({@code -Dmetrics.urls}): other services, sent no key, no
   *     headers
   * @param intervalSeconds how often to scrape; 0 for never
   * @param folder the run's {@code llm/} folder once it is known, else null
   */
  public static MetricsSetup of(
      List<URI> serverUrls,
      Map<String, String> headers,
      Optional<String> apiKey,
      List<URI> others,
      double intervalSeconds,
      Supplier<Path> folder,
      PrintStream out) {
    if (intervalSeconds <= 0) {
      return new MetricsSetup(null, "off (-Dmetrics.interval=0)");
    }
    URI serverUrl = serverUrls.get(0);
    Map<String, String> own = new LinkedHashMap<>(headers);
    apiKey.ifPresent(k -> own.put("Authorization", "Bearer " + k));
    // the first path a known server serves its Prometheus text at that answers with it
    // (trtllm-serve answers /metrics with JSON iteration stats; its Prometheus text is elsewhere)
    List<String> paths = ServerProfiles.metricsPaths();
    MetricsScraper.Endpoint server =
        new MetricsScraper.Endpoint(URI.create(serverUrl + paths.get(0)), own);
    Optional<String> problem = MetricsScraper.problem(server);
    for (String path : paths.subList(1, paths.size())) {
      if (problem.isEmpty()) {
        break;
      }
      MetricsScraper.Endpoint other =
          new MetricsScraper.Endpoint(URI.create(serverUrl + path), own);
      if (MetricsScraper.problem(other).isEmpty()) {
        server = other;
        problem = Optional.empty();
      }
    }
    List<MetricsScraper.Endpoint> endpoints = new ArrayList<>();
    List<String> said = new ArrayList<>();
    if (problem.isEmpty()) {
      endpoints.add(server);
      said.add("GET " + server.uri());
      String path = server.uri().getPath();
      for (URI replica : serverUrls.subList(1, serverUrls.size())) {
        MetricsScraper.Endpoint e = new MetricsScraper.Endpoint(URI.create(replica + path), own);
        endpoints.add(e);
        said.add("GET " + e.uri());
      }
    } else {
      said.add("none from the server (GET " + server.uri() + ": " + problem.get() + ")");
    }
    for (URI u : others) {
      endpoints.add(new MetricsScraper.Endpoint(u, Map.of()));
      said.add("GET " + u);
    }
    String note =
        String.join(" + ", said)
            + (endpoints.isEmpty()
                ? ""
                : String.format(
                    Locale.ROOT,
                    ", every %s s, to %s/%s",
                    Level.plainNumber(intervalSeconds),
                    RunFiles.LLM_FOLDER,
                    RunFiles.SERVER_METRICS));
    return new MetricsSetup(
        endpoints.isEmpty()
            ? null
            : new MetricsScraper(
                endpoints, Duration.ofMillis(Math.round(intervalSeconds * 1000)), folder, out),
        note);
  }
}
