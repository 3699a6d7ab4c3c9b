package io.github.llmbench.simulator;

import io.github.llmbench.simulator.StreamWriter.Json;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Writes the answer of one embeddings request ({@code POST /v1/embeddings}) when its prefill ends
 * (its one "token", never written), as vLLM's {@code EmbeddingResponse}:
 *
 * <pre>
 * {"id":"embd-..","object":"list","created":..,"model":..,
 *  "data":[{"index":0,"object":"embedding","embedding":[..]}],
 *  "usage":{"prompt_tokens":N,"total_tokens":N,"completion_tokens":0,"prompt_tokens_details":null}}
 * </pre>
 *
 * The vector has the model's hidden size (at most {@value #MAX_DIMENSIONS}) floats of unit length,
 * as vLLM normalizes it. A drawn fault takes the form a non-streamed answer can have: {@code error}
 * a 200 whose body holds vLLM's error object instead of {@code data} (as a server whose headers
 * went out before the failure), {@code cut} the connection closed halfway through the body, {@code
 * stall} the answer held back that long; {@code 429} and {@code 500} are answered before the
 * prefill, as for every endpoint.
 */
final class EmbeddingsWriter implements ResponseWriter {

  /** The most floats in a vector: a plausible size (BERT's 768 to 4096), bounded. */
  static final int MAX_DIMENSIONS = 4096;

  private final Channel channel;
  private final ParsedRequest req;
  private final String model;
  private final int dimensions;
  private final boolean keepAlive;
  private final Runnable onDone;
  private final SimFaults.Fault fault;
  private ChannelFuture sent;

  EmbeddingsWriter(
      Channel channel,
      ParsedRequest req,
      String model,
      int dimensions,
      boolean keepAlive,
      Runnable onDone,
      SimFaults.Fault fault) {
    this.channel = channel;
    this.req = req;
    this.model = model;
    this.dimensions = Math.max(1, dimensions);
    this.keepAlive = keepAlive;
    this.onDone = onDone;
    this.fault = fault;
  }

  @Override
  public EventLoop eventLoop() {
    return channel.eventLoop();
  }

  @Override
  public boolean emit(int k) {
    if (k != 0) {
      return false; // one step: the prefill's
    }
    SimFaults.Mode mode = fault == null ? null : fault.mode();
    if (mode == SimFaults.Mode.STALL) {
      channel
          .eventLoop()
          .schedule(this::answer, (long) (fault.stallSeconds() * 1e9), TimeUnit.NANOSECONDS);
      return false;
    }
    answer();
    return true;
  }

  private void answer() {
    onDone.run();
    if (!channel.isActive()) {
      return;
    }
    SimFaults.Mode mode = fault == null ? null : fault.mode();
    if (mode == SimFaults.Mode.ERROR_EVENT) {
      send(
          full(
              "{\"error\":{\"message\":\"simulated fault: embedding failed\","
                  + "\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}"));
      return;
    }
    byte[] body = body().getBytes(StandardCharsets.UTF_8);
    if (mode == SimFaults.Mode.CUT) {
      // the head promises the whole body; half of it comes, then the connection closes
      DefaultHttpResponse head =
          new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
      head.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
      channel.write(head);
      channel
          .writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(body, 0, body.length / 2)))
          .addListener(ChannelFutureListener.CLOSE);
      return;
    }
    send(full(body));
  }

  private FullHttpResponse full(String json) {
    return full(json.getBytes(StandardCharsets.UTF_8));
  }

  private FullHttpResponse full(byte[] bytes) {
    FullHttpResponse r =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(bytes));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
    r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    if (!keepAlive) {
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return r;
  }

  private void send(FullHttpResponse r) {
    sent = channel.writeAndFlush(r);
    if (!keepAlive) {
      sent.addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void recordSent(LatenessHistogram lateness, long scheduledEnd) {
    ResponseWriter.recordWhenWritten(sent, lateness, scheduledEnd);
  }

  /** The response: a unit vector drawn from a seed, and the prompt's tokens as the usage. */
  private String body() {
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    SplittableRandom values = new SplittableRandom(rnd.nextLong());
    double[] v = new double[dimensions];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = values.nextDouble(-1, 1);
      norm += v[i] * v[i];
    }
    norm = Math.sqrt(norm);
    StringBuilder sb = new StringBuilder(64 + dimensions * 12);
    sb.append("{\"id\":\"embd-")
        .append(Long.toHexString(rnd.nextLong()))
        .append("\",\"object\":\"list\",\"created\":")
        .append(System.currentTimeMillis() / 1000)
        .append(",\"model\":")
        .append(Json.quote(model))
        .append(",\"data\":[{\"index\":0,\"object\":\"embedding\",\"embedding\":[");
    for (int i = 0; i < v.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append((float) (v[i] / norm)); // float32, as vLLM's vectors
    }
    sb.append("]}],\"usage\":{\"prompt_tokens\":")
        .append(req.promptTokens)
        .append(",\"total_tokens\":")
        .append(req.promptTokens)
        .append(",\"completion_tokens\":0,\"prompt_tokens_details\":null}}");
    return sb.toString();
  }
}
