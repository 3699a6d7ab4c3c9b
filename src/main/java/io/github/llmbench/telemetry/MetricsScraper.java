package io.github.llmbench.telemetry;

import io.github.llmbench.records.RunFiles;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.servers.ServerProfiles;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Reads Prometheus endpoints during the run (the server's {@code /metrics}, and any others such as
 * NVIDIA's DCGM exporter), every interval on its own thread, and on demand between levels ({@link
 * #scrapeNow()}: counters then have a value exactly where a level ends). Keeps the samples the
 * analysis maps ({@link #KEPT}) and appends them to {@code llm/server-metrics.jsonl} as they come,
 * once the run's folder is known.
 *
 * <p>A scrape that fails never fails the run: each endpoint's first failure is said once, with the
 * reason, and the scraping goes on.
 */
public final class MetricsScraper implements AutoCloseable {

  /**
   * One endpoint.
   *
   * @param headers sent with each scrape (the server's own endpoint gets the run's API key and
   *     headers; other services get none of them)
   */
  public record Endpoint(URI uri, Map<String, String> headers) {}

  /** NVIDIA's DCGM exporter's family: the GPUs' figures. */
  static final String GPU_FAMILY = "DCGM_FI_";

  /** The name prefixes of the families the analysis maps: each known server's, and the GPUs'. */
  static final List<String> FAMILIES = families();

  private static List<String> families() {
    List<String> families = new ArrayList<>(ServerProfiles.metricFamilies());
    families.add(GPU_FAMILY);
    return List.copyOf(families);
  }

  /**
   * The samples kept: the families the analysis maps ({@link #FAMILIES}), without histogram buckets
   * and {@code _created} stamps, which would multiply the file by ten for figures the kit does not
   * use.
   */
  public static boolean kept(String name) {
    boolean family = false;
    for (String prefix : FAMILIES) {
      family |= name.startsWith(prefix);
    }
    return family && !name.endsWith("_bucket") && !name.endsWith("_created");
  }

  private final List<Endpoint> endpoints;
  private final Duration interval;
  private final Supplier<Path> knownFolder;
  private final PrintStream err;
  private final HttpClient client;
  private final List<ServerSample> samples = new ArrayList<>();
  private final StringBuilder unwritten = new StringBuilder();
  private final Set<URI> failedOnce = new HashSet<>();
  private final ScheduledExecutorService timer;
  private BufferedWriter file;
  private boolean closed;

  /**
   * @param knownFolder the run's {@code llm/} folder once it is known, else null (Gatling creates
   *     the run's folder only after the run starts)
   */
  public MetricsScraper(
      List<Endpoint> endpoints, Duration interval, Supplier<Path> knownFolder, PrintStream err) {
    this.endpoints = List.copyOf(endpoints);
    this.interval = interval;
    this.knownFolder = knownFolder;
    this.err = err;
    this.client = newClient();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "llm-metrics-scraper");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Whether an endpoint answers with Prometheus text, asked once before the run.
   *
   * @return empty when it does, else why not (e.g. {@code HTTP 404})
   */
  public static Optional<String> problem(Endpoint e) {
    try {
      List<ServerSample> s = scrape(newClient(), e, System.currentTimeMillis());
      return s.isEmpty()
          ? Optional.of(
              "no " + String.join(", ", ServerProfiles.withMetrics()) + " or DCGM metric in it")
          : Optional.empty();
    } catch (IOException | RuntimeException ex) {
      return Optional.of(reason(ex));
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }

  private static HttpClient newClient() {
    return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  }

  /**
   * Scrapes once, here, then every interval. The first scrape is done before this returns, so the
   * counters have a value before the load starts: on the timer it raced with the first requests,
   * and on a busy machine the first level's counters lost its first tokens (TelemetryIT: 1527 of
   * 1536).
   */
  public void start() {
    long ms = Math.max(1, interval.toMillis());
    scrapeNow();
    timer.scheduleAtFixedRate(this::scrapeNow, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** Scrapes every endpoint once, now (from the timer, or between levels). */
  public synchronized void scrapeNow() {
    if (closed) {
      return;
    }
    List<ServerSample> fresh = new ArrayList<>();
    // one time for the round: replicas' samples of one scrape add up as one server's
    long now = System.currentTimeMillis();
    for (Endpoint e : endpoints) {
      try {
        fresh.addAll(scrape(client, e, now));
      } catch (IOException | RuntimeException ex) {
        if (failedOnce.add(e.uri())) {
          err.println(
              "gatling-llm-bench: cannot read metrics from "
                  + e.uri()
                  + " ("
                  + reason(ex)
                  + "): the run goes on; its figures are left out where no scrape answered");
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    samples.addAll(fresh);
    unwritten.append(ServerMetricsFile.lines(fresh));
    write(knownFolder.get());
  }

  private static List<ServerSample> scrape(HttpClient client, Endpoint e, long now)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(e.uri()).timeout(Duration.ofSeconds(5)).GET();
    e.headers().forEach(b::header);
    HttpResponse<String> r =
        client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (r.statusCode() != 200) {
      throw new IOException("HTTP " + r.statusCode());
    }
    List<ServerSample> out = new ArrayList<>();
    for (PrometheusText.Sample s : PrometheusText.parse(r.body()).samples()) {
      if (kept(s.name()) && Double.isFinite(s.value())) {
        out.add(new ServerSample(now, e.uri().toString(), s.name(), s.labels(), s.value()));
      }
    }
    return out;
  }

  private static String reason(Exception e) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e instanceof HttpTimeoutException) {
      return "no answer within 5 s";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private void write(Path folder) {
    if (folder == null || unwritten.length() == 0) {
      return;
    }
    try {
      if (file == null) {
        Files.createDirectories(folder);
        file =
            Files.newBufferedWriter(
                folder.resolve(RunFiles.SERVER_METRICS),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
      }
      file.write(unwritten.toString());
      file.flush();
      unwritten.setLength(0);
    } catch (IOException e) {
      if (failedOnce.add(URI.create("file:" + RunFiles.SERVER_METRICS))) {
        err.println(
            "gatling-llm-bench: cannot write " + RunFiles.SERVER_METRICS + ": " + e.getMessage());
      }
    }
  }

  /** Samples so far. */
  public synchronized List<ServerSample> samples() {
    return List.copyOf(samples);
  }

  /**
   * Scrapes a last time, stops, and writes what was not written yet into {@code folder}.
   *
   * @return every sample of the run
   */
  public List<ServerSample> close(Path folder) {
    timer.shutdownNow();
    synchronized (this) {
      if (!closed) {
        scrapeNow();
        closed = true;
        write(folder);
        try {
          if (file != null) {
            file.close();
          }
        } catch (IOException e) {
          err.println(
              "gatling-llm-bench: cannot close " + RunFiles.SERVER_METRICS + ": " + e.getMessage());
        }
      }
      return List.copyOf(samples);
    }
  }

  @Override
  public void close() {
    close(knownFolder.get());
  }
}
