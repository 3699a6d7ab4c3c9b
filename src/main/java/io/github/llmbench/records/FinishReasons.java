package io.github.llmbench.records;

/**
 * The {@code finish_reason} values of OpenAI-compatible streams. A record keeps one shared instance
 * of each common value, not a string per request.
 */
public final class FinishReasons {
  /** The answer reached {@code max_tokens} (every answer, where {@code ignore_eos} is honoured). */
  public static final String LENGTH = "length";

  /** The model ended its answer (an end-of-sequence token or a stop string). */
  public static final String STOP = "stop";

  public static final String TOOL_CALLS = "tool_calls";

  private FinishReasons() {}

  /** The shared instance of a common value, else the value itself. */
  static String shared(String reason) {
    if (reason == null) {
      return null;
    }
    return switch (reason) {
      case LENGTH -> LENGTH;
      case STOP -> STOP;
      case TOOL_CALLS -> TOOL_CALLS;
      default -> reason;
    };
  }

  /**
   * Whether an answer ended before its {@code max_tokens} because the model ended it: {@code stop}
   * ({@code eos_token}, as TGI and others say), where a benchmark asked for exact lengths.
   */
  public static boolean endedByModel(String reason) {
    return STOP.equals(reason) || "eos_token".equals(reason);
  }
}
