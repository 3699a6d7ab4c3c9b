package io.github.llmbench.simulator;

/**
 * One generation request as the engine sees it. Engine-thread fields are touched only by the step
 * loop; {@link #cancelled} is set from the connection's event loop when the client goes away.
 */
final class SimRequest {
  final int promptTokens;
  final int maxTokens;
  /** Turns tokens into bytes on the connection; called on the channel's event loop. */
  final ResponseWriter writer;

  volatile boolean cancelled;

  // --- engine thread only ---
  int prefilled; // prompt tokens whose KV is computed
  int generated; // output tokens sampled so far
  int scheduledThisStep; // tokens scheduled in the current step

  SimRequest(int promptTokens, int maxTokens, ResponseWriter writer) {
    this.promptTokens = promptTokens;
    this.maxTokens = maxTokens;
    this.writer = writer;
  }

  boolean prefillDone() {
    return prefilled >= promptTokens;
  }

  /** Tokens already in the KV cache (prompt part computed + generated tokens fed back). */
  int contextLen() {
    return prefilled + Math.max(0, generated - 1);
  }
}
