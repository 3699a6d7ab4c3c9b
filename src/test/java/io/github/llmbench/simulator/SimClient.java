package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Test client on the JDK's HttpClient. */
final class SimClient {
  static final ObjectMapper MAPPER = new ObjectMapper();

  static {
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
  }

  private final HttpClient pooled = newHttp();
  private final boolean freshConnections;
  final String base;

  SimClient(VllmSimulator sim) {
    this(sim, false);
  }

  /**
   * With {@code freshConnections}, each request opens its own connection: llama-server announces
   * keep-alive yet closes after a stream, and the JDK's client does not resend a POST that met a
   * pooled connection closed under it.
   */
  SimClient(VllmSimulator sim, boolean freshConnections) {
    this.base = sim.baseUrl();
    this.freshConnections = freshConnections;
  }

  private static HttpClient newHttp() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  HttpClient http() {
    return freshConnections ? newHttp() : pooled;
  }

  HttpResponse<String> get(String path) throws Exception {
    return http()
        .send(
            HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String path, String body) throws Exception {
    return http().send(jsonPost(path, body), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<InputStream> postStream(String path, String body) throws Exception {
    return http().send(jsonPost(path, body), HttpResponse.BodyHandlers.ofInputStream());
  }

  private HttpRequest jsonPost(String path, String body) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  /** One SSE event with the nanoTime its line arrived. */
  record Event(String data, long nanos) {}

  /** Streams a request; events in order of arrival, with arrival times. */
  List<Event> stream(String path, String body, long[] sentAt) throws Exception {
    sentAt[0] = System.nanoTime();
    HttpResponse<InputStream> r = postStream(path, body);
    List<Event> events = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        long t = System.nanoTime();
        if (line.startsWith("data: ")) {
          events.add(new Event(line.substring(6), t));
        }
      }
    }
    return events;
  }

  static JsonNode json(String s) throws Exception {
    return MAPPER.readTree(s);
  }
}
