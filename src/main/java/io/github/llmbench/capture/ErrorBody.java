package io.github.llmbench.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The body of an answer that is not a stream (an HTTP error, or a 200 that ignored {@code stream}),
 * kept up to a few KB, and the server's own words drawn from it: a record should say what the
 * server said, not only its status.
 */
final class ErrorBody {
  static final int MAX_BYTES = 8 << 10;
  static final int MAX_MESSAGE = 300;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  void add(ByteBuf buf) {
    int n = Math.min(buf.readableBytes(), MAX_BYTES - bytes.size());
    if (n > 0) {
      byte[] part = new byte[n];
      buf.getBytes(buf.readerIndex(), part);
      bytes.write(part, 0, n);
    }
  }

  /** The server's message, or "" for an empty body. */
  String message() {
    return message(text());
  }

  /** The body's first {@value #MAX_BYTES} bytes as text. */
  String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * The message of a JSON error (vLLM: {@code {"message": ...}} or {@code {"error": {"message":
   * ...}}}; FastAPI: {@code {"detail": ...}}; llama.cpp: {@code {"error": {"message": ...}}}), else
   * the body's first {@value #MAX_MESSAGE} characters, on one line either way.
   */
  static String message(String body) {
    String text = body;
    try {
      JsonNode json = JSON.readTree(body);
      if (json != null && json.isObject()) {
        JsonNode error = json.get("error");
        JsonNode found =
            error != null && error.isObject()
                ? error.get("message")
                : error != null && error.isTextual()
                    ? error
                    : json.has("message") ? json.get("message") : json.get("detail");
        if (found != null && !found.isNull()) {
          text = found.isTextual() ? found.asText() : found.toString();
        }
      }
    } catch (IOException | RuntimeException notJson) {
      // the body's text as it is
    }
    return ChunkInspector.oneLine(text, MAX_MESSAGE);
  }
}
