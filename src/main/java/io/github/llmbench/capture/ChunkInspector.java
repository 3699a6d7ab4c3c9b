package io.github.llmbench.capture;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.ServerTimings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads what the metrics need from one SSE event's data of an OpenAI-compatible stream (chat or
 * completions), with Jackson's streaming parser: no tree per chunk, values the kit does not need
 * are skipped unread.
 *
 * <p>A chunk "carries text" when its first choice has non-empty {@code delta.content} (chat),
 * {@code delta.reasoning_content} / {@code delta.reasoning} (reasoning models), a piece of a tool
 * call ({@code delta.tool_calls[].function.name} or {@code .arguments}: answer, not reasoning), or,
 * when it has no {@code delta} object, non-empty {@code text} (completions). vLLM's role chunk
 * ({@code "content":""}) and llama.cpp's {@code "content":null} or empty {@code delta:{}} carry
 * none. Usage is taken from any chunk with a {@code usage} object (vLLM and llama.cpp's chat: a
 * final chunk with {@code "choices":[]}; llama.cpp's completions: the finish chunk). llama.cpp's
 * {@code timings} object (final chunk) is kept as {@link ServerTimings}. An {@code error} member
 * that is not null makes the chunk an error event (vLLM's errors after the stream started come that
 * way, with HTTP 200). The Responses API's typed events are read too ({@link #responsesEvent}).
 */
final class ChunkInspector {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

  /** What one event said; reset before each event. */
  static final class Facts {
    boolean done;
    boolean text;

    /** Whether its text was answer ({@code content}, {@code text}), not only reasoning. */
    boolean outputText;

    boolean hasUsage;
    Integer reasoningTokens;

    /** {@code prompt_tokens_details.cached_tokens}, else llama.cpp's {@code timings.cache_n}. */
    Integer cachedTokens;

    Integer promptTokens;
    Integer completionTokens;
    ServerTimings timings;
    String error;

    /** The first choice's {@code finish_reason}, when not null. */
    String finishReason;

    /** Where the generated text goes (multi-turn runs send it back), or null: not kept. */
    StringBuilder answer;

    /** Where the thinking text goes (counted where the usage does not), or null: not kept. */
    StringBuilder reasoning;

    /** Where the tool calls' pieces go (agent sessions send them back), or null: not kept. */
    ToolCallParts toolCalls;

    /** A Responses event's {@code delta}, read before its {@code type} may say what it is. */
    final StringBuilder delta = new StringBuilder();

    void reset() {
      done = false;
      text = false;
      outputText = false;
      hasUsage = false;
      reasoningTokens = null;
      cachedTokens = null;
      promptTokens = null;
      completionTokens = null;
      timings = null;
      error = null;
      finishReason = null;
    }
  }

  private ChunkInspector() {}

  static boolean isDone(byte[] data, int length) {
    int from = 0;
    int to = length;
    while (from < to && isSpace(data[from])) {
      from++;
    }
    while (to > from && isSpace(data[to - 1])) {
      to--;
    }
    if (to - from != DONE.length) {
      return false;
    }
    for (int i = 0; i < DONE.length; i++) {
      if (data[from + i] != DONE[i]) {
        return false;
      }
    }
    return true;
  }

  /** Fills {@code facts} from one event's data. */
  static void inspect(byte[] data, int length, Facts facts) {
    facts.reset();
    if (isDone(data, length)) {
      facts.done = true;
      return;
    }
    try (JsonParser p = JSON.getFactory().createParser(data, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        facts.error = invalid(data, length);
        return;
      }
      // the Responses API's events: their type, in any order with what it qualifies
      String type = null;
      boolean delta = false;
      JsonNode response = null;
      String message = null;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "type" -> type = stringOr(p, value, type);
          case "delta" -> delta |= readDelta(p, value, facts);
          case "response" -> response = objectOr(p, value, response);
          case "message" -> message = stringOr(p, value, message);
          case "choices" -> readChoices(p, value, facts);
          case "usage" -> readUsage(p, value, facts);
          case "error" -> readError(p, value, facts);
          case "timings" -> readTimings(p, value, facts);
          default -> p.skipChildren();
        }
      }
      if (t != JsonToken.END_OBJECT) {
        facts.error = invalid(data, length);
      } else if (type != null && facts.error == null) {
        responsesEvent(type, delta, response, message, facts);
      }
    } catch (IOException | RuntimeException e) {
      facts.error = invalid(data, length);
    }
  }

  // One step per member of an event, each reading its value (the parser is on it) to its end.
  // Plain static methods on the per-chunk path: no object, no lambda per chunk.

  /** A string member's text; any other value is skipped and {@code current} kept. */
  private static String stringOr(JsonParser p, JsonToken value, String current) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return current;
  }

  /** An object member as a tree; any other value is skipped and {@code current} kept. */
  private static JsonNode objectOr(JsonParser p, JsonToken value, JsonNode current)
      throws IOException {
    if (value == JsonToken.START_OBJECT) {
      return p.readValueAsTree();
    }
    p.skipChildren();
    return current;
  }

  /**
   * A Responses event's {@code delta}: a string is copied into {@code facts.delta} (its {@code
   * type} may come after it); returns whether it was one.
   */
  private static boolean readDelta(JsonParser p, JsonToken value, Facts facts) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      facts.delta.setLength(0);
      facts.delta.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      return true;
    }
    p.skipChildren();
    return false;
  }

  /** {@code choices}: the first choice's text and finish reason; further choices are skipped. */
  private static void readChoices(JsonParser p, JsonToken value, Facts facts) throws IOException {
    if (value == JsonToken.START_ARRAY) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.END_ARRAY) {
        if (first == JsonToken.START_OBJECT) {
          facts.text = firstChoiceCarriesText(p, facts);
        } else {
          p.skipChildren();
        }
        skipRestOfArray(p); // further choices (n > 1) are not measured
      }
    } else {
      p.skipChildren();
    }
  }

  /** {@code usage}: an object holds the token counts. */
  private static void readUsage(JsonParser p, JsonToken value, Facts facts) throws IOException {
    if (value == JsonToken.START_OBJECT) {
      facts.hasUsage = true;
      readUsageFields(p, facts);
    }
  }

  /** {@code error}: anything but null makes the chunk an error event. */
  private static void readError(JsonParser p, JsonToken value, Facts facts) throws IOException {
    if (value != JsonToken.VALUE_NULL) {
      facts.error = "error event: " + errorText(p.readValueAsTree());
    }
  }

  /** {@code timings}: llama.cpp's server-side timings. */
  private static void readTimings(JsonParser p, JsonToken value, Facts facts) throws IOException {
    if (value == JsonToken.START_OBJECT) {
      JsonNode tree = p.readValueAsTree();
      facts.timings = timings(tree);
      if (facts.cachedTokens == null) {
        facts.cachedTokens = intOrNull(tree.get("cache_n"));
      }
    } else {
      p.skipChildren();
    }
  }

  /**
   * One event of the Responses API ({@code /v1/responses}): an output text, function-call or
   * reasoning delta carries text as a chat delta does; {@code response.completed} and {@code
   * response.incomplete} end the stream (as {@code [DONE]}) with the usage ({@code input_tokens},
   * {@code output_tokens}, {@code output_tokens_details.reasoning_tokens}) and a finish reason
   * ({@code stop}, or {@code length} when it stopped at {@code max_output_tokens}); {@code
   * response.failed} and {@code error} events are errors. Other events (created, in progress, item
   * and part boundaries) carry nothing the metrics need.
   */
  private static void responsesEvent(
      String type, boolean delta, JsonNode response, String message, Facts facts) {
    switch (type) {
      case "response.output_text.delta", "response.function_call_arguments.delta" -> {
        if (delta && facts.delta.length() > 0) {
          facts.text = true;
          facts.outputText = true;
          if (facts.answer != null) {
            facts.answer.append(facts.delta);
          }
        }
      }
      case "response.reasoning_text.delta",
          "response.reasoning_summary_text.delta",
          "response.reasoning.delta" -> {
        if (delta && facts.delta.length() > 0) {
          facts.text = true;
          if (facts.reasoning != null) {
            facts.reasoning.append(facts.delta);
          }
        }
      }
      case "response.completed", "response.incomplete" -> {
        facts.done = true;
        if (response == null) {
          return;
        }
        JsonNode usage = response.get("usage");
        if (usage != null && usage.isObject()) {
          facts.hasUsage = true;
          facts.promptTokens = intOrNull(usage.get("input_tokens"));
          facts.completionTokens = intOrNull(usage.get("output_tokens"));
          JsonNode inputDetails = usage.get("input_tokens_details");
          facts.cachedTokens =
              inputDetails == null ? null : intOrNull(inputDetails.get("cached_tokens"));
          JsonNode details = usage.get("output_tokens_details");
          Integer thought = details == null ? null : intOrNull(details.get("reasoning_tokens"));
          // every Responses usage says reasoning_tokens, 0 for a model that does not reason
          facts.reasoningTokens = thought != null && thought == 0 ? null : thought;
        }
        JsonNode incomplete = response.get("incomplete_details");
        String reason =
            incomplete != null && incomplete.isObject() && incomplete.hasNonNull("reason")
                ? incomplete.get("reason").asText()
                : null;
        facts.finishReason =
            reason == null
                ? (type.equals("response.completed") ? "stop" : null)
                : reason.equals("max_output_tokens") ? "length" : reason;
      }
      case "response.failed" -> {
        JsonNode error = response == null ? null : response.get("error");
        facts.error =
            "response failed: "
                + (error == null || error.isNull() ? "no error given" : errorText(error));
      }
      case "error" -> facts.error = "error event: " + abbreviate(message == null ? type : message);
      default -> {
        // lifecycle and boundary events
      }
    }
  }

  /**
   * Reads the first choice object (the parser is on its START_OBJECT) up to its END_OBJECT,
   * appending its generated text ({@code delta.content} or {@code text}; not the reasoning, which a
   * chat's history leaves out) to {@code answer} when that is not null.
   */
  private static boolean firstChoiceCarriesText(JsonParser p, Facts facts) throws IOException {
    StringBuilder answer = facts.answer;
    boolean deltaObject = false;
    boolean deltaText = false;
    boolean deltaContent = false;
    boolean plainText = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (name.equals("delta") && value == JsonToken.START_OBJECT) {
        deltaObject = true;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken v = p.nextToken();
          if (v == JsonToken.VALUE_STRING
              && (field.equals("content")
                  || field.equals("reasoning_content")
                  || field.equals("reasoning"))) {
            deltaText |= p.getTextLength() > 0;
            deltaContent |= field.equals("content") && p.getTextLength() > 0;
            if (answer != null && field.equals("content")) {
              answer.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            } else if (facts.reasoning != null && !field.equals("content")) {
              facts.reasoning.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            }
          } else if (field.equals("tool_calls") && v == JsonToken.START_ARRAY) {
            boolean called = toolCallsCarryText(p, answer, facts.toolCalls);
            deltaText |= called;
            deltaContent |= called;
          } else {
            p.skipChildren();
          }
        }
      } else if (name.equals("finish_reason") && value == JsonToken.VALUE_STRING) {
        facts.finishReason = p.getText();
      } else if (name.equals("text") && value == JsonToken.VALUE_STRING) {
        plainText = p.getTextLength() > 0;
        if (answer != null && !deltaObject) {
          answer.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        }
      } else {
        p.skipChildren();
      }
    }
    facts.outputText = deltaObject ? deltaContent : plainText;
    return deltaObject ? deltaText : plainText;
  }

  /**
   * Reads {@code delta.tool_calls} (the parser is on its START_ARRAY) to its END_ARRAY: whether any
   * call carries a piece of its {@code function.name} or {@code function.arguments}, which the
   * model generated as it would an answer's text. Those pieces go to {@code answer} too, so a
   * stream without usage counts their tokens, and with each call's {@code index} and {@code id} to
   * {@code calls} when that is not null.
   */
  private static boolean toolCallsCarryText(JsonParser p, StringBuilder answer, ToolCallParts calls)
      throws IOException {
    boolean text = false;
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      int index = 0;
      String id = null;
      String name = null;
      String arguments = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        if (field.equals("function") && v == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String part = p.currentName();
            JsonToken pv = p.nextToken();
            if (pv == JsonToken.VALUE_STRING && (part.equals("arguments") || part.equals("name"))) {
              text |= p.getTextLength() > 0;
              if (answer != null) {
                answer.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
              }
              if (calls != null && part.equals("name")) {
                name = p.getText();
              } else if (calls != null) {
                arguments = p.getText();
              }
            } else {
              p.skipChildren();
            }
          }
        } else if (calls != null && field.equals("index") && v == JsonToken.VALUE_NUMBER_INT) {
          index = p.getIntValue();
        } else if (calls != null && field.equals("id") && v == JsonToken.VALUE_STRING) {
          id = p.getText();
        } else {
          p.skipChildren();
        }
      }
      if (calls != null) {
        calls.add(index, id, name, arguments);
      }
    }
    return text;
  }

  private static void skipRestOfArray(JsonParser p) throws IOException {
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == null) {
        throw new IOException("end of input inside an array");
      }
      p.skipChildren();
    }
  }

  private static void readUsageFields(JsonParser p, Facts facts) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      if (field.equals("prompt_tokens")) {
        facts.promptTokens = intOrNull(p, v);
      } else if (field.equals("completion_tokens")) {
        facts.completionTokens = intOrNull(p, v);
      } else if (field.equals("prompt_tokens_details") && v == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String detail = p.currentName();
          JsonToken dv = p.nextToken();
          if (detail.equals("cached_tokens")) {
            facts.cachedTokens = intOrNull(p, dv);
          } else {
            p.skipChildren();
          }
        }
      } else if (field.equals("completion_tokens_details") && v == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String detail = p.currentName();
          JsonToken dv = p.nextToken();
          if (detail.equals("reasoning_tokens")) {
            facts.reasoningTokens = intOrNull(p, dv);
          } else {
            p.skipChildren();
          }
        }
      } else {
        p.skipChildren();
      }
    }
  }

  private static Integer intOrNull(JsonParser p, JsonToken v) throws IOException {
    if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
      return p.getIntValue();
    }
    return null;
  }

  private static ServerTimings timings(JsonNode t) {
    return new ServerTimings(
        intOrNull(t.get("prompt_n")),
        doubleOrNull(t.get("prompt_ms")),
        intOrNull(t.get("predicted_n")),
        doubleOrNull(t.get("predicted_ms")),
        doubleOrNull(t.get("predicted_per_token_ms")));
  }

  private static Integer intOrNull(JsonNode n) {
    return n != null && n.canConvertToInt() ? n.asInt() : null;
  }

  private static Double doubleOrNull(JsonNode n) {
    return n != null && n.isNumber() ? n.asDouble() : null;
  }

  /**
   * vLLM's {@code {"message":..,"type":..,"code":..}}: the message, and the code when there is one.
   */
  static String errorText(JsonNode error) {
    if (error == null) {
      return "";
    }
    if (error.isObject()) {
      JsonNode msg = error.get("message");
      JsonNode code = error.get("code");
      String text = msg != null && !msg.isNull() ? msg.asText() : error.toString();
      return abbreviate(
          code != null && !code.isNull() ? text + " (code " + code.asText() + ")" : text);
    }
    return abbreviate(error.asText());
  }

  private static String invalid(byte[] data, int length) {
    int bad = invalidUtf8At(data, length);
    String text = abbreviate(new String(data, 0, length, StandardCharsets.UTF_8));
    return bad < 0
        ? "invalid JSON chunk: " + text
        : String.format(
            Locale.ROOT,
            "invalid UTF-8 in an event (byte 0x%02X at offset %d): %s",
            data[bad] & 0xFF,
            bad,
            text);
  }

  /**
   * Where the first byte that is not part of valid UTF-8 is, or -1 (only read for a failed chunk).
   */
  static int invalidUtf8At(byte[] data, int length) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(data, 0, length);
    CharBuffer out = CharBuffer.allocate(length);
    CoderResult r = decoder.decode(in, out, true);
    if (r.isError()) {
      return in.position();
    }
    r = decoder.flush(out);
    return r.isError() ? in.position() : -1;
  }

  /** One line, at most 160 characters: what a record's {@code error} may hold of a chunk's text. */
  static String abbreviate(String s) {
    return oneLine(s, 160);
  }

  /** A server's text on one line (whitespace runs as one space), cut to {@code max} characters. */
  static String oneLine(String s, int max) {
    String line = s.replaceAll("\\s+", " ").trim();
    return line.length() <= max ? line : line.substring(0, max - 3) + "...";
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }
}
