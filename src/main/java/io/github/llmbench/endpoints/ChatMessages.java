package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The messages of the endpoints that take them, with their images after their text: chat's {@code
 * text} and {@code image_url} parts, or the Responses API's {@code input_text} and {@code
 * input_image}.
 */
enum ChatMessages {
  CHAT {
    @Override
    void text(ObjectNode part, String text) {
      part.put("type", "text").put("text", text);
    }

    @Override
    void image(ObjectNode part, String url) {
      part.put("type", "image_url").putObject("image_url").put("url", url);
    }
  },
  RESPONSES {
    @Override
    void text(ObjectNode part, String text) {
      part.put("type", "input_text").put("text", text);
    }

    @Override
    void image(ObjectNode part, String url) {
      part.put("type", "input_image").put("image_url", url);
    }
  };

  abstract void text(ObjectNode part, String text);

  abstract void image(ObjectNode part, String url);

  /** The request's messages (a prompt is one user message) added to {@code out}. */
  void add(ArrayNode out, BodyRequest request) {
    if (request.messages() == null) {
      out.addObject().put("role", "user").put("content", request.prompt());
      return;
    }
    for (BodyRequest.Message m : request.messages()) {
      ObjectNode message = out.addObject();
      message.put("role", m.role());
      if (m.images().isEmpty()) {
        message.put("content", m.content());
        continue;
      }
      var parts = message.putArray("content");
      if (!m.content().isEmpty()) {
        text(parts.addObject(), m.content());
      }
      for (String url : m.images()) {
        image(parts.addObject(), url);
      }
    }
  }
}
