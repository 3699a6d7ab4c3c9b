package io.github.llmbench.workload.sessions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One call of an agent session: its messages (which may quote earlier calls), the calls it waits
 * for and how long after them it is sent, and what it asks of the server beyond the run's settings.
 *
 * @param id its name within the session
 * @param after the calls it waits for (empty: sent at the session's start, after {@code delay})
 * @param delay the wait after the last of {@code after} ended: the agent's own time, or a tool's
 * @param context the call whose conversation (its messages and answer) this one continues, or null
 * @param messages its own messages, after {@code context}'s
 * @param maxTokens its {@code max_tokens}, or 0 for the run's {@code -Doutput.len}
 * @param model the model to ask, or null for the run's
 * @param tools the tools offered (OpenAI's {@code tools} array, as parsed JSON), empty for none
 * @param headers HTTP headers of its own
 * @param body other fields of its request body ({@code temperature}, {@code tool_choice}, ...)
 * @param toolLoop what happens when it answers with tool calls
 */
public record SessionCall(
    String id,
    List<String> after,
    Delay delay,
    String context,
    List<MessageTemplate> messages,
    int maxTokens,
    String model,
    List<Object> tools,
    Map<String, String> headers,
    Map<String, Object> body,
    ToolLoop toolLoop) {

  public SessionCall {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("a call needs an id");
    }
    after = List.copyOf(after);
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    headers = Map.copyOf(headers);
    body = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(body));
    if (maxTokens < 0) {
      throw new IllegalArgumentException("max_tokens cannot be negative: " + maxTokens);
    }
  }

  /** The calls whose outcome it needs when it is sent: its context and those it quotes. */
  public Set<String> needs() {
    Set<String> out = new LinkedHashSet<>();
    if (context != null) {
      out.add(context);
    }
    messages.forEach(m -> out.addAll(m.quotedCalls()));
    return out;
  }

  public static Builder builder(String id) {
    return new Builder(id);
  }

  /** Builds a call by name; unset fields are empty. */
  public static final class Builder {
    private final String id;
    private final List<String> after = new ArrayList<>();
    private Delay delay = Delay.NONE;
    private String context;
    private final List<MessageTemplate> messages = new ArrayList<>();
    private int maxTokens;
    private String model;
    private final List<Object> tools = new ArrayList<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, Object> body = new LinkedHashMap<>();
    private ToolLoop toolLoop = ToolLoop.NONE;

    private Builder(String id) {
      this.id = id;
    }

    public Builder after(String... ids) {
      return after(List.of(ids));
    }

    public Builder after(List<String> ids) {
      after.addAll(ids);
      return this;
    }

    public Builder delay(Delay d) {
      delay = d;
      return this;
    }

    public Builder context(String call) {
      context = call;
      return this;
    }

    public Builder message(MessageTemplate m) {
      messages.add(m);
      return this;
    }

    /** A user message, its quotes parsed. */
    public Builder user(String content) {
      return message(MessageTemplate.parse("user", content));
    }

    public Builder maxTokens(int n) {
      maxTokens = n;
      return this;
    }

    public Builder model(String m) {
      model = m;
      return this;
    }

    public Builder tools(List<?> t) {
      tools.addAll(t);
      return this;
    }

    public Builder header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    public Builder bodyField(String name, Object value) {
      body.put(name, value);
      return this;
    }

    public Builder toolLoop(ToolLoop t) {
      toolLoop = t;
      return this;
    }

    public SessionCall build() {
      return new SessionCall(
          id, after, delay, context, messages, maxTokens, model, tools, headers, body, toolLoop);
    }
  }
}
