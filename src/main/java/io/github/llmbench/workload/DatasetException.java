package io.github.llmbench.workload;

/** A dataset that cannot be used (missing, malformed, empty): one line for the user. */
public final class DatasetException extends RuntimeException {
  public DatasetException(String message) {
    super(message, null, false, false);
  }
}
