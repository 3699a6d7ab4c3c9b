package io.github.llmbench.capture;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads the one JSON body of an embeddings answer ({@code 200}, {@code application/json}) as it
 * arrives, with Jackson's non-blocking parser: nothing of it is kept but what the record needs,
 * however many floats its vectors hold. It finds the {@code data} array (and counts its items),
 * {@code usage.prompt_tokens}, and an error the server put in a 200 ({@code {"error": {...}}} or
 * vLLM's older {@code {"object": "error", "message": ...}}); the first bytes are kept ({@link
 * ErrorBody}) to quote a body that is no JSON.
 *
 * <p>Pure: no I/O, no clock; one instance per response, on the connection's event loop.
 */
final class PooledBody {
  private static final JsonFactory JSON = new JsonFactory();

  private final JsonParser parser;
  private final ByteArrayFeeder feeder;
  private final ErrorBody head = new ErrorBody();
  private byte[] scratch = new byte[8192];
  private long bytes;
  private int depth;

  /** The root object's field the parser is in, at depth 1; null outside one. */
  private String field;

  /** The field of the object at depth 2 (inside {@code usage} or {@code error}). */
  private String inner;

  private boolean sawData;
  private int dataItems;
  private Integer promptTokens;
  private String errorMessage;
  private boolean errorObject;
  private boolean complete;
  private String invalid;

  PooledBody() {
    try {
      parser = JSON.createNonBlockingByteArrayParser();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
  }

  /** The next bytes of the body (its reader index is kept). */
  void feed(ByteBuf buf) {
    int n = buf.readableBytes();
    head.add(buf);
    bytes += n;
    if (complete || invalid != null || n == 0) {
      return;
    }
    if (scratch.length < n) {
      scratch = new byte[Math.max(n, scratch.length * 2)];
    }
    buf.getBytes(buf.readerIndex(), scratch, 0, n);
    feed(scratch, 0, n);
  }

  /** The next bytes of the body, read to their end before this returns. */
  void feed(byte[] data, int offset, int length) {
    try {
      feeder.feedInput(data, offset, offset + length);
      JsonToken t;
      while ((t = parser.nextToken()) != null && t != JsonToken.NOT_AVAILABLE) {
        token(t);
        if (complete) {
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      invalid = e.getClass().getSimpleName();
    }
  }

  private void token(JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT, START_ARRAY -> {
        if (depth == 0 && t != JsonToken.START_OBJECT) {
          invalid = "not a JSON object";
          return;
        }
        if (depth == 1 && "data".equals(field) && t == JsonToken.START_ARRAY) {
          sawData = true;
        } else if (depth == 2 && sawData && "data".equals(field)) {
          dataItems++;
        } else if (depth == 1 && "error".equals(field)) {
          errorObject = true;
        }
        if (depth == 1) {
          inner = null;
        }
        depth++;
      }
      case END_OBJECT, END_ARRAY -> {
        depth--;
        if (depth == 1) {
          field = null;
        } else if (depth == 0) {
          complete = true;
        }
      }
      case FIELD_NAME -> {
        if (depth == 1) {
          field = parser.currentName();
        } else if (depth == 2) {
          inner = parser.currentName();
        }
      }
      default -> scalar(t);
    }
  }

  /** A value: only those at the root or in its {@code usage} and {@code error} objects matter. */
  private void scalar(JsonToken t) throws IOException {
    if (depth == 0) {
      invalid = "not a JSON object";
    } else if (depth == 1) {
      if ("error".equals(field) && t == JsonToken.VALUE_STRING) {
        errorMessage = parser.getText();
      } else if ("object".equals(field) && t == JsonToken.VALUE_STRING) {
        errorObject |= "error".equals(parser.getText());
      } else if ("message".equals(field) && t == JsonToken.VALUE_STRING) {
        errorMessage = errorMessage == null ? parser.getText() : errorMessage;
      }
      field = null;
    } else if (depth == 2) {
      if ("usage".equals(field)
          && "prompt_tokens".equals(inner)
          && t == JsonToken.VALUE_NUMBER_INT) {
        promptTokens = parser.getIntValue();
      } else if ("error".equals(field) && "message".equals(inner) && t.isScalarValue()) {
        errorMessage = parser.getText();
      }
    }
  }

  /**
   * Why the body, now ended, is no usable embeddings answer; null when it is one: a JSON object
   * with a {@code data} array and no error.
   */
  String failure() {
    if (invalid != null && !complete) {
      return "HTTP 200 body is not JSON"
          + (invalid.startsWith("not ") ? " (" + invalid + ")" : "")
          + quoted();
    }
    if (!complete) {
      return "HTTP 200 body ended before its JSON did, after " + bytes + " bytes";
    }
    if (errorObject || errorMessage != null && !sawData) {
      return "error in HTTP 200 body: "
          + (errorMessage == null ? ErrorBody.message(head.text()) : oneLine(errorMessage));
    }
    if (!sawData) {
      return "HTTP 200 body without data" + quoted();
    }
    return null;
  }

  private String quoted() {
    String m = head.message();
    return m.isEmpty() ? "" : ": " + m;
  }

  private static String oneLine(String s) {
    return ChunkInspector.oneLine(s, ErrorBody.MAX_MESSAGE);
  }

  /** How many bytes of body were read. */
  long bytes() {
    return bytes;
  }

  /** {@code usage.prompt_tokens}, null when the body had none. */
  Integer promptTokens() {
    return promptTokens;
  }

  /** How many items {@code data} held (one per input). */
  int dataItems() {
    return dataItems;
  }

  /**
   * The answer as the records read a stream: one arrival, the body's end (so TTFT = E2EL, as vLLM
   * sets them for a pooling request), the prompt tokens, and 0 output tokens.
   */
  ParsedStream result(long endNanos) {
    return new ParsedStream(new long[] {endNanos}, 1, promptTokens, 0, true, failure());
  }
}
