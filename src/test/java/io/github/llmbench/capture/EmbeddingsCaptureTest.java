package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.core.session.Session;
import io.gatling.http.client.impl.PrematureCloseException;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.RequestRecord;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultEventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An embeddings answer ({@code /v1/embeddings}): one JSON body read as it arrives, however it is
 * split, to a record whose E2EL (and TTFT, as vLLM's) is the body's end, with the usage's input
 * tokens and 0 output tokens; and each way it can fail, with its text.
 */
class EmbeddingsCaptureTest {
  private final DefaultEventLoop loop = new DefaultEventLoop();
  private final List<RequestRecord> records = new ArrayList<>();
  private final long t0 = System.nanoTime();

  @AfterEach
  void stop() {
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  private StreamExchange exchange() {
    Session session = io.gatling.core.session.Session$.MODULE$.apply("s", 1L, loop);
    return new StreamExchange(
        session,
        new RequestRecords.Sent("req-1", "c1", null, t0),
        StreamExchange.Reading.pooled(5),
        (ex, end, failure, status) ->
            records.add(
                RequestRecords.builder(ex.sent, end, ex.stream(), failure, status, null)
                    .figures(Figures.POOLED)
                    .build()));
  }

  private static String answer(int dimensions, int promptTokens) {
    StringBuilder v = new StringBuilder();
    for (int i = 0; i < dimensions; i++) {
      v.append(i == 0 ? "" : ",").append(-0.0123456 + i * 1e-6);
    }
    return "{\"id\":\"embd-1\",\"object\":\"list\",\"created\":1,\"model\":\"m\",\"data\":[{\"index\":0,"
        + "\"object\":\"embedding\",\"embedding\":["
        + v
        + "]}],\"usage\":{\"prompt_tokens\":"
        + promptTokens
        + ",\"total_tokens\":"
        + promptTokens
        + ",\"completion_tokens\":0,\"prompt_tokens_details\":null}}";
  }

  private static void body(StreamExchange ex, String text, boolean last) {
    ex.onHttpResponseBodyChunk(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8), last);
  }

  private StreamExchange answered(int status) {
    StreamExchange ex = exchange();
    ex.onHttpResponse(
        HttpResponseStatus.valueOf(status),
        new DefaultHttpHeaders().set("content-type", "application/json"));
    return ex;
  }

  @Test
  void aBodySplitAnywhereIsOneRecordWithTheUsagesInputTokens() {
    String json = answer(4096, 37);
    // cut into pieces that split numbers, names and the usage itself
    for (int piece : new int[] {1, 7, 1000, json.length()}) {
      records.clear();
      StreamExchange ex = answered(200);
      for (int at = 0; at < json.length(); at += piece) {
        String part = json.substring(at, Math.min(json.length(), at + piece));
        body(ex, part, at + piece >= json.length());
      }
      assertEquals(1, records.size(), "piece " + piece);
      RequestRecord r = records.get(0);
      assertTrue(r.ok(), r.error());
      assertEquals(Figures.POOLED, r.figures());
      assertEquals(37, r.inputTokens());
      assertNull(r.inputTokensFrom(), "the server's count");
      assertEquals(0, r.outputTokens());
      assertNull(r.tpotMs());
      assertTrue(r.itlMs().isEmpty());
      assertEquals(r.e2elMs(), r.ttftMs(), "TTFT is E2EL, as vLLM sets it");
      assertTrue(r.e2elMs() > 0);
    }
  }

  @Test
  void aBodyWithoutUsageCompletesWithUnknownInputTokens() {
    StreamExchange ex = answered(200);
    body(ex, "{\"object\":\"list\",\"data\":[{\"index\":0,\"embedding\":[1.0]}]}", true);
    assertTrue(records.get(0).ok(), records.get(0).error());
    assertNull(records.get(0).inputTokens());
  }

  @Test
  void eachFailureKindIsAFailedRecordWithItsText() {
    StreamExchange http = answered(400);
    body(http, "{\"error\":{\"message\":\"input: Field required\",\"code\":400}}", true);

    StreamExchange notJson = answered(200);
    body(notJson, "<html>gateway</html>", true);

    StreamExchange noData = answered(200);
    body(noData, "{\"object\":\"list\",\"usage\":{\"prompt_tokens\":3}}", true);

    StreamExchange error = answered(200);
    body(error, "{\"error\":{\"message\":\"embedding failed\",\"code\":500}}", true);

    StreamExchange truncated = answered(200);
    String half = "{\"object\":\"list\",\"data\":[{\"embedding\":[0.1,";
    body(truncated, half, true);

    StreamExchange cut = answered(200);
    body(cut, answer(8, 3).substring(0, 40), false);
    cut.onThrowable(PrematureCloseException.INSTANCE);

    StreamExchange slow = answered(200);
    body(slow, answer(8, 3).substring(0, 40), false);
    slow.onThrowable(new TimeoutException("Request timeout"));

    assertEquals(
        List.of(
            "HTTP 400: input: Field required",
            "HTTP 200 body is not JSON: <html>gateway</html>",
            "HTTP 200 body without data: {\"object\":\"list\",\"usage\":{\"prompt_tokens\":3}}",
            "error in HTTP 200 body: embedding failed",
            "HTTP 200 body ended before its JSON did, after " + half.length() + " bytes",
            "body cut before its end: the server closed the connection after 40 bytes of JSON",
            "timeout: the JSON body did not end within 5 s (40 bytes read)"),
        records.stream().map(RequestRecord::error).toList());
    assertFalse(records.stream().anyMatch(RequestRecord::ok));
    assertTrue(records.stream().allMatch(r -> r.figures() == Figures.POOLED));
    assertEquals(3, records.get(2).inputTokens(), "what the failed answer said");
  }
}
