package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.workload.PreparedWorkload.ContextLength;
import java.util.List;
import java.util.Optional;

/**
 * How many tokens (prompt + output) one request may have, where the server tells it: vLLM's (and
 * SGLang's) {@code max_model_len} of {@code GET /v1/models}; the recognised server's {@code GET
 * /info} key (TGI's {@code max_total_tokens}); llama.cpp's per-slot {@code n_ctx} of {@code GET
 * /props} (the server's {@code -c} divided among its {@code -np} slots), else its models' {@code
 * meta.n_ctx} or {@code meta.n_ctx_train}. Asked in that order; empty when none tells.
 */
final class ContextLengths {
  private final ServerHttp http;
  private final ModelList models;
  private final ServerRecognition recognition;

  ContextLengths(ServerHttp http, ModelList models, ServerRecognition recognition) {
    this.http = http;
    this.models = models;
    this.recognition = recognition;
  }

  Optional<ContextLength> of(String model) {
    JsonNode card = models.card(model);
    if (card != null && card.path("max_model_len").canConvertToInt()) {
      return Optional.of(
          new ContextLength(card.get("max_model_len").asInt(), "max_model_len of GET /v1/models"));
    }
    Optional<ContextLength> info = fromInfo();
    if (info.isPresent()) {
      return info;
    }
    Optional<ContextLength> props = fromProps(card);
    return props.isPresent() ? props : fromCardMeta(card);
  }

  private Optional<ContextLength> fromInfo() {
    Optional<String> key = recognition.profile().infoContextKey();
    if (key.isEmpty()) {
      return Optional.empty();
    }
    return recognition
        .info()
        .map(i -> i.path(key.get()))
        .filter(JsonNode::canConvertToInt)
        .map(v -> new ContextLength(v.asInt(), key.get() + " of GET /info"));
  }

  /** llama.cpp's slots. */
  private Optional<ContextLength> fromProps(JsonNode card) {
    Optional<JsonNode> props = http.get("/props");
    JsonNode slot =
        props.map(p -> p.path("default_generation_settings").path("n_ctx")).orElse(null);
    if (slot == null || !slot.canConvertToInt() || slot.asInt() <= 0) {
      return Optional.empty();
    }
    int slots = props.get().path("total_slots").asInt(0);
    int trained = card == null ? 0 : card.path("meta").path("n_ctx_train").asInt(0);
    // llama-server's HTTP answers do not say whether its KV cache is unified: every slot of a
    // unified one reports the whole context, which without -c is the model's trained context,
    // while separate contexts (-c split over -np) each hold a share of it
    boolean shared = slots > 1 && slot.asInt() == trained;
    return Optional.of(
        new ContextLength(
            slot.asInt(),
            shared
                ? "n_ctx of GET /props, shared by its " + slots + " slots"
                : "n_ctx per slot of GET /props",
            shared ? slots : 0));
  }

  private static Optional<ContextLength> fromCardMeta(JsonNode card) {
    for (String key : List.of("n_ctx", "n_ctx_train")) {
      JsonNode v = card == null ? null : card.path("meta").path(key);
      if (v != null && v.canConvertToInt() && v.asInt() > 0) {
        return Optional.of(new ContextLength(v.asInt(), "meta." + key + " of GET /v1/models"));
      }
    }
    return Optional.empty();
  }
}
