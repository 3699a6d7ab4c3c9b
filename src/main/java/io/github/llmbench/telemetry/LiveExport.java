package io.github.llmbench.telemetry;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The client's figures served live as Prometheus text at {@code /metrics} ({@code
 * -Dexport.prometheus}), on a thread of its own (a scrape never runs on a load's event loop), and
 * held open for a while after the run so a final scrape sees the final counts.
 */
public final class LiveExport implements AutoCloseable {

  /** Prometheus's text format. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final LiveMetrics metrics;

  private LiveExport(HttpServer server, LiveMetrics metrics) {
    this.server = server;
    this.metrics = metrics;
  }

  /**
   * Serves {@code metrics} at {@code address}.
   *
   * @throws UncheckedIOException when it cannot listen there (the port taken)
   */
  public static LiveExport start(InetSocketAddress address, LiveMetrics metrics) {
    try {
      HttpServer server = HttpServer.create(address, 16);
      server.setExecutor(
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "llm-live-export");
                t.setDaemon(true);
                return t;
              }));
      server.createContext(
          "/metrics",
          exchange -> {
            byte[] body = metrics.text().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          });
      server.start();
      return new LiveExport(server, metrics);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot serve -Dexport.prometheus at " + address + ": " + e.getMessage(), e);
    }
  }

  /** Where Prometheus scrapes it. */
  public URI url() {
    InetSocketAddress a = server.getAddress();
    String host =
        a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
    return URI.create("http://" + host + ":" + a.getPort() + "/metrics");
  }

  public LiveMetrics metrics() {
    return metrics;
  }

  /** Holds the endpoint open {@code holdSeconds} (saying so on {@code out}), then closes it. */
  public void closeAfter(int holdSeconds, PrintStream out) {
    if (holdSeconds > 0) {
      out.printf(
          "gatling-llm-bench: %s stays open %d s for a final scrape (-Dexport.hold)%n",
          url(), holdSeconds);
      try {
        Thread.sleep(holdSeconds * 1000L);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
