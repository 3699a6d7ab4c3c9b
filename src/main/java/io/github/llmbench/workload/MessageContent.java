package io.github.llmbench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chat message's {@code content} as OpenAI's chat API writes it: a text, or a list of parts
 * ({@code {"type":"text","text":...}} and {@code {"type":"image_url","image_url":{"url":...}}}),
 * read from dataset files and feeder records and written back into them.
 */
final class MessageContent {
  static final String TEXT = "text";
  static final String IMAGE_URL = "image_url";

  private MessageContent() {}

  /** The message read from its role and content, or null when the content is neither form. */
  static RequestSpec.ChatMessage read(String role, JsonNode content) {
    if (content == null) {
      return null;
    }
    if (content.isTextual()) {
      return new RequestSpec.ChatMessage(role, content.asText());
    }
    if (!content.isArray() || content.isEmpty()) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    List<String> images = new ArrayList<>();
    for (JsonNode part : content) {
      String type = part.path("type").asText("");
      if (type.equals(TEXT) && part.path(TEXT).isTextual()) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(part.get(TEXT).asText());
      } else if (type.equals(IMAGE_URL) && urlOf(part.path(IMAGE_URL)) != null) {
        images.add(urlOf(part.path(IMAGE_URL)));
      } else {
        return null;
      }
    }
    return new RequestSpec.ChatMessage(role, text.toString(), images);
  }

  /** {@code {"url": ...}} as OpenAI writes it, or the bare address some datasets hold. */
  private static String urlOf(JsonNode imageUrl) {
    JsonNode url = imageUrl.isObject() ? imageUrl.path("url") : imageUrl;
    return url.isTextual() && !url.asText().isEmpty() ? url.asText() : null;
  }

  /** The content to write: the text alone, or its text part and an image part per image. */
  static Object of(RequestSpec.ChatMessage m) {
    if (m.images().isEmpty()) {
      return m.content();
    }
    List<Map<String, Object>> parts = new ArrayList<>();
    if (!m.content().isEmpty()) {
      parts.add(Map.of("type", TEXT, TEXT, m.content()));
    }
    for (String url : m.images()) {
      Map<String, Object> part = new LinkedHashMap<>();
      part.put("type", IMAGE_URL);
      part.put(IMAGE_URL, Map.of("url", url));
      parts.add(part);
    }
    return parts;
  }

  /** What a message's content may be, for error messages. */
  static final String ACCEPTED =
      "a text, or a list of {\"type\":\"text\",\"text\":...} and"
          + " {\"type\":\"image_url\",\"image_url\":{\"url\":...}} parts";
}
