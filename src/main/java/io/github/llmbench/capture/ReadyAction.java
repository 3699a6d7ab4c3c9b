package io.github.llmbench.capture;

import io.gatling.core.action.Action;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.gatling.http.client.RequestBuilder;
import io.gatling.http.client.resolver.InetAddressNameResolver;
import io.gatling.http.engine.HttpEngine;
import io.gatling.javaapi.core.Session;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.EventExecutor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets the request chain ready for a load that must start on time (a trace replay), run by one user
 * before it: builds a streaming request from the session as {@link StreamAction} would (not sent),
 * and from every one of Gatling's event loops sends {@code GET /v1/models} through the same HTTP
 * client and shared pool, so each loop (the client keeps a pool per loop) has an open connection to
 * the server and the client's code has run. Measured ({@code TraceArrivalIT}): sent on time but
 * without it, the first request of a 6-line trace reached the server 32-47 ms late (the connect,
 * the client's first use) and its TTFT counted that; the first on each other loop 2-7 ms; with it,
 * the first 5-11 ms, the others 0-4 ms. Nothing is recorded; a GET that fails only leaves that
 * loop's first request to connect itself.
 */
final class ReadyAction extends KitAction {
  private static final Logger LOG = LoggerFactory.getLogger(ReadyAction.class);

  /** The most the load waits for a GET: the server already answered it before the run. */
  private static final int READY_TIMEOUT_SECONDS = 10;

  private final StreamCapture capture;
  private final HttpEngine engine;
  private final Function<Session, String> bodyOf;
  private final Action next;

  ReadyAction(
      StreamCapture capture, HttpEngine engine, Function<Session, String> bodyOf, Action next) {
    this.capture = capture;
    this.engine = engine;
    this.bodyOf = bodyOf;
    this.next = next;
  }

  @Override
  public String name() {
    return "llmReady";
  }

  @Override
  public void execute(io.gatling.core.session.Session session) {
    try {
      StreamAction.request(capture, "ready", bodyOf.apply(new Session(session)));
    } catch (RuntimeException e) {
      LOG.debug("gatling-llm-bench: the ready request could not be built: {}", e.toString());
    }
    List<EventLoop> loops = new ArrayList<>();
    for (EventExecutor e : session.eventLoop().parent()) {
      loops.add((EventLoop) e);
    }
    AtomicInteger left = new AtomicInteger(loops.size());
    Runnable done =
        () -> {
          if (left.decrementAndGet() == 0) {
            session.eventLoop().execute(() -> next.execute(session));
          }
        };
    Request models = modelsRequest();
    for (EventLoop loop : loops) {
      GatlingHttpInternals.send(engine, models, session.userId(), loop, new Answer(done));
    }
  }

  /**
   * {@code GET /v1/models} with the run's headers (API key, {@code Connection: close} where the run
   * asks for it, the user's).
   */
  private Request modelsRequest() {
    HttpHeaders headers = new DefaultHttpHeaders();
    headers.add(capture.headers());
    headers.remove(HttpHeaderNames.CONTENT_TYPE);
    headers.set(HttpHeaderNames.ACCEPT, "application/json");
    return new RequestBuilder(
            "ready", HttpMethod.GET, capture.modelsUri(), InetAddressNameResolver.JAVA_RESOLVER)
        .setHeaders(headers)
        .setRequestTimeout(Math.min(capture.timeoutSeconds(), READY_TIMEOUT_SECONDS) * 1000L)
        .setDefaultCharset(StandardCharsets.UTF_8)
        .build();
  }

  /** Waits for the end of one answer, whatever it says. */
  private static final class Answer implements HttpListener {
    private final Runnable done;
    private boolean finished;

    Answer(Runnable done) {
      this.done = done;
    }

    @Override
    public void onWrite(Channel channel) {
      GatlingHttpInternals.failOnClose(
          channel); // the streaming requests that reuse it are never resent either
    }

    @Override
    public void onFinalClientRequest(Request request) {}

    @Override
    public void onHttpResponse(HttpResponseStatus status, HttpHeaders headers) {}

    @Override
    public void onHttpResponseBodyChunk(ByteBuf chunk, boolean last) {
      if (last) {
        finish();
      }
    }

    @Override
    public void onThrowable(Throwable e) {
      LOG.debug("gatling-llm-bench: GET /v1/models before the load failed: {}", e.toString());
      finish();
    }

    private void finish() {
      if (!finished) {
        finished = true;
        done.run();
      }
    }
  }
}
