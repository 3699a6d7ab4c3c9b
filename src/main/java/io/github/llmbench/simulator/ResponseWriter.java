package io.github.llmbench.simulator;

import io.netty.channel.EventLoop;

/** The connection side of a request: where and how its tokens are written. */
interface ResponseWriter {
  /** The connection's event loop; every {@link #emit} call runs on it. */
  EventLoop eventLoop();

  /**
   * Token {@code k} (0-based) was sampled. Writes and flushes what the client should see now
   * (a stream chunk, or the whole response after the last token) and returns true if bytes were
   * flushed for this token.
   */
  boolean emit(int k);
}
