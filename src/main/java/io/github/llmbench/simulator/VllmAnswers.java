package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;
import io.netty.channel.Channel;
import java.util.List;
import java.util.Optional;

/**
 * What vLLM answers where the servers differ, each dialect's answers a subclass of these: {@code
 * /health}, {@code /v1/models}, {@code /tokenize}, {@code /metrics}, the profiler's routes, the
 * request bodies it takes and its stream's shape. Which routes a dialect has is its {@link
 * Dialect#serves}; timing is the same for all.
 */
class VllmAnswers {

  /** Whether it has llama.cpp's {@code GET /props}. */
  boolean servesProps() {
    return false;
  }

  /** llama.cpp's {@code GET /props}, where the dialect has it ({@link #servesProps}). */
  Optional<JsonNode> props(VllmSimulator sim) {
    return Optional.empty();
  }

  /** TGI's {@code GET /info}, where the dialect has it. */
  Optional<JsonNode> info(VllmSimulator sim) {
    return Optional.empty();
  }

  /** The body of {@code GET /health}: vLLM's is empty. */
  Optional<ObjectNode> health() {
    return Optional.empty();
  }

  /** The {@code Server} header of its {@code /v1/models} answer, where it sends one. */
  Optional<String> serverHeader() {
    return Optional.empty();
  }

  /** {@code GET /v1/models}: vLLM's ModelList, a ModelCard (with one ModelPermission) per model. */
  JsonNode models(VllmSimulator sim) {
    long created = System.currentTimeMillis() / 1000;
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("object", "list");
    ArrayNode data = o.putArray("data");
    for (String lora : sim.config().loraModules()) {
      // vLLM's LoRA card: its name, the base model as parent
      ObjectNode c = data.addObject();
      c.put("id", lora);
      c.put("object", "model");
      c.put("created", created);
      c.put("owned_by", "vllm");
      c.put("root", "/adapters/" + lora);
      c.put("parent", sim.servedModelName());
      c.put("max_model_len", sim.modelSpec().maxModelLen());
    }
    ObjectNode card = data.insertObject(0);
    card.put("id", sim.servedModelName());
    card.put("object", "model");
    card.put("created", created);
    card.put("owned_by", "vllm");
    card.put("root", sim.modelSpec().hfId());
    card.putNull("parent");
    card.put("max_model_len", sim.modelSpec().maxModelLen());
    ObjectNode perm = card.putArray("permission").addObject();
    perm.put("id", "modelperm-" + Long.toHexString(Double.doubleToLongBits(Math.random())));
    perm.put("object", "model_permission");
    perm.put("created", created);
    perm.put("allow_create_engine", false);
    perm.put("allow_sampling", true);
    perm.put("allow_logprobs", true);
    perm.put("allow_search_indices", false);
    perm.put("allow_view", true);
    perm.put("allow_fine_tuning", false);
    perm.put("organization", "*");
    perm.putNull("group");
    perm.put("is_blocking", false);
    return o;
  }

  /** {@code POST /tokenize}: {@code {"model","prompt"}} (or messages) -> {@code {"count",...}}. */
  JsonNode tokenize(JsonNode body, VllmSimulator sim) {
    if (!body.isObject()) {
      throw ApiError.badRequest("Request body must be a JSON object", null);
    }
    ParsedRequest.checkModel(body, sim.acceptedModels());
    List<Integer> ids = ParsedRequest.tokenize(body, sim.tokenizer());
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("count", ids.size());
    o.put("max_model_len", sim.modelSpec().maxModelLen());
    ArrayNode t = o.putArray("tokens");
    for (int id : ids) {
      t.add(id);
    }
    o.putNull("token_strs");
    return o;
  }

  /** Its Prometheus text ({@code vllm/v1/metrics/loggers.py}). */
  String prometheus(SimMetrics metrics, String model) {
    return metrics.renderVllm(model);
  }

  /** A JSON answer of {@code GET /metrics} instead of the Prometheus text, where it has one. */
  Optional<String> metricsJson(SimMetrics metrics) {
    return Optional.empty();
  }

  /** Whether the profiler's routes answer: vLLM registers them only with a profiler dir. */
  boolean profilerRouted(SimulatorConfig config) {
    return config.profiler();
  }

  /** Refuses a body the server would refuse; vLLM takes unknown keys. */
  void checkBody(JsonNode body, boolean chat) {}

  /** The field a reasoning model's thinking streams in: vLLM's current one. */
  String reasoningField() {
    return "reasoning";
  }

  /** The writer of a chat or completions answer, its stream's head written. */
  ResponseWriter streamWriter(
      Channel channel, ParsedRequest p, VllmSimulator sim, boolean keepAlive, Runnable onDone) {
    StreamWriter sw =
        new StreamWriter(
            channel,
            p,
            sim.servedModelName(),
            keepAlive,
            onDone,
            sim.config().tokensPerChunk(),
            sim.config().reasoningTokens(),
            reasoningField(),
            sim.config().promptTokensDetails());
    if (p.stream) {
      sw.writeStreamHead();
    }
    return sw;
  }
}
