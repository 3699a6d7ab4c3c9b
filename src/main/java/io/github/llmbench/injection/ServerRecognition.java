package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.servers.ServerProfile;
import io.github.llmbench.servers.ServerProfiles;
import java.util.Optional;

/**
 * Which server answers, told apart after the model list by what it says of itself ({@link
 * ServerProfiles#recognise}), asked once; and its {@code GET /info}, asked at most once.
 */
final class ServerRecognition {
  private final ServerHttp http;
  private final ModelList models;
  private volatile ServerProfile profile;
  private volatile Optional<JsonNode> info;

  ServerRecognition(ServerHttp http, ModelList models) {
    this.http = http;
    this.models = models;
  }

  ServerProfile profile() {
    ServerProfile p = profile;
    if (p == null) {
      p = ServerProfiles.recognise(models.serverHeader(), models.owners(), this::info);
      profile = p;
    }
    return p;
  }

  /** Whether the {@code Server} header names a server that closes the connection after a stream. */
  boolean closesConnectionAfterStream() {
    return models
        .serverHeader()
        .flatMap(ServerProfiles::byServerHeader)
        .map(ServerProfile::closesConnectionAfterStream)
        .orElse(false);
  }

  /** The answer of {@code GET /info} (TGI's), or empty. */
  Optional<JsonNode> info() {
    Optional<JsonNode> i = info;
    if (i == null) {
      i = http.get("/info");
      info = i;
    }
    return i;
  }
}
