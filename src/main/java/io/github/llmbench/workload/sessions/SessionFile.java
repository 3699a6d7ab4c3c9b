package io.github.llmbench.workload.sessions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.workload.DatasetException;
import io.github.llmbench.workload.DatasetFiles;
import io.github.llmbench.workload.TokenLengths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A session file ({@code -Ddataset=sessions:PATH}): JSON lines, one agent session a line, {@code
 * {"session": "review-1", "calls": [...]}}. Read whole before any load; a bad line stops the run
 * with one line naming the file, the line, the call, the field, its value and what is accepted. The
 * format is in {@code docs/sessions.md}.
 */
public final class SessionFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The fields a call may have. */
  static final List<String> CALL_FIELDS =
      List.of(
          "id",
          "after",
          "delay_ms",
          "context",
          "prompt",
          "messages",
          "max_tokens",
          "model",
          "tools",
          "headers",
          "body",
          "tool_rounds",
          "tool_result",
          "tool_ms");

  /** Body fields the kit writes itself, or that have a field of their own. */
  private static final Map<String, String> RESERVED_BODY =
      Map.of(
          "messages", "the call's \"messages\"",
          "prompt", "the call's \"prompt\"",
          "stream", "the kit (it always streams)",
          "stream_options", "the kit (it asks for usage)",
          "model", "the call's \"model\"",
          "max_tokens", "the call's \"max_tokens\"",
          "tools", "the call's \"tools\"");

  private SessionFile() {}

  /**
   * The sessions of {@code file}.
   *
   * @throws DatasetException naming the file and line and what is wrong, or a file without any
   *     session
   */
  public static List<AgentSession> read(Path file) {
    String where = "-Ddataset=sessions:" + file;
    List<String> lines = DatasetFiles.text(file, where).lines().toList();
    List<AgentSession> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      String at = "Malformed sessions " + file + " line " + (i + 1);
      AgentSession s;
      try {
        s = session(line, "line-" + (i + 1));
      } catch (IllegalArgumentException e) {
        throw new DatasetException(at + ": " + e.getMessage());
      }
      if (!ids.add(s.id())) {
        throw new DatasetException(
            at + ": session \"" + s.id() + "\" is named twice (expected unique names)");
      }
      out.add(s);
    }
    if (out.isEmpty()) {
      throw new DatasetException("Invalid " + where + ": it holds no session");
    }
    return List.copyOf(out);
  }

  /** One line's session; {@code defaultId} names it when the line does not. */
  public static AgentSession session(String line, String defaultId) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a JSON object");
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String name = field.getKey();
      if (!name.equals("session") && !name.equals("calls")) {
        throw new IllegalArgumentException(
            "unknown field \"" + name + "\" (a line holds \"session\" and \"calls\")");
      }
    }
    String id = defaultId;
    JsonNode sid = node.get("session");
    if (sid != null) {
      if (!sid.isTextual() || sid.asText().isBlank()) {
        throw new IllegalArgumentException(
            "\"session\" is " + sid + " (expected the session's name, a string)");
      }
      id = sid.asText();
    }
    JsonNode calls = node.get("calls");
    if (calls == null || !calls.isArray() || calls.isEmpty()) {
      throw new IllegalArgumentException(
          "session \""
              + id
              + "\": \"calls\" is "
              + (calls == null ? "missing" : calls.toString())
              + " (expected a non-empty array of calls)");
    }
    List<SessionCall> parsed = new ArrayList<>();
    for (int j = 0; j < calls.size(); j++) {
      parsed.add(call(calls.get(j), "session \"" + id + "\" call " + (j + 1)));
    }
    try {
      return new AgentSession(id, parsed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("session \"" + id + "\": " + e.getMessage());
    }
  }

  private static SessionCall call(JsonNode c, String where) {
    if (!c.isObject()) {
      throw new IllegalArgumentException(where + " is " + c + " (expected an object)");
    }
    JsonNode idNode = c.get("id");
    if (idNode == null || !idNode.isTextual() || idNode.asText().isBlank()) {
      throw new IllegalArgumentException(
          where + ": \"id\" is " + (idNode == null ? "missing" : idNode) + " (expected a name)");
    }
    String id = idNode.asText();
    String at = where.replaceFirst(" call \\d+$", "") + " call \"" + id + "\"";
    for (Map.Entry<String, JsonNode> field : c.properties()) {
      String name = field.getKey();
      if (!CALL_FIELDS.contains(name)) {
        throw new IllegalArgumentException(
            at
                + ": unknown field \""
                + name
                + "\" (expected "
                + String.join(", ", CALL_FIELDS)
                + ")");
      }
    }
    SessionCall.Builder b = SessionCall.builder(id);
    after(c.get("after"), at, b);
    b.delay(Delay.parse(c.get("delay_ms"), at + ": \"delay_ms\""));
    JsonNode context = c.get("context");
    if (context != null) {
      if (!context.isTextual()) {
        throw new IllegalArgumentException(
            at + ": \"context\" is " + context + " (expected the id of a call it waits for)");
      }
      b.context(context.asText());
    }
    messages(c, at, b);
    if (c.has("max_tokens")) {
      b.maxTokens(length(c, "max_tokens", at));
    }
    JsonNode model = c.get("model");
    if (model != null) {
      if (!model.isTextual() || model.asText().isBlank()) {
        throw new IllegalArgumentException(
            at + ": \"model\" is " + model + " (expected a model's name)");
      }
      b.model(model.asText());
    }
    JsonNode tools = c.get("tools");
    tools(tools, at, b);
    headers(c.get("headers"), at, b);
    body(c.get("body"), at, b);
    b.toolLoop(toolLoop(c, tools != null, at));
    return b.build();
  }

  private static void after(JsonNode after, String at, SessionCall.Builder b) {
    if (after == null) {
      return;
    }
    if (after.isTextual()) {
      b.after(after.asText());
      return;
    }
    if (!after.isArray()) {
      throw new IllegalArgumentException(
          at + ": \"after\" is " + after + " (expected a call's id or an array of ids)");
    }
    for (JsonNode p : after) {
      if (!p.isTextual()) {
        throw new IllegalArgumentException(
            at + ": \"after\" is " + after + " (expected a call's id or an array of ids)");
      }
      b.after(p.asText());
    }
  }

  private static void tools(JsonNode tools, String at, SessionCall.Builder b) {
    if (tools == null) {
      return;
    }
    if (!tools.isArray() || tools.isEmpty()) {
      throw new IllegalArgumentException(
          at + ": \"tools\" is " + tools + " (expected OpenAI's tools array, not empty)");
    }
    for (JsonNode t : tools) {
      if (!t.isObject() || !t.path("function").path("name").isTextual()) {
        throw new IllegalArgumentException(
            at
                + ": \"tools\" holds "
                + t
                + " (expected {\"type\":\"function\",\"function\":{\"name\":...}})");
      }
    }
    b.tools(List.of(JSON.convertValue(tools, Object[].class)));
  }

  private static void messages(JsonNode c, String at, SessionCall.Builder b) {
    JsonNode prompt = c.get("prompt");
    JsonNode messages = c.get("messages");
    if (prompt != null && messages != null) {
      throw new IllegalArgumentException(
          at + ": both \"prompt\" and \"messages\" (expected one of them)");
    }
    if (prompt != null) {
      if (!prompt.isTextual()) {
        throw new IllegalArgumentException(
            at + ": \"prompt\" is " + prompt + " (expected the user's text)");
      }
      b.message(template("user", prompt.asText(), at + ": \"prompt\""));
      return;
    }
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException(
          at
              + ": "
              + (messages == null ? "no \"prompt\" or \"messages\"" : "\"messages\" is " + messages)
              + " (expected \"prompt\": text, or \"messages\": a non-empty array)");
    }
    for (int k = 0; k < messages.size(); k++) {
      JsonNode m = messages.get(k);
      String mAt = at + ": message " + (k + 1);
      if (!m.isObject() || !m.path("role").isTextual()) {
        throw new IllegalArgumentException(
            mAt + " is " + m + " (expected {\"role\": ..., \"content\": text})");
      }
      String role = m.get("role").asText();
      if (!MessageTemplate.ROLES.contains(role)) {
        throw new IllegalArgumentException(
            mAt
                + ": \"role\" is \""
                + role
                + "\" (expected "
                + String.join(", ", MessageTemplate.ROLES)
                + ")");
      }
      JsonNode answerOf = m.get("answer_of");
      JsonNode content = m.get("content");
      if (answerOf != null) {
        if (!answerOf.isTextual() || content != null || !role.equals("assistant")) {
          throw new IllegalArgumentException(
              mAt
                  + " is "
                  + m
                  + " (expected {\"role\":\"assistant\",\"answer_of\":ID}, without content)");
        }
        b.message(MessageTemplate.answerOf(answerOf.asText()));
      } else if (content == null || !content.isTextual()) {
        throw new IllegalArgumentException(
            mAt + ": \"content\" is " + content + " (expected text)");
      } else {
        b.message(template(role, content.asText(), mAt));
      }
    }
  }

  private static MessageTemplate template(String role, String content, String at) {
    try {
      return MessageTemplate.parse(role, content);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + " " + e.getMessage());
    }
  }

  private static void headers(JsonNode h, String at, SessionCall.Builder b) {
    if (h == null) {
      return;
    }
    if (!h.isObject()) {
      throw new IllegalArgumentException(
          at + ": \"headers\" is not an object (expected {\"Name\": \"value\"})");
    }
    for (Map.Entry<String, JsonNode> e : h.properties()) {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      if (name.equals("x-request-id")
          || name.equals("content-type")
          || name.equals("content-length")) {
        throw new IllegalArgumentException(
            at + ": header \"" + e.getKey() + "\" is the kit's own (expected other headers)");
      }
      if (!e.getValue().isTextual()) {
        // the value is not echoed: a header may hold a secret
        throw new IllegalArgumentException(
            at + ": header \"" + e.getKey() + "\" is not a string (expected text values)");
      }
      b.header(e.getKey(), e.getValue().asText());
    }
  }

  private static void body(JsonNode body, String at, SessionCall.Builder b) {
    if (body == null) {
      return;
    }
    if (!body.isObject()) {
      throw new IllegalArgumentException(
          at + ": \"body\" is " + body + " (expected an object of request fields)");
    }
    for (Map.Entry<String, JsonNode> e : body.properties()) {
      String owner = RESERVED_BODY.get(e.getKey());
      if (owner != null) {
        throw new IllegalArgumentException(
            at + ": \"body\" sets \"" + e.getKey() + "\" (set by " + owner + ")");
      }
      b.bodyField(e.getKey(), JSON.convertValue(e.getValue(), Object.class));
    }
  }

  /** A length in tokens: {@link TokenLengths}' range, the message naming the call. */
  private static int length(JsonNode node, String field, String at) {
    try {
      return TokenLengths.field(node, field, 1);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + ": " + e.getMessage());
    }
  }

  private static ToolLoop toolLoop(JsonNode c, boolean hasTools, String at) {
    JsonNode rounds = c.get("tool_rounds");
    JsonNode result = c.get("tool_result");
    JsonNode time = c.get("tool_ms");
    if (!hasTools) {
      for (String f : List.of("tool_rounds", "tool_result", "tool_ms")) {
        if (c.has(f)) {
          throw new IllegalArgumentException(
              at + ": \"" + f + "\" without \"tools\" (a tool round needs tools to call)");
        }
      }
      return ToolLoop.NONE;
    }
    int n = ToolLoop.DEFAULT_ROUNDS;
    if (rounds != null) {
      if (!rounds.isIntegralNumber() || !rounds.canConvertToInt() || rounds.asInt() < 0) {
        throw new IllegalArgumentException(
            at + ": \"tool_rounds\" is " + rounds + " (expected a whole number from 0)");
      }
      n = rounds.asInt();
    }
    String text = null;
    int tokens = ToolLoop.DEFAULT_RESULT_TOKENS;
    if (result != null) {
      if (result.isTextual()) {
        text = result.asText();
      } else if (result.isObject() && result.size() == 1 && result.has("tokens")) {
        tokens = length(result, "tokens", at + ": \"tool_result\"");
      } else {
        throw new IllegalArgumentException(
            at
                + ": \"tool_result\" is "
                + result
                + " (expected the tool's answer as text, or {\"tokens\": N} for a synthetic one)");
      }
    }
    Delay toolTime = Delay.parse(time, at + ": \"tool_ms\"");
    return new ToolLoop(n, text, tokens, toolTime);
  }
}
