package io.github.llmbench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Requests as Gatling feeder records and back: {@code prompt} (text) or {@code messages} (OpenAI
 * chat messages), {@code max_tokens}, {@code profile} when there is one and {@code input_tokens}
 * when known. Records from the user's own feeders ({@code csv(...)}, {@code jsonFile(...)}) come as
 * strings or JSON values; both are read.
 */
public final class FeederRecords {
  public static final String PROMPT = "prompt";
  public static final String MESSAGES = "messages";
  public static final String MAX_TOKENS = "max_tokens";
  public static final String PROFILE = "profile";
  public static final String INPUT_TOKENS = "input_tokens";

  private static final ObjectMapper JSON = new ObjectMapper();

  private FeederRecords() {}

  /** A request as a feeder record. */
  public static Map<String, Object> of(RequestSpec r) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (r.messages() != null) {
      List<Map<String, Object>> messages = new ArrayList<>();
      r.messages()
          .forEach(
              msg -> messages.add(Map.of("role", msg.role(), "content", MessageContent.of(msg))));
      m.put(MESSAGES, messages);
    } else {
      m.put(PROMPT, r.prompt());
    }
    m.put(MAX_TOKENS, r.maxTokens());
    if (r.profile() != null) {
      m.put(PROFILE, r.profile());
    }
    if (r.promptTokens() >= 0) {
      m.put(INPUT_TOKENS, r.promptTokens());
    }
    return m;
  }

  /**
   * The request a session's attributes describe.
   *
   * @param attribute the session's attribute of a name, or null
   * @param defaultMaxTokens {@code max_tokens} when the record has none ({@code -Doutput.len})
   * @throws DatasetException naming what is wrong (the request then fails with that reason)
   */
  public static RequestSpec read(Function<String, Object> attribute, int defaultMaxTokens) {
    Object prompt = attribute.apply(PROMPT);
    Object messages = attribute.apply(MESSAGES);
    int maxTokens = maxTokens(attribute.apply(MAX_TOKENS), defaultMaxTokens);
    Object profile = attribute.apply(PROFILE);
    String profileName = profile == null ? null : profile.toString();
    if (messages != null) {
      return new RequestSpec(
          null,
          messages(messages),
          maxTokens,
          profileName,
          inputTokens(attribute.apply(INPUT_TOKENS)));
    }
    if (prompt == null || prompt.toString().isEmpty()) {
      throw new DatasetException(
          "a feeder record has neither 'prompt' nor 'messages' (expected one of them, and optionally max_tokens)");
    }
    return new RequestSpec(
        prompt.toString(),
        null,
        maxTokens,
        profileName,
        inputTokens(attribute.apply(INPUT_TOKENS)));
  }

  private static int maxTokens(Object raw, int defaultMaxTokens) {
    if (raw == null || raw.toString().isBlank()) {
      return defaultMaxTokens;
    }
    // read as a long (a JSON feeder's number may be one): never wrapped into range
    String text = raw.toString().trim();
    if (raw instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      text = Long.toString(n.longValue());
    }
    return TokenLengths.parse(text, 1)
        .orElseThrow(
            () ->
                new DatasetException(
                    "a feeder record has max_tokens="
                        + raw
                        + " (expected "
                        + TokenLengths.accepted(1)
                        + ")"));
  }

  private static int inputTokens(Object raw) {
    if (raw instanceof Number n) {
      return n.intValue();
    }
    try {
      return raw == null ? -1 : Integer.parseInt(raw.toString().trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static List<RequestSpec.ChatMessage> messages(Object raw) {
    List<RequestSpec.ChatMessage> out = new ArrayList<>();
    // a list as of() writes them and jsonFile(...) feeders read them, or a CSV column's JSON text
    JsonNode node =
        raw instanceof String text
            ? parse(text)
            : raw instanceof List<?> ? JSON.valueToTree(raw) : null;
    if (node != null && node.isArray()) {
      for (JsonNode m : node) {
        RequestSpec.ChatMessage message =
            m.path("role").isTextual()
                ? MessageContent.read(m.get("role").asText(), m.get("content"))
                : null;
        if (message == null) {
          out.clear();
          break;
        }
        out.add(message);
      }
    }
    if (out.isEmpty()) {
      throw new DatasetException(
          "a feeder record's messages are not a list of {\"role\",\"content\"} objects, the"
              + " content "
              + MessageContent.ACCEPTED);
    }
    return out;
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }
}
