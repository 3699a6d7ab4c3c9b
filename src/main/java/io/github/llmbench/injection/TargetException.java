package io.github.llmbench.injection;

/** The server cannot be used (unreachable, refuses us, has no model): one line for the user. */
public final class TargetException extends RuntimeException {
  public TargetException(String message) {
    super(message, null, false, false);
  }
}
