package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Hugging Face TGI's answers ({@link Dialect#TGI}), as read in its {@code router/src/lib.rs} and
 * {@code server.rs}: {@code GET /info}, {@code /tokenize} taking {@code {"inputs"}}, a {@code
 * /v1/models} card without a context length, its {@code tgi_*} metrics. It has no {@code
 * ignore_eos} ({@link io.github.llmbench.servers.ServerProfile#honoursIgnoreEos}).
 */
final class TgiAnswers extends VllmAnswers {

  /** {@code GET /v1/models}: no context length; the card is owned by the model. */
  @Override
  JsonNode models(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("object", "list");
    ObjectNode card = o.putArray("data").addObject();
    String name = sim.servedModelName();
    card.put("id", name);
    card.put("object", "model");
    card.put("created", 0);
    card.put("owned_by", name);
    return o;
  }

  /** TGI's {@code GET /info}: the context is {@code max_total_tokens}. */
  @Override
  Optional<JsonNode> info(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("model_id", sim.modelSpec().hfId());
    o.putNull("model_sha");
    o.put("model_pipeline_tag", "text-generation");
    o.put("max_concurrent_requests", 128);
    o.put("max_best_of", 2);
    o.put("max_stop_sequences", 4);
    o.put("max_input_tokens", sim.modelSpec().maxModelLen() - 1);
    o.put("max_total_tokens", sim.modelSpec().maxModelLen());
    o.put("validation_workers", 2);
    o.put("max_client_batch_size", 4);
    o.put("router", "text-generation-router");
    o.put("version", "3.3.6");
    o.putNull("sha");
    o.putNull("docker_label");
    return Optional.of(o);
  }

  /**
   * TGI's {@code POST /tokenize}: {@code {"inputs": text}} gives a bare list of {@code
   * {"id","text","start","stop"}}.
   */
  @Override
  JsonNode tokenize(JsonNode body, VllmSimulator sim) {
    JsonNode inputs = body.path("inputs");
    if (!inputs.isTextual()) {
      throw ApiError.badRequest(
          "Failed to deserialize the JSON body into the target type: missing field `inputs`", null);
    }
    List<Integer> ids = new ArrayList<>();
    sim.tokenizer().encode(inputs.asText(), ids);
    ArrayNode out = Json.MAPPER.createArrayNode();
    for (int i = 0; i < ids.size(); i++) {
      out.addObject().put("id", ids.get(i)).put("text", "").put("start", i).put("stop", i + 1);
    }
    return out;
  }

  @Override
  String prometheus(SimMetrics metrics, String model) {
    return metrics.renderTgi();
  }

  /** The field a reasoning model's thinking streams in: the older one. */
  @Override
  String reasoningField() {
    return "reasoning_content";
  }
}
