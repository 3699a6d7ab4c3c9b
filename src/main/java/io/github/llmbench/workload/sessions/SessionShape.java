package io.github.llmbench.workload.sessions;

import io.github.llmbench.settings.SessionSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * Synthetic agent sessions of one shape: an orchestrator that works in {@code depth} steps, each
 * continuing its own context (so the prompt grows by {@code stepTokens} and the answers it read at
 * every step), and between two steps {@code fanout} sub-agents run in parallel, each given the
 * orchestrator's last answer and a task of its own, their answers quoted in the next step (fan-out
 * and fan-in). Every call starts with the same system prompt of {@code systemTokens} (one text for
 * every session, as an agent framework's), so a prefix cache finds it. Lengths are in tokens of the
 * server's tokenizer; the text is made when the call is sent.
 *
 * @param depth the orchestrator's steps, from 1
 * @param fanout sub-agents between two steps, from 0 (0: a chain of steps, no sub-agent)
 * @param taskTokens the first step's own prompt
 * @param stepTokens what each later step adds to the orchestrator's context besides the answers
 * @param subagentTokens a sub-agent's own task
 * @param systemTokens the shared system prompt, 0 for none
 * @param outputTokens {@code max_tokens} of each call
 * @param think the wait before each call after the calls it waits for (the agent's own time)
 */
public record SessionShape(
    int depth,
    int fanout,
    int taskTokens,
    int stepTokens,
    int subagentTokens,
    int systemTokens,
    int outputTokens,
    Delay think) {

  /** The key of the system prompt every session shares. */
  public static final String SYSTEM_KEY = "shape-system";

  /** The name of every session of a shape (the run numbers them: {@code agent#1}, ...). */
  public static final String NAME = "agent";

  public SessionShape {
    if (depth < 1 || fanout < 0 || taskTokens < 1 || stepTokens < 1 || subagentTokens < 1) {
      throw new IllegalArgumentException(
          "a session shape needs depth >= 1, fanout >= 0 and lengths >= 1: " + this);
    }
    if (systemTokens < 0 || outputTokens < 1) {
      throw new IllegalArgumentException(
          "a session shape needs systemTokens >= 0 and outputTokens >= 1: " + this);
    }
  }

  /** The shape {@code -Dsession.shape} names, its agent's wait fixed. */
  public static SessionShape of(SessionSettings.Shape s) {
    return new SessionShape(
        s.depth(),
        s.fanout(),
        s.taskTokens(),
        s.stepTokens(),
        s.subagentTokens(),
        s.systemTokens(),
        s.outputTokens(),
        new Delay.Fixed(s.thinkMs()));
  }

  /**
   * The shape's session: every session of a run has these calls, each its own text (the run's
   * number for it seeds its text and waits).
   */
  public AgentSession session() {
    List<SessionCall> calls = new ArrayList<>();
    String previous = null;
    List<String> joined = List.of();
    for (int k = 1; k <= depth; k++) {
      String id = "step" + k;
      SessionCall.Builder step = SessionCall.builder(id).maxTokens(outputTokens);
      if (previous == null) {
        system(step);
        step.user("{{tokens:" + taskTokens + "}}");
      } else {
        step.after(joined.isEmpty() ? List.of(previous) : joined).delay(think).context(previous);
        StringBuilder text = new StringBuilder();
        for (String sub : joined) {
          text.append("{{answer:").append(sub).append("}}\n");
        }
        step.user(text + "{{tokens:" + stepTokens + "}}");
      }
      calls.add(step.build());
      List<String> subs = new ArrayList<>();
      for (int j = 1; k < depth && j <= fanout; j++) {
        String sub = id + ".sub" + j;
        SessionCall.Builder b =
            SessionCall.builder(sub).after(id).delay(think).maxTokens(outputTokens);
        system(b);
        b.user("{{answer:" + id + "}}\n{{tokens:" + subagentTokens + "}}");
        calls.add(b.build());
        subs.add(sub);
      }
      previous = id;
      joined = subs;
    }
    return new AgentSession(NAME, calls);
  }

  private void system(SessionCall.Builder b) {
    if (systemTokens > 0) {
      b.message(
          MessageTemplate.parse("system", "{{tokens:" + systemTokens + ":" + SYSTEM_KEY + "}}"));
    }
  }

  /** The shape in words, for the run's start lines. */
  public String describe() {
    return depth
        + " steps, "
        + fanout
        + " sub-agents between steps, "
        + callsPerSession()
        + " calls a session; task "
        + taskTokens
        + ", step "
        + stepTokens
        + ", sub-agent "
        + subagentTokens
        + ", shared system "
        + systemTokens
        + " tokens; max_tokens "
        + outputTokens
        + "; think "
        + Math.round(think.meanMs())
        + " ms (mean)";
  }

  /** Calls in each session. */
  public int callsPerSession() {
    return depth + (depth - 1) * fanout;
  }
}
