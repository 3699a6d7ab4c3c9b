package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.github.llmbench.workload.TokenCounter;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The few calls made to the server before the load starts, outside Gatling: its model list and
 * its tokenizer. Bounded in time, so an unreachable server fails the run within 10 s.
 */
public final class ServerApi {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(4);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5); // with the connect timeout: under 10 s
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI baseUrl;
  private final Optional<String> apiKey;
  private final HttpClient client;
  private volatile String serverHeader;

  public ServerApi(URI baseUrl, Optional<String> apiKey) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  /**
   * The ids of {@code GET /v1/models}, in the server's order; empty when the server has no usable
   * model list.
   *
   * @throws TargetException when the server is unreachable or refuses the API key
   */
  public List<String> models() {
    HttpResponse<String> response = send(request("/v1/models").GET().build(), "GET /v1/models");
    serverHeader = response.headers().firstValue("Server").orElse(null);
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      throw new TargetException(
          "The server at " + baseUrl + " refused GET /v1/models with HTTP " + response.statusCode()
              + ": set the environment variable OPENAI_API_KEY to its API key");
    }
    if (response.statusCode() != 200) {
      return List.of(); // some OpenAI-compatible servers have no model list: -Dmodel then names it
    }
    List<String> ids = new ArrayList<>();
    try {
      JsonNode data = JSON.readTree(response.body()).path("data");
      for (JsonNode m : data) {
        if (m.hasNonNull("id")) {
          ids.add(m.get("id").asText());
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    return ids;
  }

  /** The {@code Server} header of the {@code GET /v1/models} answer (after {@link #models}). */
  public Optional<String> serverHeader() {
    return Optional.ofNullable(serverHeader);
  }

  /**
   * Whether the server closes the connection after each streamed response although it announces
   * keep-alive: llama.cpp's {@code llama-server} ({@code Server: llama.cpp}) does. A client that
   * reuses such a connection races the server's close and its next request fails at once, so the
   * kit then asks for a new connection per request ({@code Connection: close}).
   */
  public boolean closesConnectionAfterStream() {
    return serverHeader().map(h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("llama.cpp")).orElse(false);
  }

  /**
   * The server's tokenizer as a {@link TokenCounter}: {@code POST /tokenize} in vLLM's form
   * ({@code {"model","prompt"}} -> {@code {"count"}}) or llama.cpp's ({@code {"content"}} -> {@code
   * {"tokens":[...]}}), whichever the server answers; {@link TokenCounter#NONE} when neither.
   */
  public TokenCounter tokenCounter(String model) {
    TokenCounter vllm = text -> tokenize(JSON.createObjectNode().put("model", model).put("prompt", text), "count");
    if (vllm.count("hello").isPresent()) {
      return vllm;
    }
    TokenCounter llamaCpp = text -> tokenize(JSON.createObjectNode().put("content", text), "tokens");
    if (llamaCpp.count("hello").isPresent()) {
      return llamaCpp;
    }
    return TokenCounter.NONE;
  }

  private OptionalInt tokenize(com.fasterxml.jackson.databind.node.ObjectNode body, String field) {
    try {
      HttpRequest req =
          request("/tokenize")
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build();
      HttpResponse<String> response = client.send(req, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return OptionalInt.empty();
      }
      JsonNode json = JSON.readTree(response.body());
      JsonNode value = json.path(field);
      if (field.equals("count") && value.canConvertToInt()) {
        return OptionalInt.of(value.asInt());
      }
      if (field.equals("tokens") && value.isArray()) {
        return OptionalInt.of(value.size());
      }
      return OptionalInt.empty();
    } catch (IOException e) {
      return OptionalInt.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalInt.empty();
    }
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT);
    apiKey.ifPresent(k -> b.header("Authorization", "Bearer " + k));
    return b;
  }

  private HttpResponse<String> send(HttpRequest request, String what) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (HttpConnectTimeoutException e) {
      throw unreachable(what, "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s");
    } catch (HttpTimeoutException e) {
      throw unreachable(what, "no answer within " + REQUEST_TIMEOUT.toSeconds() + " s");
    } catch (ConnectException e) {
      throw unreachable(what, "connection refused");
    } catch (IOException e) {
      throw unreachable(what, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable(what, "interrupted");
    }
  }

  private TargetException unreachable(String what, String why) {
    return new TargetException("Cannot reach the server at " + baseUrl + " (" + what + "): " + why);
  }
}
