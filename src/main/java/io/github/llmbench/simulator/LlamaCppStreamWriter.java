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
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes one streamed completion in llama.cpp's {@code llama-server} shape ({@link
 * Dialect#LLAMACPP}), field order as captured from llama-server 0.7.0:
 *
 * <pre>
 * chat:        {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":..,"id":..,"model":..,"system_fingerprint":..,"object":"chat.completion.chunk"}
 *              {"choices":[{"finish_reason":null,"index":0,"delta":{"content":" word"}}],...}           one per token
 *              {"choices":[{"finish_reason":"length","index":0,"delta":{}}],...}                         finish
 *              {"choices":[],...,"usage":{...},"timings":{...}}                                        with include_usage
 * completions: {"choices":[{"text":" word","index":0,"logprobs":null,"finish_reason":null}],"created":..,"model":..,"system_fingerprint":..,"object":"text_completion","id":..}
 *              {"choices":[{"text":"","index":0,"logprobs":null,"finish_reason":"length"}],...,"usage":{...},"id":..,"timings":{...}}
 * </pre>
 *
 * then {@code data: [DONE]}, and the connection is closed although the head announced {@code
 * Keep-Alive: timeout=5, max=100}, as llama-server does. The {@code timings} are the simulator's
 * own: {@code prompt_ms} from the request's arrival to its first token, {@code predicted_ms} from
 * the first to the last token, {@code predicted_per_token_ms} = {@code predicted_ms / (n - 1)} as
 * llama-server computes it. Separate from {@link StreamWriter} (vLLM's hot path); non-streaming
 * responses are delegated to it.
 */
final class LlamaCppStreamWriter implements ResponseWriter {
  static final String FINGERPRINT = "b0-simulator";

  private final Channel channel;
  private final Runnable onDone;
  private final ParsedRequest req;
  private final StreamWriter whole;

  /** The last token's write, for {@link #recordSent}. */
  private ChannelFuture sent;

  private final String id;
  private final long created;
  private final String model;
  private final int seed;
  private final long arrivalNanos = System.nanoTime();
  private long firstTokenNanos;

  /** A chat answer's first tokens that are thinking, streamed as {@code reasoning_content}. */
  private final int reasoningTokens;

  LlamaCppStreamWriter(
      Channel channel,
      ParsedRequest req,
      String model,
      boolean keepAlive,
      Runnable onDone,
      int reasoningTokens) {
    this.reasoningTokens = req.chat ? reasoningTokens : 0;
    this.channel = channel;
    this.req = req;
    this.model = model;
    this.onDone = onDone;
    this.whole = new StreamWriter(channel, req, model, keepAlive, onDone);
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    // llama-server: "chatcmpl-" + 32 random alphanumerics, for completions too
    StringBuilder sb = new StringBuilder("chatcmpl-");
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < 32; i++) {
      sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
    }
    this.id = sb.toString();
    this.created = System.currentTimeMillis() / 1000;
    this.seed = rnd.nextInt(StubTokenizer.OUTPUT_WORDS.length);
  }

  @Override
  public EventLoop eventLoop() {
    return channel.eventLoop();
  }

  /** llama-server's response head: it announces keep-alive, yet closes after the stream. */
  void writeStreamHead() {
    DefaultHttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    r.headers().set("Server", LlamaCppAnswers.SERVER);
    r.headers().set("Content-Type", "text/event-stream");
    r.headers().set("Transfer-Encoding", "chunked");
    r.headers().set("Keep-Alive", "timeout=5, max=100");
    channel.writeAndFlush(r, channel.voidPromise());
  }

  @Override
  public boolean emit(int k) {
    if (!req.stream) {
      return whole.emit(k);
    }
    boolean last = k == req.maxTokens - 1;
    long now = System.nanoTime();
    if (k == 0) {
      firstTokenNanos = now;
    }
    String word =
        new String(
            StubTokenizer.OUTPUT_WORDS_JSON[StubTokenizer.outputWord(seed, k)],
            StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(512);
    if (req.chat) {
      if (k == 0) {
        chatChunk(
            out,
            "{\"finish_reason\":null,\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}",
            "");
      }
      chatChunk(
          out,
          "{\"finish_reason\":null,\"index\":0,\"delta\":{\""
              + (k < reasoningTokens ? "reasoning_content" : "content")
              + "\":"
              + word
              + "}}",
          "");
      if (last) {
        chatChunk(out, "{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}", "");
        if (req.includeUsage) {
          chatChunk(out, null, ",\"usage\":" + usage() + ",\"timings\":" + timings(now));
        }
      }
    } else {
      out.append("data: {\"choices\":[{\"text\":")
          .append(word)
          .append(",\"index\":0,\"logprobs\":null,\"finish_reason\":null}]")
          .append(common("text_completion"))
          .append(",\"id\":\"")
          .append(id)
          .append("\"}\n\n");
      if (last) {
        out.append(
                "data: {\"choices\":[{\"text\":\"\",\"index\":0,\"logprobs\":null,\"finish_reason\":\"length\"}]")
            .append(common("text_completion"));
        if (req.includeUsage) {
          out.append(",\"usage\":").append(usage());
        }
        out.append(",\"id\":\"")
            .append(id)
            .append("\",\"timings\":")
            .append(timings(now))
            .append("}\n\n");
      }
    }
    if (last) {
      out.append("data: [DONE]\n\n");
    }
    byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
    ByteBuf buf = channel.alloc().buffer(bytes.length).writeBytes(bytes);
    if (last) {
      channel.write(new DefaultHttpContent(buf));
      var f = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
      sent = f;
      onDone.run();
      // as llama-server (cpp-httplib): the connection is closed after a stream, keep-alive or not
      f.addListener(ChannelFutureListener.CLOSE);
    } else {
      sent = channel.writeAndFlush(new DefaultHttpContent(buf));
    }
    return true;
  }

  @Override
  public void recordSent(LatenessHistogram lateness, long scheduledEnd) {
    if (req.stream) {
      ResponseWriter.recordWhenWritten(sent, lateness, scheduledEnd);
    } else {
      whole.recordSent(lateness, scheduledEnd);
    }
  }

  private void chatChunk(StringBuilder out, String choice, String extra) {
    out.append("data: {\"choices\":[")
        .append(choice == null ? "" : choice)
        .append("],\"created\":")
        .append(created)
        .append(",\"id\":\"")
        .append(id)
        .append("\",\"model\":")
        .append(Json.quote(model))
        .append(",\"system_fingerprint\":\"")
        .append(FINGERPRINT)
        .append("\",\"object\":\"chat.completion.chunk\"")
        .append(extra)
        .append("}\n\n");
  }

  private String common(String object) {
    return ",\"created\":"
        + created
        + ",\"model\":"
        + Json.quote(model)
        + ",\"system_fingerprint\":\""
        + FINGERPRINT
        + "\",\"object\":\""
        + object
        + "\"";
  }

  private String usage() {
    return "{\"completion_tokens\":"
        + req.maxTokens
        + ",\"prompt_tokens\":"
        + req.promptTokens
        + ",\"total_tokens\":"
        + (req.promptTokens + req.maxTokens)
        + ",\"prompt_tokens_details\":{\"cached_tokens\":0}}";
  }

  private String timings(long now) {
    double promptMs = (firstTokenNanos - arrivalNanos) / 1e6;
    double predictedMs = (now - firstTokenNanos) / 1e6;
    int n = req.maxTokens;
    double perToken = n > 1 ? predictedMs / (n - 1) : 0;
    return String.format(
        Locale.ROOT,
        "{\"cache_n\":0,\"prompt_n\":%d,\"prompt_ms\":%.3f,\"prompt_per_token_ms\":%.6f,\"prompt_per_second\":%.3f,"
            + "\"predicted_n\":%d,\"predicted_ms\":%.3f,\"predicted_per_token_ms\":%.6f,\"predicted_per_second\":%.3f}",
        req.promptTokens,
        promptMs,
        promptMs / Math.max(1, req.promptTokens),
        promptMs > 0 ? req.promptTokens * 1000 / promptMs : 0,
        n,
        predictedMs,
        perToken,
        predictedMs > 0 ? (n - 1) * 1000 / predictedMs : 0);
  }
}
