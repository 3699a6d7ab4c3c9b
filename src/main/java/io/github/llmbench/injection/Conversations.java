package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.workload.FeederRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Multi-turn chats: each virtual user holds one conversation. Turn k sends the earlier user turns
 * and the assistant's streamed answers (the text the server actually sent), then the new user turn,
 * so the prompt grows as in a chat and a server's prefix cache is exercised as in production. A
 * failed turn ends its conversation (there is no answer to carry on with).
 *
 * <p>Session keys: {@value #TURNS} (the conversation's user turns, as feeder records), {@value
 * #CONVERSATION} and {@value #TURN} (also written in each request's record), {@value #HISTORY} (the
 * chat so far).
 */
public final class Conversations {
  public static final String TURNS = "turns";
  public static final String CONVERSATION = "conversation";
  public static final String TURN = "turn";
  static final String HISTORY = "llm.history";
  private static final String TURN_INDEX = "llm.turnIndex";

  private Conversations() {}

  /**
   * The chain of one conversation.
   *
   * @param conversations feeder records with {@value #CONVERSATION} and {@value #TURNS}
   * @param request one streamed request from the session's {@code messages} (in its groups)
   * @param think the pause between a turn's answer and the next turn
   */
  public static ChainBuilder of(
      Iterator<Map<String, Object>> conversations, ChainBuilder request, Duration think) {
    ChainBuilder turn = exec(Conversations::nextTurn).exec(request).exec(Conversations::answered);
    // a user's earlier conversation may have failed: its status must not end this one at once
    return exec(session -> session.markAsSucceeded().remove(HISTORY))
        .exec(InlineFeed.of(conversations))
        .exitBlockOnFail()
        .on(
            exec(session -> session.set(HISTORY, List.of()))
                .repeat(session -> session.getList(TURNS).size(), TURN_INDEX)
                .on(
                    doIf(session -> session.getInt(TURN_INDEX) > 0 && !think.isZero())
                        .then(
                            pause(think)
                                .exec(
                                    session ->
                                        session.set(
                                            StreamCapture.SLOT_FREED_NANOS, System.nanoTime())))
                        .exec(turn)));
  }

  /** A conversation as a feeder record: its id and user turns. */
  public static Map<String, Object> record(String conversation, List<Map<String, Object>> turns) {
    return Map.of(CONVERSATION, conversation, TURNS, turns);
  }

  /** The request's place: its conversation and turn, or null outside conversations. */
  public static RequestOrigin originOf(Session session) {
    return session.contains(TURN)
        ? RequestOrigin.turn(session.getString(CONVERSATION), session.getInt(TURN))
        : null;
  }

  /** The chat so far plus turn k's user messages, as the request's {@code messages}. */
  static Session nextTurn(Session session) {
    int k = session.getInt(TURN_INDEX);
    Map<String, Object> userTurn = session.<Map<String, Object>>getList(TURNS).get(k);
    List<Object> messages = new ArrayList<>(session.<Object>getList(HISTORY));
    Object own = userTurn.get(FeederRecords.MESSAGES);
    if (own instanceof List<?> list) {
      messages.addAll(list); // a dataset line's own messages (a system prompt, say) are the turn
    } else {
      messages.add(
          Map.of("role", "user", "content", String.valueOf(userTurn.get(FeederRecords.PROMPT))));
    }
    Session s =
        session
            .removeAll(FeederRecords.PROMPT, FeederRecords.INPUT_TOKENS, StreamCapture.ANSWER)
            .set(FeederRecords.MESSAGES, List.copyOf(messages))
            .set(TURN, k + 1)
            .set(FeederRecords.MAX_TOKENS, userTurn.get(FeederRecords.MAX_TOKENS));
    Object profile = userTurn.get(FeederRecords.PROFILE);
    return profile == null
        ? s.remove(FeederRecords.PROFILE)
        : s.set(FeederRecords.PROFILE, profile);
  }

  /** The chat with this turn's streamed answer, for the next turn. */
  static Session answered(Session session) {
    if (!session.contains(StreamCapture.ANSWER)) {
      return session; // failed: the block ends here
    }
    List<Object> history = new ArrayList<>(session.<Object>getList(FeederRecords.MESSAGES));
    history.add(Map.of("role", "assistant", "content", session.getString(StreamCapture.ANSWER)));
    return session.set(HISTORY, List.copyOf(history));
  }
}
