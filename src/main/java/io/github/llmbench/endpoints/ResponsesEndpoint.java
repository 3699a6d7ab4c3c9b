package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * OpenAI's Responses API ({@code -Dapi=responses}): chat messages in as its {@code input}, an event
 * stream of typed events out. Its length key is its own, and its final event always carries the
 * usage, so it asks for no {@code stream_options}.
 */
final class ResponsesEndpoint implements Endpoint {

  /** Where the Responses API takes the output length. */
  static final String MAX_OUTPUT_TOKENS = "max_output_tokens";

  @Override
  public String id() {
    return "responses";
  }

  @Override
  public String path() {
    return "/v1/responses";
  }

  @Override
  public String helpText() {
    return path() + " (streamed events)";
  }

  @Override
  public CaptureKind capture() {
    return CaptureKind.EVENT_STREAM;
  }

  @Override
  public Figures figures() {
    return Figures.GENERATED;
  }

  @Override
  public boolean takesChatMessages() {
    return true;
  }

  @Override
  public boolean takesImages() {
    return true;
  }

  @Override
  public Optional<String> outputLengthKey(String serverChatKey, ObjectNode extraBody) {
    return Optional.of(MAX_OUTPUT_TOKENS);
  }

  @Override
  public ObjectNode body(BodyRequest request) {
    ObjectNode body = StreamedBodies.start(request);
    ChatMessages.RESPONSES.add(body.putArray("input"), request);
    return StreamedBodies.streamed(body, request, false);
  }
}
