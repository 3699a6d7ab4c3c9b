package io.github.llmbench.simulator;

import io.github.llmbench.simulator.StreamWriter.Json;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes one streamed answer of OpenAI's Responses API ({@code POST /v1/responses} with {@code
 * stream: true}), as vLLM serves it: typed events, each an {@code event:} line and its {@code
 * data:}, with a {@code sequence_number}:
 *
 * <pre>
 * response.created, response.in_progress                   the response, status in_progress
 * response.output_item.added, response.content_part.added   with the first token
 * response.reasoning_text.delta {"delta": ..}               per thinking token (-Dsim.reasoning)
 * response.output_text.delta {"delta": ..}                  per answer token
 * response.output_text.done, response.content_part.done, response.output_item.done
 * response.incomplete                                       the response with its usage, status
 *                                                           incomplete, reason max_output_tokens
 * </pre>
 *
 * The answer always runs to {@code max_output_tokens} ({@code ignore_eos}), so it ends as {@code
 * response.incomplete}, as vLLM's does when the length is reached. No {@code [DONE]}.
 */
final class ResponsesStreamWriter implements ResponseWriter {
  private final Channel channel;
  private final Runnable onDone;
  private final ParsedRequest req;
  private final String model;
  private final boolean keepAlive;
  private final String id;
  private final String itemId;
  private final long created;
  private final int seed;
  private final int reasoningTokens;
  private final StringBuilder text = new StringBuilder();
  private int sequence;
  private ChannelFuture sent;

  ResponsesStreamWriter(
      Channel channel,
      ParsedRequest req,
      String model,
      boolean keepAlive,
      Runnable onDone,
      int reasoningTokens) {
    this.channel = channel;
    this.req = req;
    this.model = model;
    this.keepAlive = keepAlive;
    this.onDone = onDone;
    this.reasoningTokens = Math.min(reasoningTokens, Math.max(0, req.maxTokens - 1));
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    // vLLM: f"resp_{random_uuid()}", items f"msg_{random_uuid()}"
    this.id = "resp_" + Long.toHexString(rnd.nextLong()) + Long.toHexString(rnd.nextLong());
    this.itemId = "msg_" + Long.toHexString(rnd.nextLong());
    this.created = System.currentTimeMillis() / 1000;
    this.seed = rnd.nextInt(StubTokenizer.OUTPUT_WORDS.length);
  }

  @Override
  public EventLoop eventLoop() {
    return channel.eventLoop();
  }

  /** The head and the response's first two events, before any token. */
  void writeStreamHead() {
    DefaultHttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    r.headers().set("Content-Type", "text/event-stream; charset=utf-8");
    r.headers().set("Transfer-Encoding", "chunked");
    channel.write(r, channel.voidPromise());
    StringBuilder out = new StringBuilder(1024);
    event(out, "response.created", "\"response\":" + response("in_progress", null));
    event(out, "response.in_progress", "\"response\":" + response("in_progress", null));
    write(out, false);
  }

  @Override
  public boolean emit(int k) {
    boolean last = k == req.maxTokens - 1;
    StringBuilder out = new StringBuilder(256);
    String word =
        new String(
            StubTokenizer.OUTPUT_WORDS_JSON[StubTokenizer.outputWord(seed, k)],
            StandardCharsets.UTF_8);
    if (k == reasoningTokens) {
      event(
          out,
          "response.output_item.added",
          "\"output_index\":0,\"item\":{\"id\":\""
              + itemId
              + "\",\"type\":\"message\",\"role\":\"assistant\",\"status\":\"in_progress\",\"content\":[]}");
      event(
          out,
          "response.content_part.added",
          "\"item_id\":\""
              + itemId
              + "\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"text\":\"\",\"annotations\":[]}");
    }
    if (k < reasoningTokens) {
      event(
          out,
          "response.reasoning_text.delta",
          "\"item_id\":\"rs_"
              + itemId
              + "\",\"output_index\":0,\"content_index\":0,\"delta\":"
              + word);
    } else {
      text.append(StubTokenizer.OUTPUT_WORDS[StubTokenizer.outputWord(seed, k)]);
      event(
          out,
          "response.output_text.delta",
          "\"item_id\":\""
              + itemId
              + "\",\"output_index\":0,\"content_index\":0,\"delta\":"
              + word
              + ",\"logprobs\":[]");
    }
    if (last) {
      String all = Json.quote(text.toString());
      event(
          out,
          "response.output_text.done",
          "\"item_id\":\"" + itemId + "\",\"output_index\":0,\"content_index\":0,\"text\":" + all);
      event(
          out,
          "response.content_part.done",
          "\"item_id\":\""
              + itemId
              + "\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"text\":"
              + all
              + ",\"annotations\":[]}");
      event(
          out,
          "response.output_item.done",
          "\"output_index\":0,\"item\":{\"id\":\""
              + itemId
              + "\",\"type\":\"message\",\"role\":\"assistant\",\"status\":\"incomplete\",\"content\":[{\"type\":\"output_text\",\"text\":"
              + all
              + ",\"annotations\":[]}]}");
      event(out, "response.incomplete", "\"response\":" + response("incomplete", usage()));
    }
    write(out, last);
    return true;
  }

  @Override
  public void recordSent(LatenessHistogram lateness, long scheduledEnd) {
    ResponseWriter.recordWhenWritten(sent, lateness, scheduledEnd);
  }

  private void event(StringBuilder out, String type, String fields) {
    out.append("event: ")
        .append(type)
        .append("\ndata: {\"type\":\"")
        .append(type)
        .append("\",")
        .append(fields)
        .append(",\"sequence_number\":")
        .append(sequence++)
        .append("}\n\n");
  }

  private void write(StringBuilder out, boolean last) {
    byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
    ByteBuf buf = channel.alloc().buffer(bytes.length).writeBytes(bytes);
    if (last) {
      channel.write(new DefaultHttpContent(buf));
      sent = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
      onDone.run();
      if (!keepAlive) {
        sent.addListener(ChannelFutureListener.CLOSE);
      }
    } else {
      sent = channel.writeAndFlush(new DefaultHttpContent(buf));
    }
  }

  private String response(String status, String usage) {
    return "{\"id\":\""
        + id
        + "\",\"object\":\"response\",\"created_at\":"
        + created
        + ",\"model\":"
        + Json.quote(model)
        + ",\"status\":\""
        + status
        + "\",\"incomplete_details\":"
        + (status.equals("incomplete") ? "{\"reason\":\"max_output_tokens\"}" : "null")
        + ",\"max_output_tokens\":"
        + req.maxTokens
        + ",\"output\":[],\"usage\":"
        + (usage == null ? "null" : usage)
        + "}";
  }

  private String usage() {
    return "{\"input_tokens\":"
        + req.promptTokens
        + ",\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":"
        + req.maxTokens
        + ",\"output_tokens_details\":{\"reasoning_tokens\":"
        + reasoningTokens
        + "},\"total_tokens\":"
        + (req.promptTokens + req.maxTokens)
        + "}";
  }
}
