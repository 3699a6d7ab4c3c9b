package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.engine.HttpEngine;
import io.gatling.http.protocol.HttpProtocol;
import io.netty.channel.EventLoop;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Breaks loudly when a Gatling upgrade moves the HTTP internals the streaming action relies on (the
 * protocol key of HTTP components, the engine's {@code executeRequest}, the client's
 * premature-close exception): fix {@link GatlingHttpInternals} then. The integration tests
 * (ServingBenchmarkIT, FailureHandlingIT) exercise them end to end.
 */
class GatlingHttpInternalsTest {

  @Test
  void theProtocolKeyAndTheEngineMethodExist() throws NoSuchMethodException {
    assertNotNull(HttpProtocol.HttpProtocolKey());
    assertNotNull(
        HttpEngine.class.getMethod(
            "executeRequest",
            Request.class,
            long.class,
            boolean.class,
            EventLoop.class,
            HttpListener.class,
            scala.Option.class));
  }

  @Test
  void aPrematureCloseIsRecognisedAndNothingElse() {
    assertTrue(GatlingHttpInternals.isPrematureClose(PrematureCloseException.INSTANCE));
    assertFalse(GatlingHttpInternals.isPrematureClose(new IOException("Premature close")));
  }
}
