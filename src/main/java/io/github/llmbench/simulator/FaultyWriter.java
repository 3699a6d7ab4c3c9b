package io.github.llmbench.simulator;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Wraps a streaming writer to inject a mid-stream fault ({@link SimFaults}) at the middle token of
 * the output: an error event (then {@code [DONE]} and the end of the response), a cut connection
 * (closed without the terminating chunk), or a stall (tokens held back for N seconds, then sent).
 * Runs on the connection's event loop.
 */
final class FaultyWriter implements ResponseWriter {
  private final ResponseWriter inner;
  private final Channel channel;
  private final SimFaults.Fault fault;
  private final int at;
  private final Runnable onDone;
  private final SimRequest[] request;
  private boolean over;
  private final boolean responses;
  private int stalledUpTo = -1; // highest token index held back during a stall
  private boolean stalling;

  FaultyWriter(
      ResponseWriter inner,
      Channel channel,
      SimFaults.Fault fault,
      int maxTokens,
      Runnable onDone,
      SimRequest[] request,
      boolean responses) {
    this.responses = responses;
    this.inner = inner;
    this.channel = channel;
    this.fault = fault;
    this.at = Math.max(0, maxTokens / 2);
    this.onDone = onDone;
    this.request = request;
  }

  @Override
  public EventLoop eventLoop() {
    return inner.eventLoop();
  }

  @Override
  public boolean emit(int k) {
    if (over) {
      return false;
    }
    if (stalling) {
      stalledUpTo = k;
      return false;
    }
    if (k < at) {
      return inner.emit(k);
    }
    switch (fault.mode()) {
      case ERROR_EVENT -> {
        over = true;
        cancel();
        // vLLM's streaming error: one data event with the error object, then [DONE]
        // the Responses API's: an error event, and no [DONE]
        String ev =
            responses
                ? "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\","
                    + "\"message\":\"simulated fault: generation failed\",\"param\":null}\n\n"
                : "data: {\"error\":{\"message\":\"simulated fault: generation failed\","
                    + "\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}\n\n"
                    + "data: [DONE]\n\n";
        channel.writeAndFlush(
            new DefaultLastHttpContent(Unpooled.copiedBuffer(ev, StandardCharsets.UTF_8)));
        onDone.run();
        return true;
      }
      case CUT -> {
        over = true;
        cancel();
        channel.close(); // no terminating chunk: the client sees the stream cut
        return false;
      }
      case STALL -> {
        stalling = true;
        stalledUpTo = k;
        eventLoop()
            .schedule(
                () -> {
                  stalling = false;
                  for (int j = k; j <= stalledUpTo && channel.isActive(); j++) {
                    inner.emit(j);
                  }
                },
                (long) (fault.stallSeconds() * 1e9),
                TimeUnit.NANOSECONDS);
        return false;
      }
      default -> {
        return inner.emit(k);
      }
    }
  }

  private void cancel() {
    SimRequest r = request[0];
    if (r != null) {
      r.cancelled = true;
    }
  }
}
