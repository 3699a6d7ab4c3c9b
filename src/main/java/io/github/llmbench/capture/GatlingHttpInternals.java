package io.github.llmbench.capture;

import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.gatling.http.client.impl.DefaultHttpClient;
import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.engine.HttpEngine;
import io.gatling.http.protocol.HttpComponents;
import io.gatling.http.protocol.HttpProtocol;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import scala.Option;

/**
 * The one place that reaches into Gatling's HTTP internals (gatling-http 3.15.1): the engine that
 * owns the HTTP client and its connection pools, as Gatling's own SSE and WebSocket actions reach
 * it, and the exception its client raises when a connection closes mid-response.
 *
 * <p>Why: the kit's streaming action sends through Gatling's HTTP client with its own body-chunk
 * listener, so each chunk is stamped with a nanosecond clock when read, and a cut stream fails at
 * once instead of being reconnected (Gatling's {@code sse()} follows the browser rules). {@code
 * GatlingHttpInternalsTest} fails loudly if an upgrade moves any of this.
 *
 * <p>Gatling's client resends a request, on a new connection, when a connection taken from the pool
 * closes before any response came (it takes that for a keep-alive connection the server closed
 * while idle), and it cannot tell that from a server that read the request and then dropped the
 * connection. A load generator must not resend: {@link #failOnClose} makes such a close fail the
 * request in flight instead.
 */
final class GatlingHttpInternals {
  /** The name of the kit's handler in a connection's pipeline. */
  static final String FAIL_ON_CLOSE = "llmbench-fail-on-close";

  private GatlingHttpInternals() {}

  /** The HTTP engine of the scenario's HTTP protocol (a default one when none was registered). */
  static HttpEngine engine(ScenarioContext ctx) {
    HttpComponents components =
        ctx.protocolComponentsRegistry().components(HttpProtocol.HttpProtocolKey());
    return components.httpEngine();
  }

  /**
   * Sends a request on the user's event loop over the shared connection pool (as vLLM's client
   * keeps one pool for all requests); the listener's callbacks run on that event loop.
   */
  static void send(HttpEngine engine, Request request, Session session, HttpListener listener) {
    engine.executeRequest(
        request, session.userId(), true, session.eventLoop(), listener, Option.empty());
  }

  /**
   * Makes a close of this HTTP/1.1 connection fail the request in flight (if any), before Gatling's
   * handler could resend it: the close reaches that handler first as the client's own
   * premature-close failure, which it reports to the request's listener, and only then as the
   * close, which finds no request left to resend. Called as each request is written; installs the
   * handler once per connection.
   *
   * @return whether the connection had carried a request of the kit's before (a reused one)
   */
  static boolean failOnClose(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    if (pipeline.get(FAIL_ON_CLOSE) != null) {
      return true;
    }
    if (pipeline.get(DefaultHttpClient.APP_HTTP_HANDLER) != null) {
      pipeline.addBefore(
          DefaultHttpClient.APP_HTTP_HANDLER, FAIL_ON_CLOSE, CloseFailsTheRequest.INSTANCE);
    }
    return false;
  }

  @ChannelHandler.Sharable
  static final class CloseFailsTheRequest extends ChannelInboundHandlerAdapter {
    static final CloseFailsTheRequest INSTANCE = new CloseFailsTheRequest();

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      ctx.fireExceptionCaught(PrematureCloseException.INSTANCE);
      ctx.fireChannelInactive();
    }
  }

  /**
   * As {@link #send}, from {@code eventLoop}: the client keeps a connection pool per event loop.
   */
  static void send(
      HttpEngine engine, Request request, long userId, EventLoop eventLoop, HttpListener listener) {
    engine.executeRequest(request, userId, true, eventLoop, listener, Option.empty());
  }

  /** Whether the client saw the connection close before the response ended. */
  static boolean isPrematureClose(Throwable t) {
    return t instanceof PrematureCloseException;
  }
}
