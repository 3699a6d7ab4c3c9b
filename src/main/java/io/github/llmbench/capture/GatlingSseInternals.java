package io.github.llmbench.capture;

import java.lang.reflect.Field;
import java.util.Optional;

/**
 * The one place that reads Gatling's SSE internals (gatling-http 3.15.1), by reflection.
 *
 * <p>Why: when an SSE stream crashes (a non-200 status, a reset connection, the server ending the
 * stream without {@code [DONE]}), Gatling keeps the reason only inside its state machine ({@code
 * SseFsm.currentState}, an {@code SseCrashedState} with an {@code errorMessage}); the session only
 * says "failed". Requests records need the reason and the HTTP status. {@code
 * GatlingSseInternalsTest} fails loudly if an upgrade renames these fields.
 */
public final class GatlingSseInternals {
  static final String FSM_CLASS = "io.gatling.http.action.sse.fsm.SseFsm";
  static final String CRASHED_STATE_CLASS = "io.gatling.http.action.sse.fsm.SseCrashedState";

  private static final Field CURRENT_STATE;
  private static final Field ERROR_MESSAGE;

  static {
    Field state = null;
    Field error = null;
    try {
      state = Class.forName(FSM_CLASS).getDeclaredField("currentState");
      state.setAccessible(true);
      error = Class.forName(CRASHED_STATE_CLASS).getDeclaredField("errorMessage");
      error.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      state = null;
      error = null;
    }
    CURRENT_STATE = state;
    ERROR_MESSAGE = error;
  }

  private GatlingSseInternals() {}

  /** Whether this Gatling's internals are the ones this class was written for. */
  static boolean available() {
    return CURRENT_STATE != null && ERROR_MESSAGE != null;
  }

  /**
   * The crash reason of the SSE stream held in the session under {@code fsm}'s name, empty when
   * the stream did not crash (or when the internals are not readable: then the reason is unknown).
   *
   * @param fsm the object the session holds under the SSE name
   */
  static Optional<String> crashReason(Object fsm) {
    if (fsm == null || !available() || !fsm.getClass().getName().equals(FSM_CLASS)) {
      return Optional.empty();
    }
    try {
      Object state = CURRENT_STATE.get(fsm);
      if (state != null && state.getClass().getName().equals(CRASHED_STATE_CLASS)) {
        return Optional.ofNullable((String) ERROR_MESSAGE.get(state));
      }
      return Optional.empty();
    } catch (IllegalAccessException e) {
      return Optional.empty();
    }
  }
}
