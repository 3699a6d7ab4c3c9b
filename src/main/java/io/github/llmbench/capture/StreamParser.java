package io.github.llmbench.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.ServerTimings;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the SSE events of one OpenAI-compatible streaming response (chat or completions).
 *
 * <p>A chunk "carries text" when its first choice has non-empty {@code delta.content} (chat),
 * {@code delta.reasoning_content} / {@code delta.reasoning} (reasoning models), or {@code text}
 * (completions). vLLM's role chunk ({@code "content":""}) and llama.cpp's {@code "content":null}
 * or empty {@code delta:{}} carry none. Usage is taken from the last chunk that has a {@code
 * usage} object (vLLM and llama.cpp's chat: a final chunk with {@code "choices":[]}; llama.cpp's
 * completions: the finish chunk, {@code "text":""}). llama.cpp's {@code timings} object (final
 * chunk) is kept as {@link ServerTimings}. Pure function: no I/O, no clock.
 */
public final class StreamParser {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATA_KEY = "\"data\":";

  private StreamParser() {}

  /** Parses events in arrival order. The first problem found ends parsing and is reported. */
  public static ParsedStream parse(List<TimedMessage> messages) {
    List<Long> arrivals = new ArrayList<>();
    Integer prompt = null;
    Integer completion = null;
    boolean done = false;
    ServerTimings timings = null;
    for (TimedMessage m : messages) {
      String data = data(m.message());
      if (data == null || data.isEmpty()) {
        continue; // an event without data (a comment-only or event-only frame)
      }
      if (data.equals("[DONE]")) {
        done = true;
        continue;
      }
      JsonNode chunk;
      try {
        chunk = JSON.readTree(data);
      } catch (JsonProcessingException e) {
        chunk = null;
      }
      if (chunk == null || !chunk.isObject()) {
        return new ParsedStream(arrivals, prompt, completion, done, "invalid JSON chunk: " + abbreviate(data), timings);
      }
      JsonNode error = chunk.get("error");
      if (error != null && !error.isNull()) {
        return new ParsedStream(arrivals, prompt, completion, done, "error event: " + errorText(error), timings);
      }
      JsonNode usage = chunk.get("usage");
      if (usage != null && usage.isObject()) {
        prompt = intOrNull(usage.get("prompt_tokens"));
        completion = intOrNull(usage.get("completion_tokens"));
      }
      JsonNode t = chunk.get("timings");
      if (t != null && t.isObject()) {
        timings = timings(t);
      }
      if (carriesText(chunk)) {
        arrivals.add(m.arrivalMs());
      }
    }
    return new ParsedStream(arrivals, prompt, completion, done, null, timings);
  }

  private static ServerTimings timings(JsonNode t) {
    return new ServerTimings(
        intOrNull(t.get("prompt_n")),
        doubleOrNull(t.get("prompt_ms")),
        intOrNull(t.get("predicted_n")),
        doubleOrNull(t.get("predicted_ms")),
        doubleOrNull(t.get("predicted_per_token_ms")));
  }

  private static Double doubleOrNull(JsonNode n) {
    return n != null && n.isNumber() ? n.asDouble() : null;
  }

  /**
   * The raw {@code data} of a Gatling-rendered SSE event, or null when it has none. Gatling writes
   * {@code {"event":"..","id":"..","data":<data>,"retry":n}}: data that looks like a JSON object or
   * array is inserted as is (so {@code [DONE]} arrives as {@code {"data":[DONE]}}), anything else
   * as a JSON string.
   */
  static String data(String message) {
    int at = message.indexOf(DATA_KEY);
    if (at < 0) {
      return null;
    }
    int end = message.length() - 1; // the closing brace
    int retry = message.lastIndexOf(",\"retry\":");
    if (retry > at) {
      end = retry;
    }
    String raw = message.substring(at + DATA_KEY.length(), end);
    if (raw.startsWith("\"")) {
      try {
        return JSON.readValue(raw, String.class);
      } catch (JsonProcessingException e) {
        return raw;
      }
    }
    return raw;
  }

  /**
   * Why the event that ended the await is not a clean end, or null when it is {@code [DONE]}.
   * Gives the same reason as {@link #parse} would for that event.
   */
  public static String endFailure(String message) {
    if ("[DONE]".equals(data(message))) {
      return null;
    }
    String error = parse(List.of(new TimedMessage(0, message))).error();
    return error != null ? error : "stream ended with " + abbreviate(message);
  }

  private static boolean carriesText(JsonNode chunk) {
    JsonNode choices = chunk.get("choices");
    if (choices == null || !choices.isArray() || choices.isEmpty()) {
      return false;
    }
    JsonNode choice = choices.get(0);
    JsonNode delta = choice.get("delta");
    if (delta != null && delta.isObject()) {
      return nonEmpty(delta.get("content"))
          || nonEmpty(delta.get("reasoning_content"))
          || nonEmpty(delta.get("reasoning"));
    }
    return nonEmpty(choice.get("text"));
  }

  private static boolean nonEmpty(JsonNode n) {
    return n != null && n.isTextual() && !n.asText().isEmpty();
  }

  private static Integer intOrNull(JsonNode n) {
    return n != null && n.canConvertToInt() ? n.asInt() : null;
  }

  private static String errorText(JsonNode error) {
    if (error.isObject()) {
      JsonNode msg = error.get("message");
      JsonNode code = error.get("code");
      String text = msg != null && !msg.isNull() ? msg.asText() : error.toString();
      return abbreviate(code != null && !code.isNull() ? text + " (code " + code.asText() + ")" : text);
    }
    return abbreviate(error.asText());
  }

  static String abbreviate(String s) {
    String oneLine = s.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 160 ? oneLine : oneLine.substring(0, 157) + "...";
  }
}
