package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.core.session.Session;
import io.gatling.http.client.impl.PrematureCloseException;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How one request ends, from the HTTP client's callbacks as Gatling's client makes them: exactly
 * once, with the reason a user can act on.
 */
class StreamExchangeTest {
  private final DefaultEventLoop loop = new DefaultEventLoop();
  private final List<String> ends = new ArrayList<>();
  private final List<Integer> statuses = new ArrayList<>();

  @AfterEach
  void stop() {
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  private StreamExchange exchange() {
    Session session = io.gatling.core.session.Session$.MODULE$.apply("s", 1L, loop);
    return new StreamExchange(
        session,
        new RequestRecords.Sent("req-1", "c1", null, System.nanoTime()),
        StreamExchange.Reading.stream(8, false, 5),
        (ex, end, failure, status) -> {
          ends.add(
              failure == null
                  ? (ex.stream().error() == null ? "ok" : ex.stream().error())
                  : failure);
          statuses.add(status);
        });
  }

  private static HttpHeaders headers(String contentType) {
    return new DefaultHttpHeaders().set("content-type", contentType);
  }

  private static void body(StreamExchange ex, String text, boolean last) {
    ex.onHttpResponseBodyChunk(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8), last);
  }

  @Test
  void aCleanStreamEndsOnceAtTheEndOfTheResponse() {
    StreamExchange ex = exchange();
    ex.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream; charset=utf-8"));
    body(
        ex,
        SseText.events(List.of(SseText.content("a"), SseText.usage(3, 1), SseText.DONE)),
        false);
    body(ex, "", true);
    ex.onThrowable(PrematureCloseException.INSTANCE); // anything after the end is ignored
    assertEquals(List.of("ok"), ends);
    assertEquals(List.of(200), statuses);
    assertEquals(1, ex.stream().textCount());
  }

  @Test
  void doneWithoutTheResponsesEndEndsOnTheEventLoopSoon() throws Exception {
    StreamExchange ex = exchange();
    loop.submit(
            () -> {
              ex.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream"));
              body(ex, SseText.events(List.of(SseText.content("a"), SseText.DONE)), false);
            })
        .get();
    loop.submit(() -> {}).get(); // the tasks queued behind it have run
    assertEquals(List.of("ok"), ends);
  }

  @Test
  void aStreamThatEndsWithoutDone() {
    StreamExchange ex = exchange();
    ex.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream"));
    body(ex, SseText.events(List.of(SseText.content("a"))), true);
    assertEquals(List.of("stream ended without [DONE]"), ends);
  }

  @Test
  void anErrorEventEndsTheRequestAndClosesTheConnection() {
    StreamExchange ex = exchange();
    EmbeddedChannel channel = new EmbeddedChannel();
    ex.onWrite(channel);
    ex.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream"));
    body(
        ex,
        SseText.events(
            List.of(
                SseText.content("a"), "{\"error\":{\"message\":\"engine died\",\"code\":500}}")),
        false);
    assertEquals(List.of("error event: engine died (code 500)"), ends);
    assertFalse(channel.isOpen(), "the server would go on streaming");
  }

  @Test
  void aCutAfterTheHeadersIsAStreamCutAndBeforeThemAClosedConnection() {
    StreamExchange cut = exchange();
    cut.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream"));
    body(cut, SseText.events(List.of(SseText.ROLE, SseText.content("a"))) + "data: {\"cho", false);
    cut.onThrowable(PrematureCloseException.INSTANCE);
    StreamExchange early = exchange();
    early.onThrowable(PrematureCloseException.INSTANCE);
    assertEquals(
        List.of(
            "stream cut before [DONE]: the server closed the connection after 2 events",
            "connection closed by the server before the response"),
        ends);
    assertEquals(Arrays.asList(200, null), statuses);
  }

  @Test
  void timeoutsSayWhatDidNotCome() {
    exchange().onThrowable(new TimeoutException("Request timeout"));
    StreamExchange streaming = exchange();
    streaming.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream"));
    streaming.onThrowable(new TimeoutException("Request timeout"));
    assertEquals(List.of("timeout: no response within 5 s", "timeout: no [DONE] within 5 s"), ends);
  }

  @Test
  void anHttpErrorKeepsTheServersWords() {
    StreamExchange ex = exchange();
    ex.onHttpResponse(HttpResponseStatus.BAD_REQUEST, headers("application/json"));
    body(ex, "{\"error\":{\"code\":400,\"message\":\"request (1502 tokens) exceeds", false);
    body(ex, " the available context size (1024 tokens)\"}}", true);
    assertEquals(
        List.of("HTTP 400: request (1502 tokens) exceeds the available context size (1024 tokens)"),
        ends);
    assertEquals(List.of(400), statuses);
  }

  @Test
  void aTwoHundredThatIsNotAStreamIsAFailureWithWhatItSaid() {
    StreamExchange ex = exchange();
    ex.onHttpResponse(HttpResponseStatus.OK, headers("application/json"));
    body(ex, "{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}", true);
    assertEquals(1, ends.size());
    assertTrue(
        ends.get(0)
            .startsWith(
                "HTTP 200 without an event stream (content-type application/json): {\"choices\""),
        ends.get(0));
  }

  @Test
  void aConnectErrorSaysSo() {
    exchange().onThrowable(new ConnectException("Connection refused: /127.0.0.1:9"));
    assertEquals(List.of("connect error: Connection refused: /127.0.0.1:9"), ends);
    assertNull(statuses.get(0));
  }
}
