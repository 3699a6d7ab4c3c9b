package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.core.Level;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The kit's own HTTP calls to the server, outside Gatling: each with the run's API key and headers,
 * bounded in time (a connection within 4 s, an answer within 5 more), and why none came, in a few
 * words.
 */
final class ServerHttp {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(4);
  static final Duration REQUEST_TIMEOUT =
      Duration.ofSeconds(5); // with the connect timeout: under 10 s
  static final ObjectMapper JSON = new ObjectMapper();

  private final URI baseUrl;
  private final Optional<String> apiKey;
  private final Map<String, String> headers;
  private final HttpClient client;

  ServerHttp(URI baseUrl, Optional<String> apiKey, Map<String, String> headers) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.headers = Map.copyOf(headers);
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  URI baseUrl() {
    return baseUrl;
  }

  HttpRequest.Builder request(String path) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT);
    apiKey.ifPresent(k -> b.header("Authorization", "Bearer " + k));
    headers.forEach(
        (name, value) -> {
          try {
            b.setHeader(name, value);
          } catch (IllegalArgumentException restricted) {
            // the JDK's client sets Host, Connection and the like itself; the load's requests carry
            // them
          }
        });
    return b;
  }

  /** The answer as text, for a caller that tells the failures apart. */
  HttpResponse<String> exchange(HttpRequest request) throws IOException, InterruptedException {
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The answer as text.
   *
   * @throws TargetException when none comes ({@code what} names the call)
   */
  HttpResponse<String> send(HttpRequest request, String what) {
    try {
      return exchange(request);
    } catch (IOException e) {
      throw unreachable(what, why(e, REQUEST_TIMEOUT));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable(what, "interrupted");
    }
  }

  /** The JSON answer of a POST, or empty on any failure (the tokenizer endpoints are optional). */
  Optional<JsonNode> post(String path, JsonNode body) {
    try {
      return optionalJson(
          request(path)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The JSON answer of a GET, or empty on any failure (e.g. {@code /props}: llama.cpp's only). */
  Optional<JsonNode> get(String path) {
    return optionalJson(request(path).GET().build());
  }

  private Optional<JsonNode> optionalJson(HttpRequest request) {
    try {
      HttpResponse<String> response = exchange(request);
      return response.statusCode() == 200
          ? Optional.ofNullable(JSON.readTree(response.body()))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** {@code POST path} without a body, waited for up to {@code timeout}; never throws. */
  ServerApi.Answer postEmpty(String path, Duration timeout) {
    HttpRequest r =
        request(path).timeout(timeout).POST(HttpRequest.BodyPublishers.noBody()).build();
    try {
      return new ServerApi.Answer(
          client.send(r, HttpResponse.BodyHandlers.discarding()).statusCode(), null);
    } catch (IOException e) {
      return new ServerApi.Answer(0, why(e, timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ServerApi.Answer(0, "interrupted");
    }
  }

  /** Why no answer came, in a few words. */
  static String why(IOException e, Duration timeout) {
    if (e instanceof HttpConnectTimeoutException) {
      return "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof HttpTimeoutException) {
      return "no answer within " + Level.plainNumber(timeout.toMillis() / 1000.0) + " s";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  TargetException unreachable(String what, String why) {
    return new TargetException("Cannot reach the server at " + baseUrl + " (" + what + "): " + why);
  }
}
