package io.github.llmbench.cli;

/**
 * A bad command-line argument of the report commands ({@link ReportMain}, {@link CompareMain}): its
 * message is the one line printed, naming the argument, its value and what is accepted.
 */
final class BadArgument extends RuntimeException {
  BadArgument(String name, String value, String accepted) {
    super("Invalid " + name + "=" + value + ": expected " + accepted, null, false, false);
  }
}
