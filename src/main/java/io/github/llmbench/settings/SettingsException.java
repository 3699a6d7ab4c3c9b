package io.github.llmbench.settings;

/**
 * A bad setting: its message is the one line shown to the user, naming the property, the value
 * given and what is accepted. Thrown before any load is sent.
 */
public final class SettingsException extends RuntimeException {
  public SettingsException(String message) {
    super(message, null, false, false);
  }

  /** The usual message of a bad value: the property, the value given and what is accepted. */
  public static SettingsException invalid(String property, String value, String accepted) {
    return new SettingsException("Invalid -D" + property + "=" + value + ": expected " + accepted);
  }
}
