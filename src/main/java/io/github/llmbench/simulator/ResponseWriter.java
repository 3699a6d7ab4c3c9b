package io.github.llmbench.simulator;

import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;

/** The connection side of a request: where and how its tokens are written. */
interface ResponseWriter {
  /** The connection's event loop; every {@link #emit} call runs on it. */
  EventLoop eventLoop();

  /**
   * Token {@code k} (0-based) was sampled. Writes and flushes what the client should see now (a
   * stream chunk, or the whole response after the last token) and returns true if bytes were
   * flushed for this token.
   */
  boolean emit(int k);

  /**
   * Whether one {@link #emit} may skip tokens and write every token since the last one in one chunk
   * (speculative decoding's steps keep several): only the writers that do get drafts.
   */
  default boolean writesSeveralTokensPerChunk() {
    return false;
  }

  /**
   * The request was admitted with {@code cachedPromptTokens} of its prompt served by the prefix
   * cache (called on the engine's thread, before its first {@link #emit}).
   */
  default void admitted(int cachedPromptTokens) {}

  /**
   * Records the send lateness of the token just {@link #emit emitted} (if it returned true) once
   * its bytes are in the kernel: at once with epoll and NIO, whose writes are system calls; when
   * the write completes with io_uring, whose loop submits its queued writes after its tasks.
   */
  default void recordSent(LatenessHistogram lateness, long scheduledEnd) {
    lateness.record(System.nanoTime() - scheduledEnd);
  }

  /**
   * Records the lateness of a write when it succeeds: now if it is done, else on its completion.
   */
  static void recordWhenWritten(ChannelFuture f, LatenessHistogram lateness, long scheduledEnd) {
    if (f == null) {
      lateness.record(System.nanoTime() - scheduledEnd);
    } else if (f.isDone()) {
      if (f.isSuccess()) {
        lateness.record(System.nanoTime() - scheduledEnd);
      }
    } else {
      f.addListener(
          x -> {
            if (x.isSuccess()) {
              lateness.record(System.nanoTime() - scheduledEnd);
            }
          });
    }
  }
}
