package io.github.llmbench.endpoints;

/** How an endpoint's answer is captured. */
public enum CaptureKind {
  /**
   * A server-sent event stream, read chunk by chunk as it arrives: chat and completions chunks or
   * the Responses API's typed events (the one chunk reader reads both).
   */
  EVENT_STREAM("text/event-stream"),
  /** One JSON body, read whole (embeddings): its first byte is the first token's time. */
  JSON_BODY("application/json");

  private final String accept;

  CaptureKind(String accept) {
    this.accept = accept;
  }

  /** The {@code Accept} header's value. */
  public String accept() {
    return accept;
  }
}
