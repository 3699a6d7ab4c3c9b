package io.github.llmbench.simulator;

import java.util.Arrays;

/**
 * One generation request as the engine sees it. Engine-thread fields are touched only by the step
 * loop (or the virtual-time model); {@link #cancelled} is set from the connection's event loop when
 * the client goes away.
 */
final class SimRequest {
  final int promptTokens;
  final int maxTokens;

  /**
   * Turns tokens into bytes on the connection; called on the channel's event loop (null in virtual
   * time).
   */
  final ResponseWriter writer;

  /**
   * Hash of each full 16-token block of the prompt, chained (block i's hash covers its tokens and
   * the hash of block i-1), as vLLM's automatic prefix caching identifies blocks.
   */
  final long[] blockHashes;

  /** When the request arrived (engine clock: System.nanoTime, or virtual nanoseconds). */
  final long arrivalNanos;

  volatile boolean cancelled;

  // --- engine thread only ---
  int computed; // tokens (prompt, then fed-back output) whose KV is in the cache
  int generated; // output tokens sampled so far
  int scheduledThisStep; // tokens scheduled in the current step
  int draftedThisStep; // speculative drafts verified in the current step (none outside decode)
  int[] blocks = new int[8]; // KV blocks held, in order
  int numBlocks;
  int preemptions;
  int cachedPromptTokens; // prompt tokens served by the prefix cache at (first) admission
  long readyNanos; // when the engine can schedule it: arrival + the request path (API server,
  // hand-off)
  long firstScheduledNanos = -1;
  long transferredUntilNanos; // disaggregated: when its KV reaches the decode instance (0: none)
  boolean transferred; // disaggregated: its prefill's KV was sent to the decode instance
  long firstTokenNanos = -1;
  long lastTokenNanos = -1;
  long finishedNanos = -1;

  SimRequest(int promptTokens, int maxTokens, ResponseWriter writer) {
    this(promptTokens, maxTokens, writer, new long[0], System.nanoTime());
  }

  SimRequest(
      int promptTokens,
      int maxTokens,
      ResponseWriter writer,
      long[] blockHashes,
      long arrivalNanos) {
    this.promptTokens = promptTokens;
    this.maxTokens = maxTokens;
    this.writer = writer;
    this.blockHashes = blockHashes;
    this.arrivalNanos = arrivalNanos;
  }

  /** Tokens the request holds: prompt plus the output sampled so far. */
  int numTokens() {
    return promptTokens + generated;
  }

  /**
   * Whether computing {@code n} more tokens completes what the request holds, so that the step
   * samples a token for it (the last prefill chunk, or a decode).
   */
  boolean samplesAfter(int n) {
    return computed + n >= numTokens();
  }

  boolean finished() {
    return generated >= maxTokens;
  }

  void addBlock(int b) {
    if (numBlocks == blocks.length) {
      blocks = Arrays.copyOf(blocks, blocks.length * 2);
    }
    blocks[numBlocks++] = b;
  }

  /** Chained block hashes of a token sequence (full blocks only). */
  static long[] hashBlocks(int[] tokens, int n, int blockSize) {
    long[] h = new long[n / blockSize];
    long parent = 0x9E3779B97F4A7C15L;
    for (int b = 0; b < h.length; b++) {
      long x = parent;
      for (int i = b * blockSize; i < (b + 1) * blockSize; i++) {
        x = (x ^ tokens[i]) * 0x100000001B3L;
        x ^= x >>> 29;
      }
      x = mix(x);
      h[b] = x == 0 ? 1 : x;
      parent = h[b];
    }
    return h;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
