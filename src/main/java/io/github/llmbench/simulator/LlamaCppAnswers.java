package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * llama-server's answers ({@link Dialect#LLAMACPP}), as captured from version 0.7.0: {@code
 * /health} with {@code {"status":"ok"}}, {@code /v1/models} with an extra Ollama-style {@code
 * models} list and its {@code Server} header, {@code /props}, {@code /tokenize} answering {@code
 * {"content"}}, and its own stream ({@link LlamaCppStreamWriter}); vLLM's metrics.
 */
final class LlamaCppAnswers extends VllmAnswers {
  /** llama-server's {@code Server} header. */
  static final String SERVER = "llama.cpp";

  @Override
  boolean servesProps() {
    return true;
  }

  @Override
  Optional<ObjectNode> health() {
    return Optional.of(Json.MAPPER.createObjectNode().put("status", "ok"));
  }

  @Override
  Optional<String> serverHeader() {
    return Optional.of(SERVER);
  }

  /** The field a reasoning model's thinking streams in: the older one. */
  @Override
  String reasoningField() {
    return "reasoning_content";
  }

  @Override
  ResponseWriter streamWriter(
      Channel channel, ParsedRequest p, VllmSimulator sim, boolean keepAlive, Runnable onDone) {
    LlamaCppStreamWriter lw =
        new LlamaCppStreamWriter(
            channel, p, sim.servedModelName(), keepAlive, onDone, sim.config().reasoningTokens());
    if (p.stream) {
      lw.writeStreamHead();
    }
    return lw;
  }

  /** An Ollama-style {@code models} list, then OpenAI's {@code object} and {@code data}. */
  @Override
  JsonNode models(VllmSimulator sim) {
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
  @Override
  Optional<JsonNode> props(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.putObject("default_generation_settings").put("n_ctx", sim.modelSpec().maxModelLen());
    o.put("total_slots", SLOTS);
    o.put("model_alias", sim.servedModelName());
    return Optional.of(o);
  }

  /**
   * {@code {"content": text}} gives {@code {"tokens":[...]}} (no special tokens added); any other
   * body, vLLM's {@code {"model","prompt"}} among them, gives an empty list, as llama-server does.
   */
  @Override
  JsonNode tokenize(JsonNode body, VllmSimulator sim) {
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
