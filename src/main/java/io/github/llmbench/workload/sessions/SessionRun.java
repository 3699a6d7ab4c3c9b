package io.github.llmbench.workload.sessions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One session as it runs: which calls are due and when, what each sends (its context, its messages
 * with the quotes filled from the answers the server gave, its tool rounds), and what is left. No
 * I/O and no clock: the load calls {@link #start}, sends each {@link Due} call after its delay, and
 * reports each end with {@link #answered} or {@link #failed}, which say what is due next. A failed
 * call's descendants are never sent; the session's other branches go on.
 *
 * <p>Each wait is drawn from a random of the seed, the call and the round, so a session waits the
 * same whatever order its calls end in.
 */
public final class SessionRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A call to send after {@code delayMs}: its round 0, or a tool round. */
  public record Due(String call, int round, double delayMs) {}

  /** A tool call the server streamed. */
  public record ToolCall(String id, String name, String arguments) {}

  /** How a call's round ended well: its text and the tool calls it made (none: an answer). */
  public record Answer(String text, List<ToolCall> toolCalls) {
    public Answer {
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /**
   * What a call's round sends.
   *
   * @param call the call's id
   * @param round 0, or the tool round (from 1)
   * @param step the call's step in its session (1: waits for nothing)
   * @param parents the calls it waited for
   * @param messages the chat messages, quotes and synthetic text filled in
   */
  public record Request(
      String call,
      int round,
      int step,
      List<String> parents,
      List<Map<String, Object>> messages,
      SessionCall spec) {}

  private enum State {
    WAITING,
    DUE,
    DONE,
    FAILED,
    SKIPPED
  }

  private final AgentSession session;
  private final long seed;
  private final MessageTemplate.FillerText filler;
  private final Map<String, Integer> steps;
  private final Map<String, State> states = new HashMap<>();
  private final Map<String, Integer> waitingFor = new HashMap<>();
  private final Map<String, Integer> rounds = new HashMap<>();
  private final Map<String, List<Map<String, Object>>> sent = new HashMap<>();
  private final Map<String, CallOutcome> outcomes = new HashMap<>();

  /**
   * @param seed this session's seed (the run's seed and the session's number)
   * @param filler makes synthetic text of a length
   */
  public SessionRun(AgentSession session, long seed, MessageTemplate.FillerText filler) {
    this.session = session;
    this.seed = seed;
    this.filler = filler;
    this.steps = session.steps();
    for (SessionCall c : session.calls()) {
      states.put(c.id(), State.WAITING);
      waitingFor.put(c.id(), c.after().size());
    }
  }

  public AgentSession session() {
    return session;
  }

  /** The calls that wait for nothing, each after its delay. */
  public List<Due> start() {
    List<Due> out = new ArrayList<>();
    for (SessionCall c : session.roots()) {
      out.add(due(c, 0, c.delay()));
    }
    return out;
  }

  /** What call {@code id} sends in its current round (it must be due). */
  public Request request(String id) {
    require(id, State.DUE);
    SessionCall c = session.call(id);
    int round = rounds.getOrDefault(id, 0);
    List<Map<String, Object>> messages;
    if (round == 0) {
      messages = new ArrayList<>();
      if (c.context() != null) {
        messages.addAll(outcomes.get(c.context()).conversation());
      }
      for (int i = 0; i < c.messages().size(); i++) {
        MessageTemplate m = c.messages().get(i);
        Map<String, Object> msg = new LinkedHashMap<>();
        msg.put("role", m.role());
        msg.put("content", m.render(outcomes::get, filler, ownKey(id) + "/" + i));
        messages.add(msg);
      }
      sent.put(id, List.copyOf(messages));
    } else {
      messages = sent.get(id);
    }
    return new Request(id, round, steps.get(id), c.after(), List.copyOf(messages), c);
  }

  /**
   * Call {@code id}'s round ended with {@code answer}: its next tool round when it made tool calls
   * and has rounds left, else the calls it completed the wait of.
   */
  public List<Due> answered(String id, Answer answer) {
    require(id, State.DUE);
    SessionCall c = session.call(id);
    int round = rounds.getOrDefault(id, 0);
    if (!sent.containsKey(id)) {
      request(id); // what it sent: the answer continues it
    }
    List<Map<String, Object>> conversation = new ArrayList<>(sent.get(id));
    conversation.add(assistant(answer));
    if (!answer.toolCalls().isEmpty() && round < c.toolLoop().rounds()) {
      for (int i = 0; i < answer.toolCalls().size(); i++) {
        ToolCall t = answer.toolCalls().get(i);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("role", "tool");
        result.put("tool_call_id", t.id());
        result.put(
            "content",
            c.toolLoop().resultText() != null
                ? c.toolLoop().resultText()
                : filler.text(
                    c.toolLoop().resultTokens(), ownKey(id) + "/tool" + (round + 1) + "/" + i));
        conversation.add(result);
      }
      sent.put(id, List.copyOf(conversation));
      rounds.put(id, round + 1);
      return List.of(draw(id, round + 1, c.toolLoop().toolTime()));
    }
    outcomes.put(id, new CallOutcome(answer.text(), toolCallsJson(answer), conversation));
    states.put(id, State.DONE);
    List<Due> out = new ArrayList<>();
    for (SessionCall child : session.children(id)) {
      int left = waitingFor.merge(child.id(), -1, Integer::sum);
      if (left == 0 && states.get(child.id()) == State.WAITING) {
        out.add(due(child, 0, child.delay()));
      }
    }
    return out;
  }

  /**
   * Call {@code id} failed (or was cancelled): the calls that wait for it, directly or not, are
   * skipped.
   */
  public void failed(String id) {
    require(id, State.DUE);
    states.put(id, State.FAILED);
    skipBelow(id);
  }

  /** Whether every call has ended, failed or been skipped. */
  public boolean finished() {
    return states.values().stream().noneMatch(s -> s == State.WAITING || s == State.DUE);
  }

  /** Calls never sent because a call they waited for failed. */
  public List<String> skipped() {
    return session.calls().stream()
        .map(SessionCall::id)
        .filter(id -> states.get(id) == State.SKIPPED)
        .toList();
  }

  /** Whether every call answered. */
  public boolean succeeded() {
    return states.values().stream().allMatch(s -> s == State.DONE);
  }

  /**
   * The key of a call's own synthetic text: this run's, so a session sent again (a file's, in turn)
   * sends new text, which no prefix cache has seen.
   */
  private String ownKey(String id) {
    return Long.toHexString(seed) + "/" + session.id() + "/" + id;
  }

  private void skipBelow(String id) {
    for (SessionCall child : session.children(id)) {
      if (states.get(child.id()) == State.WAITING) {
        states.put(child.id(), State.SKIPPED);
        skipBelow(child.id());
      }
    }
  }

  private Due due(SessionCall c, int round, Delay delay) {
    states.put(c.id(), State.DUE);
    return draw(c.id(), round, delay);
  }

  private Due draw(String id, int round, Delay delay) {
    Random r =
        new Random(seed ^ (id.hashCode() * 0x9E3779B97F4A7C15L) ^ (round * 0xC2B2AE3D27D4EB4FL));
    return new Due(id, round, delay.drawMs(r));
  }

  private void require(String id, State state) {
    State s = states.get(id);
    if (s != state) {
      throw new IllegalStateException(
          "call \"" + id + "\" of session \"" + session.id() + "\" is " + s + ", not " + state);
    }
  }

  private static Map<String, Object> assistant(Answer answer) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("role", "assistant");
    m.put("content", answer.text());
    if (!answer.toolCalls().isEmpty()) {
      m.put("tool_calls", toolCalls(answer));
    }
    return m;
  }

  private static List<Map<String, Object>> toolCalls(Answer answer) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (ToolCall t : answer.toolCalls()) {
      Map<String, Object> call = new LinkedHashMap<>();
      call.put("id", t.id());
      call.put("type", "function");
      call.put("function", Map.of("name", t.name(), "arguments", t.arguments()));
      out.add(call);
    }
    return out;
  }

  private static String toolCallsJson(Answer answer) {
    try {
      return JSON.writeValueAsString(toolCalls(answer));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
