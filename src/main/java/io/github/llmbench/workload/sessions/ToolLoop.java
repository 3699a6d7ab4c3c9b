package io.github.llmbench.workload.sessions;

/**
 * What happens when a call answers with tool calls: the tool's result is appended as a {@code tool}
 * message and the call is sent again after the tool's time, up to {@code rounds} times.
 *
 * @param rounds the most tool rounds (0: an answer with tool calls ends the call)
 * @param resultText the tool's result as written in the session file, or null for a synthetic one
 * @param resultTokens the synthetic result's length in tokens, when {@code resultText} is null
 * @param toolTime how long the tool takes before the next round is sent
 */
public record ToolLoop(int rounds, String resultText, int resultTokens, Delay toolTime) {

  /** Rounds a call with tools gets when its line does not say. */
  public static final int DEFAULT_ROUNDS = 4;

  /** The synthetic result's length when the line does not say. */
  public static final int DEFAULT_RESULT_TOKENS = 64;

  /** No tool rounds: a call without tools. */
  public static final ToolLoop NONE = new ToolLoop(0, null, DEFAULT_RESULT_TOKENS, Delay.NONE);

  public ToolLoop {
    if (rounds < 0) {
      throw new IllegalArgumentException("tool rounds cannot be negative: " + rounds);
    }
    if (resultText == null && resultTokens < 1) {
      throw new IllegalArgumentException("a synthetic tool result needs a length from 1 token");
    }
  }
}
