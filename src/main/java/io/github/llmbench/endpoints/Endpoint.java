package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * One OpenAI-compatible endpoint the kit sends requests to: its {@code -Dapi} id and path, the body
 * it takes, how its answer is captured and which figures its requests have. A new endpoint is one
 * file implementing this and one line in {@link Endpoints#ALL}.
 */
public interface Endpoint {

  /** Its {@code -Dapi} value, lower case ({@code chat}, {@code embeddings}...). */
  String id();

  /** Its path under the server's base URL ({@code /v1/chat/completions}). */
  String path();

  /** How {@code -Dhelp} names it among the endpoints: its path, and what sets it apart. */
  default String helpText() {
    return path();
  }

  /** How its answer is read: an event stream, or one JSON body. */
  CaptureKind capture();

  /** The figures its requests have: generated ones (TTFT, TPOT, ITL) or E2EL alone. */
  Figures figures();

  /** Whether it sends chat messages, which the server wraps in the model's chat template. */
  boolean takesChatMessages();

  /** Whether its messages may carry images. */
  boolean takesImages();

  /**
   * The key a request's output length goes in, or empty when it asks for none.
   *
   * @param serverChatKey the key the server reads for a chat request ({@code max_tokens} or {@code
   *     max_completion_tokens}, its profile's choice)
   * @param extraBody the user's extra body, whose own choice of either key wins where the endpoint
   *     reads both, so that a request never carries both with different values
   */
  Optional<String> outputLengthKey(String serverChatKey, ObjectNode extraBody);

  /** The request's body before the extra body is merged over it. */
  ObjectNode body(BodyRequest request);
}
