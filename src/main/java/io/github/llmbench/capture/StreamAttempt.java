package io.github.llmbench.capture;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The state of one streaming request while it runs, kept in the virtual user's session (each
 * virtual user sends exactly one request, so nothing here is shared between threads except the
 * send guard, which the HTTP client touches on its event loop).
 */
public final class StreamAttempt {
  public static final String SESSION_KEY = "llmAttempt";

  private final String id;
  private final String level;
  private final String profile;
  private final String body;
  private final long t0;
  private final AtomicBoolean sent = new AtomicBoolean();
  private String crashReason;
  private ParsedStream stream;
  private int chunkCount;

  public StreamAttempt(String id, String level, String profile, String body, long t0) {
    this.id = id;
    this.level = level;
    this.profile = profile;
    this.body = body;
    this.t0 = t0;
  }

  public String id() {
    return id;
  }

  public String level() {
    return level;
  }

  public String profile() {
    return profile;
  }

  public String body() {
    return body;
  }

  public long t0() {
    return t0;
  }

  /**
   * Marks the request as written to the wire; false when it already was. Gatling's SSE support
   * follows the browser rules and sends the POST again 3 s after a stream is cut: a second send
   * is refused, so a cut stream fails instead of silently sending a new request.
   */
  boolean markSent() {
    return sent.compareAndSet(false, true);
  }

  void captured(ParsedStream stream, int chunkCount, String crashReason) {
    this.stream = stream;
    this.chunkCount = chunkCount;
    this.crashReason = crashReason;
  }

  /** How many events waited in Gatling's buffer (all chunks but the final one). */
  int chunkCount() {
    return chunkCount;
  }

  ParsedStream stream() {
    return stream;
  }

  String crashReason() {
    return crashReason;
  }
}
