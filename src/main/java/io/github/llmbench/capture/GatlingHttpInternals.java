package io.github.llmbench.capture;

import io.gatling.core.structure.ScenarioContext;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.engine.HttpEngine;
import io.gatling.http.protocol.HttpComponents;
import io.gatling.http.protocol.HttpProtocol;
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
 */
final class GatlingHttpInternals {

  private GatlingHttpInternals() {}

  /** The HTTP engine of the scenario's HTTP protocol (a default one when none was registered). */
  static HttpEngine engine(ScenarioContext ctx) {
    HttpComponents components = ctx.protocolComponentsRegistry().components(HttpProtocol.HttpProtocolKey());
    return components.httpEngine();
  }

  /**
   * Sends a request on the user's event loop over the shared connection pool (as vLLM's client
   * keeps one pool for all requests); the listener's callbacks run on that event loop.
   */
  static void send(HttpEngine engine, Request request, io.gatling.core.session.Session session, HttpListener listener) {
    engine.executeRequest(request, session.userId(), true, session.eventLoop(), listener, Option.empty());
  }

  /** As {@link #send}, from {@code eventLoop}: the client keeps a connection pool per event loop. */
  static void send(HttpEngine engine, Request request, long userId, io.netty.channel.EventLoop eventLoop, HttpListener listener) {
    engine.executeRequest(request, userId, true, eventLoop, listener, Option.empty());
  }

  /** Whether the client saw the connection close before the response ended. */
  static boolean isPrematureClose(Throwable t) {
    return t instanceof PrematureCloseException;
  }
}
