package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.simulator.StreamWriter.Json;

/**
 * SGLang's answers ({@link Dialect#SGLANG}), as read in its {@code
 * srt/entrypoints/openai/protocol.py}: vLLM's stream with {@code delta.reasoning_content}, a {@code
 * /v1/models} card owned by {@code sglang} with {@code max_model_len}, vLLM's {@code /tokenize},
 * its {@code sglang:*} metrics and the profiler's routes always.
 */
final class SglangAnswers extends VllmAnswers {

  /** {@code GET /v1/models}: its card has {@code max_model_len}. */
  @Override
  JsonNode models(VllmSimulator sim) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("object", "list");
    ObjectNode card = o.putArray("data").addObject();
    String name = sim.servedModelName();
    card.put("id", name);
    card.put("object", "model");
    card.put("created", System.currentTimeMillis() / 1000);
    card.put("owned_by", "sglang");
    card.put("root", sim.modelSpec().hfId());
    card.putNull("parent");
    card.put("max_model_len", sim.modelSpec().maxModelLen());
    return o;
  }

  @Override
  String prometheus(SimMetrics metrics, String model) {
    return metrics.renderSglang(model);
  }

  @Override
  boolean profilerRouted(SimulatorConfig config) {
    return true;
  }

  /** The field a reasoning model's thinking streams in: the older one. */
  @Override
  String reasoningField() {
    return "reasoning_content";
  }
}
