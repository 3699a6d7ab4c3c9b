package io.github.llmbench.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Optional;
import java.util.function.ToIntFunction;

/** Token ids to and from the tokenizer endpoints' JSON. */
final class Tokens {
  private Tokens() {}

  /** The ids of a JSON list of numbers; empty when it is no list. */
  static Optional<int[]> ids(JsonNode list) {
    return ids(list, JsonNode::asInt);
  }

  /** The ids of a JSON list, each read by {@code id}; empty when it is no list. */
  static Optional<int[]> ids(JsonNode list, ToIntFunction<JsonNode> id) {
    if (!list.isArray()) {
      return Optional.empty();
    }
    int[] ids = new int[list.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = id.applyAsInt(list.get(i));
    }
    return Optional.of(ids);
  }

  static ArrayNode array(int[] ids) {
    ArrayNode tokens = JsonNodeFactory.instance.arrayNode();
    for (int id : ids) {
      tokens.add(id);
    }
    return tokens;
  }
}
