package io.github.llmbench.run;

import io.github.llmbench.injection.ServerControl;
import io.github.llmbench.injection.Target;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.telemetry.MetricsScraper;
import io.github.llmbench.telemetry.MetricsSetup;
import io.github.llmbench.workload.PreparedWorkload;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What was found about the server before the load: the workload's notes (the tokenizer, the chat
 * template) and the metrics to scrape (the server's {@code /metrics} is asked once, here). Printed
 * at the start; for summary.json's {@code server_checks} with the preparation's notes and the kit's
 * calls between levels ({@link ServerControl#notes}), which exist only once they have run.
 */
final class ServerChecks implements Supplier<Map<String, String>> {
  private final PreparedWorkload workload;
  private final ServerControl control;
  private final MetricsScraper scraper;
  private final Map<String, String> startNotes;

  private ServerChecks(PreparedWorkload workload, ServerControl control, MetricsSetup metrics) {
    this.workload = workload;
    this.control = control;
    this.scraper = metrics.scraper();
    Map<String, String> notes = new LinkedHashMap<>(workload.startNotes());
    notes.put("metrics", metrics.note());
    this.startNotes = Collections.unmodifiableMap(notes);
  }

  /**
   * @param otherServers the servers scraped besides the run's, as its mode says (an A/B run's B, so
   *     that each side's server answers the same scrapes)
   * @param folder the run's {@code llm/} folder once it is known, for the scraped metrics
   */
  static ServerChecks of(
      BenchSettings settings,
      Target target,
      List<URI> otherServers,
      PreparedWorkload workload,
      ServerControl control,
      Supplier<Path> folder,
      PrintStream out) {
    return new ServerChecks(
        workload,
        control,
        MetricsSetup.of(
            scrapedServers(target, otherServers),
            settings.server().requestOptions().headers(),
            settings.apiKey(),
            settings.metrics().urls(),
            settings.metrics().intervalSeconds(),
            folder,
            out));
  }

  /** The servers whose metrics are scraped: the run's, then the mode's others. */
  private static List<URI> scrapedServers(Target target, List<URI> otherServers) {
    List<URI> urls = new ArrayList<>(target.baseUrls());
    urls.addAll(otherServers);
    return urls;
  }

  /** The scraper of the metrics found, not started; null when there is nothing to scrape. */
  MetricsScraper scraper() {
    return scraper;
  }

  /** Starts scraping the metrics found, if any: once the start lines are out. */
  void startScraper() {
    if (scraper != null) {
      scraper.start();
    }
  }

  /** Known before the load is prepared: the tokenizer, the chat template, the metrics. */
  Map<String, String> startNotes() {
    return startNotes;
  }

  @Override
  public Map<String, String> get() {
    Map<String, String> checks = new LinkedHashMap<>(startNotes);
    checks.putAll(workload.preparedNotes());
    checks.putAll(control.notes());
    return Collections.unmodifiableMap(checks);
  }
}
