package io.github.llmbench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.llmbench.settings.WorkloadSettings;
import java.util.OptionalInt;

/**
 * The one range every length in tokens that a dataset, trace or session file gives is checked
 * against as it is read, before any prompt is built: a whole number from its least ({@code 0} or
 * {@code 1}) to {@link WorkloadSettings#MAX_LEN}, the limit of {@code -Dinput.len} and {@code
 * -Doutput.len} too. A length past it would build a prompt of gigabytes (or overflow an {@code
 * int}) before the context check could refuse it.
 */
public final class TokenLengths {
  private TokenLengths() {}

  /** What is accepted, for the one-line error: "a whole number of tokens from 1 to 10000000". */
  public static String accepted(int min) {
    return "a whole number of tokens from " + min + " to " + WorkloadSettings.MAX_LEN;
  }

  /** Whether {@code tokens} is within the range from {@code min}. */
  public static boolean within(long tokens, int min) {
    return tokens >= min && tokens <= WorkloadSettings.MAX_LEN;
  }

  /**
   * A length written as text ({@code {{tokens:N}}}, a feeder's column): ASCII digits of any number
   * of them, compared with the range as text would be, never wrapped into it; empty for anything
   * else, or a number outside the range.
   */
  public static OptionalInt parse(String digits, int min) {
    if (!digits.matches("[0-9]+")) {
      return OptionalInt.empty();
    }
    try {
      long v = Long.parseLong(digits);
      return within(v, min) ? OptionalInt.of((int) v) : OptionalInt.empty();
    } catch (NumberFormatException e) { // past a long's top
      return OptionalInt.empty();
    }
  }

  /**
   * The length in field {@code name} of {@code node}.
   *
   * @throws IllegalArgumentException {@code "NAME" is VALUE (expected a whole number of tokens from
   *     MIN to 10000000)}, or {@code "NAME" is missing (...)}; the reader adds the file and line
   */
  public static int field(JsonNode node, String name, int min) {
    JsonNode n = node.get(name);
    if (n == null || !n.isIntegralNumber() || !n.canConvertToLong() || !within(n.asLong(), min)) {
      throw new IllegalArgumentException(
          "\""
              + name
              + "\" is "
              + (n == null ? "missing" : n.toString())
              + " (expected "
              + accepted(min)
              + ")");
    }
    return n.asInt();
  }
}
