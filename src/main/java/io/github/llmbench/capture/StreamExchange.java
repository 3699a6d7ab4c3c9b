package io.github.llmbench.capture;

import io.gatling.core.session.Session;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.github.llmbench.endpoints.CaptureKind;
import io.github.llmbench.records.RequestRecord;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.ConnectException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * One streaming request in flight: Gatling's HTTP client calls it on the connection's event loop as
 * the response arrives. It stamps each read with {@link System#nanoTime()}, feeds the body to a
 * {@link StreamReader}, and ends the request exactly once: at the end of the response, at {@code
 * [DONE]}, at an error event, or when the client reports a failure (a connection closed before or
 * during the response is reported at once and the request is never sent again, see {@link
 * GatlingHttpInternals#failOnClose}; the request timeout closes the connection). An embeddings
 * request's answer is one JSON body, not a stream ({@link PooledBody}): it ends at the body's end.
 */
final class StreamExchange implements HttpListener {

  /** Called once per request, on its event loop. */
  interface Completion {
    void completed(StreamExchange exchange, long endNanos, String failure, Integer httpStatus);
  }

  final Session session;

  /** The request as it was sent: its record is made of this and the stream. */
  final RequestRecords.Sent sent;

  private final Completion completion;
  private final int timeoutSeconds;
  private final StreamReader reader;

  /** How the answer is read: an event stream, or one JSON body (embeddings). */
  private final CaptureKind capture;

  /** The JSON body of a 200 to an embeddings request, null otherwise. */
  private PooledBody pooled;

  private Channel channel;
  private boolean reusedConnection;
  private int status = -1;
  private String contentType;
  private ErrorBody errorBody;
  private boolean finished;
  private long endNanos;
  private boolean cancelled;

  /**
   * How an exchange reads its answer, the same for every request of a capture ({@link #stream},
   * {@link #pooled}).
   *
   * @param expectedTextChunks how many text chunks to make room for at first
   * @param keepAnswer whether to keep the generated text (a conversation sends it back)
   * @param timeoutSeconds the request's timeout, for the failure's text
   * @param capture how the answer is read: an event stream, or one JSON body (embeddings)
   */
  record Reading(
      int expectedTextChunks, boolean keepAnswer, int timeoutSeconds, CaptureKind capture) {

    /** An event stream of up to about {@code expectedTextChunks} text chunks. */
    static Reading stream(int expectedTextChunks, boolean keepAnswer, int timeoutSeconds) {
      return new Reading(expectedTextChunks, keepAnswer, timeoutSeconds, CaptureKind.EVENT_STREAM);
    }

    /** One JSON body (embeddings). */
    static Reading pooled(int timeoutSeconds) {
      return new Reading(1, false, timeoutSeconds, CaptureKind.JSON_BODY);
    }
  }

  StreamExchange(
      Session session, RequestRecords.Sent sent, Reading reading, Completion completion) {
    this.capture = reading.capture();
    this.session = session;
    this.sent = sent;
    this.timeoutSeconds = reading.timeoutSeconds();
    this.completion = completion;
    this.reader = new StreamReader(reading.expectedTextChunks(), reading.keepAnswer());
  }

  ParsedStream stream() {
    return pooled != null && finished ? pooled.result(endNanos) : reader.result();
  }

  @Override
  public void onWrite(Channel channel) {
    this.channel = channel;
    this.reusedConnection = GatlingHttpInternals.failOnClose(channel);
    if (cancelled) {
      channel.close(); // cancelled as it was written; the close fails it, never resends it
    }
  }

  @Override
  public void onFinalClientRequest(Request request) {}

  @Override
  public void onHttpResponse(HttpResponseStatus responseStatus, HttpHeaders headers) {
    status = responseStatus.code();
    contentType = headers.get(HttpHeaderNames.CONTENT_TYPE);
    boolean oneBody = capture == CaptureKind.JSON_BODY;
    if (oneBody && status == 200) {
      pooled = new PooledBody(); // whatever its content type says, its bytes must be the JSON
    } else if (oneBody || !streaming()) {
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
    if (pooled != null) {
      try {
        pooled.feed(chunk);
      } catch (RuntimeException e) {
        finish(now, ChunkInspector.abbreviate("capture failed: " + e));
        closeChannel();
        return;
      }
      if (last) {
        finish(now, null); // the body's failure, if any, is its result's (PooledBody#failure)
      }
      return;
    }
    if (chunk.isReadable()) {
      try {
        reader.feed(chunk, now);
      } catch (RuntimeException e) {
        // the kit's own fault, named as such (the client would report it as the response's)
        finish(now, ChunkInspector.abbreviate("capture failed: " + e));
        closeChannel();
        return;
      }
    }
    if (reader.error() != null) {
      finish(now, null);
      if (!last) {
        closeChannel(); // the server would go on streaming a request the run has given up
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
      return errorBody != null
          ? httpFailure() + " (timeout reading the body)"
          : pooled != null
              ? "timeout: the JSON body did not end within "
                  + timeoutSeconds
                  + " s ("
                  + pooled.bytes()
                  + " bytes read)"
              : "timeout: no [DONE] within " + timeoutSeconds + " s";
    }
    boolean closed = GatlingHttpInternals.isPrematureClose(t);
    if (closed || isReset(t)) {
      String how = closed ? "closed" : "reset";
      if (status < 0) {
        return "connection "
            + how
            + " by the server before the response"
            + (reusedConnection
                ? " (a reused keep-alive connection; the request was not sent again)"
                : "");
      }
      if (pooled != null) {
        return "body cut before its end: the server "
            + how
            + " the connection after "
            + pooled.bytes()
            + " bytes of JSON";
      }
      return errorBody != null
          ? httpFailure() + (closed ? "" : " (connection reset)")
          : "stream cut before [DONE]: the server "
              + how
              + " the connection after "
              + reader.events()
              + " events";
    }
    if (t instanceof ConnectException) {
      return "connect error: " + ChunkInspector.abbreviate(String.valueOf(t.getMessage()));
    }
    String message = t.getMessage() == null ? "" : t.getMessage();
    if (isMalformedHttp(t)) {
      // Netty's HTTP decoder refused the bytes: the server's framing, not the kit
      return ChunkInspector.abbreviate(
          (status < 0 ? "malformed HTTP response: " : "malformed HTTP chunk: ")
              + lowerFirst(message.isEmpty() ? t.getClass().getSimpleName() : message));
    }
    return ChunkInspector.abbreviate(
        (status < 0 ? "request failed: " : "stream failed: ")
            + t.getClass().getSimpleName()
            + (message.isEmpty() ? "" : ": " + message));
  }

  /** A connection reset (RST) as the JDK's and Netty's native transports word it. */
  private static boolean isReset(Throwable t) {
    return t instanceof IOException
        && t.getMessage() != null
        && t.getMessage().contains("Connection reset");
  }

  /**
   * What Netty's HTTP decoder reports of bytes that are no HTTP: a bad chunk size, a line or header
   * too long, a bad status line. The kit's own callbacks catch their exceptions, so these can only
   * come from decoding.
   */
  private static boolean isMalformedHttp(Throwable t) {
    return t
            instanceof
            IllegalArgumentException // NumberFormatException: a chunk size that is no hex number
        || t instanceof TooLongFrameException
        || t instanceof PrematureChannelClosureException;
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  /**
   * Cancels the request on purpose, on its event loop, if it has not ended: its connection is
   * closed, as a browser closes a tab's, and it ends as {@link RequestRecord#CANCELLED}.
   */
  void cancel() {
    if (finished) {
      return;
    }
    long now = System.nanoTime();
    cancelled = true;
    finish(
        now,
        String.format(
            Locale.ROOT, "%s after %.3f s", RequestRecord.CANCELLED, (now - sent.t0Nanos()) / 1e9));
    closeChannel();
  }

  private void closeChannel() {
    if (channel != null) {
      channel.close();
    }
  }

  private String httpFailure() {
    String message = errorBody.message();
    if (status == 200) {
      return "HTTP 200 without an event stream (content-type "
          + contentType
          + ")"
          + (message.isEmpty() ? "" : ": " + message);
    }
    return "HTTP " + status + (message.isEmpty() ? "" : ": " + message);
  }

  private void finish(long endNanos, String failure) {
    if (finished) {
      return;
    }
    finished = true;
    this.endNanos = endNanos;
    completion.completed(this, endNanos, failure, status < 0 ? null : status);
  }
}
