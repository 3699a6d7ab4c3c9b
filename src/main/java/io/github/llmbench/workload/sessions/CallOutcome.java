package io.github.llmbench.workload.sessions;

import java.util.List;
import java.util.Map;

/**
 * What a finished call of a session gave, for the calls that quote it or continue its context.
 *
 * @param answer the text the server streamed (its last round's, after tool rounds)
 * @param toolCallsJson the tool calls of its last round as a JSON array, {@code []} when none
 * @param conversation the messages it sent in its last round, its answer appended (chat messages as
 *     the request body has them): what a call with {@code "context"} naming it starts from
 */
public record CallOutcome(
    String answer, String toolCallsJson, List<Map<String, Object>> conversation) {
  public CallOutcome {
    conversation = List.copyOf(conversation);
  }
}
