package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * llama-server's answers of {@code /v1/models} and {@code /tokenize} ({@link Dialect#LLAMACPP}).
 */
final class LlamaCppEndpoints {
  /** llama-server's {@code Server} header. */
  static final String SERVER = "llama.cpp";

  private LlamaCppEndpoints() {}

  /** An Ollama-style {@code models} list, then OpenAI's {@code object} and {@code data}. */
  static ObjectNode models(VllmSimulator sim) {
    String name = sim.servedModelName();
    ObjectNode o = Json.MAPPER.createObjectNode();
    ObjectNode m = o.putArray("models").addObject();
    m.put("name", name);
    m.put("model", name);
    m.put("type", "model");
    m.putArray("capabilities").add("completion");
    o.put("object", "list");
    ObjectNode card = o.putArray("data").addObject();
    card.put("id", name);
    card.putArray("aliases").add(name);
    card.put("object", "model");
    card.put("created", System.currentTimeMillis() / 1000);
    card.put("owned_by", "llamacpp");
    ObjectNode meta = card.putObject("meta");
    meta.put("n_vocab", sim.tokenizer().vocabSize());
    meta.put("n_ctx", sim.modelSpec().maxModelLen());
    meta.put("n_ctx_train", sim.modelSpec().maxModelLen());
    return o;
  }

  /** Slots sharing one KV cache, as llama-server's default (no {@code -np}) has. */
  static final int SLOTS = 4;

  /**
   * {@code GET /props} of llama-server started without {@code -np}: its {@value #SLOTS} slots in
   * one unified KV cache, each reporting the whole context.
   */
  static ObjectNode props(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.putObject("default_generation_settings").put("n_ctx", sim.modelSpec().maxModelLen());
    o.put("total_slots", SLOTS);
    o.put("model_alias", sim.servedModelName());
    return o;
  }

  /**
   * {@code {"content": text}} gives {@code {"tokens":[...]}} (no special tokens added); any other
   * body, vLLM's {@code {"model","prompt"}} among them, gives an empty list, as llama-server does.
   */
  static ObjectNode tokenize(JsonNode body, VllmSimulator sim) {
    List<Integer> ids = new ArrayList<>();
    JsonNode content = body.path("content");
    if (content.isTextual()) {
      sim.tokenizer().encode(content.asText(), ids);
    }
    ObjectNode o = Json.MAPPER.createObjectNode();
    ArrayNode t = o.putArray("tokens");
    ids.forEach(t::add);
    return o;
  }
}
