package io.github.llmbench.workload.sessions;

import java.util.List;

/**
 * The sessions a run sends, by number: a session file's or a recorded trace's in turn (starting
 * over past the last), or synthetic ones of one shape.
 */
public final class SessionSupply {
  private final List<AgentSession> sessions;
  private final String description;

  private SessionSupply(List<AgentSession> sessions, String description) {
    this.sessions = sessions;
    this.description = description;
  }

  /** The sessions of a file or a trace, in turn. */
  public static SessionSupply of(List<AgentSession> sessions, String description) {
    if (sessions.isEmpty()) {
      throw new IllegalArgumentException("no sessions in " + description);
    }
    return new SessionSupply(List.copyOf(sessions), description);
  }

  /** Synthetic sessions of one shape. */
  public static SessionSupply shaped(SessionShape shape) {
    return new SessionSupply(List.of(shape.session()), "synthetic sessions: " + shape.describe());
  }

  /**
   * Session number {@code n} of the run (from 0); a shape's are all one session, each sent with
   * text of its own.
   */
  public AgentSession session(long n) {
    return sessions.get((int) (n % sessions.size()));
  }

  /** The largest {@code max_tokens} any call asks, or {@code runDefault} when none says more. */
  public int maxTokens(int runDefault) {
    int max = runDefault;
    for (AgentSession s : sessions) {
      for (SessionCall c : s.calls()) {
        max = Math.max(max, c.maxTokens());
      }
    }
    return max;
  }

  /** What it is, for the run's start lines. */
  public String describe() {
    return description;
  }
}
