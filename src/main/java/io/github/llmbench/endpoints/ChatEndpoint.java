package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * OpenAI's chat completions ({@code -Dapi=chat}, the default): messages in, chunks streamed out.
 */
final class ChatEndpoint implements Endpoint {

  @Override
  public String id() {
    return "chat";
  }

  @Override
  public String path() {
    return "/v1/chat/completions";
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
    return StreamedBodies.chosenKey(extraBody, serverChatKey);
  }

  @Override
  public ObjectNode body(BodyRequest request) {
    ObjectNode body = StreamedBodies.start(request);
    ChatMessages.CHAT.add(body.putArray("messages"), request);
    return StreamedBodies.streamed(body, request, true);
  }
}
