package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The server's {@code GET /v1/models}, asked once: the ids it serves, its cards (their {@code
 * owned_by}, context keys) and the answer's {@code Server} header.
 */
final class ModelList {
  private final ServerHttp http;
  private volatile String serverHeader;
  private volatile JsonNode list;

  ModelList(ServerHttp http) {
    this.http = http;
  }

  /**
   * The ids, in the server's order; empty when the server has no usable model list.
   *
   * @throws TargetException when the server is unreachable or refuses the API key
   */
  List<String> ask() {
    HttpResponse<String> response =
        http.send(http.request("/v1/models").GET().build(), "GET /v1/models");
    serverHeader = response.headers().firstValue("Server").orElse(null);
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      throw new TargetException(
          "The server at "
              + http.baseUrl()
              + " refused GET /v1/models with HTTP "
              + response.statusCode()
              + ": set the environment variable OPENAI_API_KEY to its API key");
    }
    if (response.statusCode() != 200) {
      return List.of(); // some OpenAI-compatible servers have no model list: -Dmodel then names it
    }
    List<String> ids = new ArrayList<>();
    try {
      list = ServerHttp.JSON.readTree(response.body());
      for (JsonNode m : list.path("data")) {
        if (m.hasNonNull("id")) {
          ids.add(m.get("id").asText());
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    return ids;
  }

  /** The {@code Server} header of the answer (after {@link #ask}). */
  Optional<String> serverHeader() {
    return Optional.ofNullable(serverHeader);
  }

  /** The {@code owned_by} of each card, in order (null where a card has none). */
  List<String> owners() {
    List<String> owners = new ArrayList<>();
    JsonNode l = list;
    if (l != null) {
      for (JsonNode m : l.path("data")) {
        owners.add(m.path("owned_by").asText(null));
      }
    }
    return owners;
  }

  /** The model's card, or null when the list has none (or was not read). */
  JsonNode card(String model) {
    JsonNode l = list;
    if (l == null) {
      return null;
    }
    for (JsonNode m : l.path("data")) {
      if (model.equals(m.path("id").asText(null))) {
        return m;
      }
    }
    return null;
  }
}
