package io.github.llmbench.workload;

/**
 * A dataset that cannot be used (missing, malformed, empty, or too long for the server's context):
 * one line for the user.
 */
public final class DatasetException extends RuntimeException {
  public DatasetException(String message) {
    super(message, null, false, false);
  }
}
