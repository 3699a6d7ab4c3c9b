package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * OpenAI's (legacy) completions ({@code -Dapi=completions}): the prompt's text in, chunks streamed
 * out; its output length is always {@code max_tokens}.
 */
final class CompletionsEndpoint implements Endpoint {

  @Override
  public String id() {
    return "completions";
  }

  @Override
  public String path() {
    return "/v1/completions";
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
    return false;
  }

  @Override
  public boolean takesImages() {
    return false;
  }

  @Override
  public Optional<String> outputLengthKey(String serverChatKey, ObjectNode extraBody) {
    return StreamedBodies.chosenKey(extraBody, "max_tokens");
  }

  @Override
  public ObjectNode body(BodyRequest request) {
    ObjectNode body = StreamedBodies.start(request);
    body.put("prompt", request.promptText());
    return StreamedBodies.streamed(body, request, true);
  }
}
