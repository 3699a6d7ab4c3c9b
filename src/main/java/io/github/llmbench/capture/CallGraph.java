package io.github.llmbench.capture;

import io.github.llmbench.records.RequestOrigin;
import java.util.List;
import java.util.Map;

/**
 * The calls of one agent session as a virtual user runs them ({@link SessionAction}): which are due
 * and after how long, what each sends when its time comes, and what is due once it ends. The
 * session's logic (its graph, quotes, tool rounds) lives behind this; the capture only sends, reads
 * and records. Called on the user's event loop only, one call at a time.
 */
public interface CallGraph {

  /**
   * A call to send after {@code delayNanos}.
   *
   * @param call its id within the session
   * @param tool whether the wait is a tool's (a tool round), not the agent's own
   */
  record Due(String call, long delayNanos, boolean tool) {}

  /**
   * What a call sends now.
   *
   * @param body its JSON body
   * @param headers its own headers (the session header among them), set after the run's
   * @param model the model it names when that is its own, else null
   * @param origin its place in the session, for its record
   */
  record Call(String body, Map<String, String> headers, String model, RequestOrigin origin) {
    public Call {
      headers = Map.copyOf(headers);
    }
  }

  /**
   * The calls due at the session's start.
   *
   * @param startMs the session's start (epoch ms, the records' clock)
   */
  List<Due> start(long startMs);

  /** What call {@code id}, now due, sends. */
  Call call(String id);

  /**
   * Call {@code id} streamed an answer: its text (without its tool calls) and its tool calls.
   *
   * @return what is due now: its next tool round, or the calls that waited for it
   */
  List<Due> answered(String id, String text, List<ParsedStream.ToolCall> toolCalls);

  /** Call {@code id} failed or was cancelled: what waits for it is never sent. */
  void failed(String id);
}
