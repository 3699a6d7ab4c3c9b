package io.github.llmbench.capture;

import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.ConnectException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * One streaming request in flight: Gatling's HTTP client calls it on the connection's event loop
 * as the response arrives. It stamps each read with {@link System#nanoTime()}, feeds the body to
 * a {@link StreamReader}, and ends the request exactly once: at the end of the response, at
 * {@code [DONE]}, at an error event, or when the client reports a failure (a connection closed
 * mid-stream is reported at once, never retried; the request timeout closes the connection).
 */
final class StreamExchange implements HttpListener {

  /** Called once per request, on its event loop. */
  interface Completion {
    void completed(StreamExchange exchange, long endNanos, String failure, Integer httpStatus);
  }

  final io.gatling.core.session.Session session;
  /** The request as it was sent: its record is made of this and the stream. */
  final RequestRecords.Sent sent;
  private final Completion completion;
  private final int timeoutSeconds;
  private final StreamReader reader;
  private Channel channel;
  private int status = -1;
  private String contentType;
  private ErrorBody errorBody;
  private boolean finished;

  /** @param keepAnswer whether to keep the generated text (a conversation sends it back) */
  StreamExchange(
      io.gatling.core.session.Session session,
      RequestRecords.Sent sent,
      int expectedTextChunks,
      boolean keepAnswer,
      int timeoutSeconds,
      Completion completion) {
    this.session = session;
    this.sent = sent;
    this.timeoutSeconds = timeoutSeconds;
    this.completion = completion;
    this.reader = new StreamReader(expectedTextChunks, keepAnswer);
  }

  ParsedStream stream() {
    return reader.result();
  }

  @Override
  public void onWrite(Channel channel) {
    this.channel = channel;
  }

  @Override
  public void onFinalClientRequest(Request request) {}

  @Override
  public void onHttpResponse(HttpResponseStatus responseStatus, HttpHeaders headers) {
    status = responseStatus.code();
    contentType = headers.get(HttpHeaderNames.CONTENT_TYPE);
    if (!streaming()) {
      errorBody = new ErrorBody();
    }
  }

  private boolean streaming() {
    return status == 200
        && contentType != null
        && contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
  }

  @Override
  public void onHttpResponseBodyChunk(ByteBuf chunk, boolean last) {
    long now = System.nanoTime();
    if (finished) {
      return;
    }
    if (errorBody != null) {
      errorBody.add(chunk);
      if (last) {
        finish(now, httpFailure());
      }
      return;
    }
    if (chunk.isReadable()) {
      reader.feed(chunk, now);
    }
    if (reader.error() != null) {
      finish(now, null);
      if (!last && channel != null) {
        channel.close(); // the server would go on streaming a request the run has given up
      }
    } else if (last) {
      finish(now, reader.done() ? null : "stream ended without [DONE]");
    } else if (reader.done()) {
      // [DONE] is the end for the metrics; the response's own end normally follows in the same
      // read. Wait for it (the connection then goes back to the pool before the next request),
      // but no longer than the tasks already queued on this event loop.
      session.eventLoop().execute(() -> finish(now, null));
    }
  }

  @Override
  public void onThrowable(Throwable t) {
    long now = System.nanoTime();
    if (!finished) {
      finish(now, describe(t));
    }
  }

  private String describe(Throwable t) {
    if (t instanceof TimeoutException) {
      if (status < 0) {
        return "timeout: no response within " + timeoutSeconds + " s";
      }
      return errorBody != null ? httpFailure() + " (timeout reading the body)"
          : "timeout: no [DONE] within " + timeoutSeconds + " s";
    }
    if (GatlingHttpInternals.isPrematureClose(t)) {
      if (status < 0) {
        return "connection closed by the server before the response";
      }
      return errorBody != null ? httpFailure()
          : "stream cut before [DONE]: the server closed the connection after " + reader.events() + " events";
    }
    if (t instanceof ConnectException) {
      return "connect error: " + ChunkInspector.abbreviate(String.valueOf(t.getMessage()));
    }
    String message = t.getMessage() == null ? "" : ": " + t.getMessage();
    return ChunkInspector.abbreviate(
        (status < 0 ? "request failed: " : "stream failed: ") + t.getClass().getSimpleName() + message);
  }

  private String httpFailure() {
    String message = errorBody.message();
    if (status == 200) {
      return "HTTP 200 without an event stream (content-type " + contentType + ")"
          + (message.isEmpty() ? "" : ": " + message);
    }
    return "HTTP " + status + (message.isEmpty() ? "" : ": " + message);
  }

  private void finish(long endNanos, String failure) {
    if (finished) {
      return;
    }
    finished = true;
    completion.completed(this, endNanos, failure, status < 0 ? null : status);
  }
}
