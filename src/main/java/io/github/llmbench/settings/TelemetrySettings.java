package io.github.llmbench.settings;

import io.github.llmbench.settings.SettingsTable.Setting;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * The telemetry group of settings: scraping of Prometheus endpoints during the run.
 *
 * @param intervalSeconds seconds between scrapes; 0 turns scraping off
 * @param urls endpoints to scrape besides the server's own {@code /metrics} (e.g. a DCGM exporter)
 */
public record TelemetrySettings(double intervalSeconds, List<URI> urls) {

  private static final String HEADING = SettingsTable.SCALE;
  private static final Parser<String> TEXT = Parser.text();

  public static final Setting<Double> METRICS_INTERVAL =
      Setting.of(
          HEADING,
          "metrics.interval",
          1.0,
          "a number of seconds from 0 (0: off)",
          "scrape the server's /metrics (and metrics.urls) this often",
          Parser.nonNegativeSeconds());
  public static final Setting<String> METRICS_URLS =
      Setting.without(
          HEADING,
          "metrics.urls",
          "none",
          "http:// URLs separated by commas",
          "more Prometheus endpoints, e.g. a DCGM exporter",
          TEXT);

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS = List.of(METRICS_INTERVAL, METRICS_URLS);

  public TelemetrySettings {
    urls = List.copyOf(urls);
  }

  public boolean on() {
    return intervalSeconds > 0;
  }

  /** Reads the group's settings and refuses a bad value, or a bad pair within the group. */
  static TelemetrySettings read(SettingReader r) {
    double interval = r.get(METRICS_INTERVAL);
    List<URI> urls = new ArrayList<>();
    for (String raw : r.optional(METRICS_URLS).map(v -> v.split(",")).orElse(new String[0])) {
      String u = raw.trim();
      if (u.isEmpty()) {
        continue;
      }
      try {
        URI uri = new URI(u);
        if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()))
            || uri.getHost() == null) {
          throw new URISyntaxException(u, "not http");
        }
        urls.add(uri);
      } catch (URISyntaxException e) {
        throw SettingsException.invalid(
            "metrics.urls",
            r.optional(METRICS_URLS).get(),
            "http:// URLs separated by commas, e.g. http://127.0.0.1:9400/metrics");
      }
    }
    if (interval == 0 && !urls.isEmpty()) {
      throw new SettingsException(
          "-Dmetrics.urls needs scraping on: -Dmetrics.interval=0 turns it off");
    }
    return new TelemetrySettings(interval, urls);
  }
}
