package io.github.llmbench.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes one completion, streamed (SSE) or whole, in vLLM's exact shape.
 *
 * <p>Stream chunks are assembled from precomputed byte fragments (the per-request head
 * {@code data: {"id":..,"object":..,"created":..,"model":..,"choices":[{"index":0,"delta":{"content":}
 * with id and model escaped by Jackson, static tails, and the pre-encoded output word), so a token
 * costs a few small copies into one pooled buffer that already holds its HTTP chunk framing, and
 * one write syscall. Field order follows vLLM (pydantic field order,
 * {@code model_dump_json(exclude_unset=True)} for chunks, {@code exclude_none=True} for the usage
 * chunk). vLLM 0.10.2+ also sends {@code "token_ids":null} (chat) and
 * {@code "prompt_token_ids":null,"token_ids":null} (completions) in every choice; the simulator
 * follows the older samples this kit was written against and omits them. Where the config asks,
 * the usage has {@code "prompt_tokens_details":{"cached_tokens":N}}, the prompt tokens its prefix
 * cache served, as a vLLM started with {@code --enable-prompt-tokens-details} sends it.
 */
final class StreamWriter implements ResponseWriter {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final byte[] DATA = b("data: ");
  private static final byte[] CHAT_ROLE =
      b(
          "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
  private static final byte[] CHAT_MID = b("{\"index\":0,\"delta\":{\"content\":");

  private static final byte[] CHAT_TAIL = b("},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
  private static final byte[] CHAT_TAIL_LAST =
      b("},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}\n\n");

  /** A tool call's pieces: vLLM's DeltaToolCall, the id, type and name on the first only. */
  private static final byte[] TOOL_MID = b("{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,");

  private static final byte[] TOOL_ARGUMENTS = b("\"function\":{\"arguments\":");
  private static final byte[] TOOL_TAIL = b("}}]},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
  private static final byte[] TOOL_TAIL_LAST =
      b("}}]},\"logprobs\":null,\"finish_reason\":\"tool_calls\",\"stop_reason\":null}]}\n\n");
  private static final byte[] CMPL_MID = b("{\"index\":0,\"text\":");
  private static final byte[] CMPL_TAIL =
      b(",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}]}\n\n");
  private static final byte[] CMPL_TAIL_LAST =
      b(",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}\n\n");
  private static final byte[] CHAT_TAIL_STOP =
      b("},\"logprobs\":null,\"finish_reason\":\"stop\",\"stop_reason\":null}]}\n\n");
  private static final byte[] CMPL_TAIL_STOP =
      b(",\"logprobs\":null,\"finish_reason\":\"stop\",\"stop_reason\":null}]}\n\n");
  private static final byte[] DONE = b("data: [DONE]\n\n");
  private static final byte[] HEX = b("0123456789abcdef");
  private static final short CRLF = ('\r' << 8) | '\n';

  private final Channel channel;
  private final Runnable onDone;
  private final ParsedRequest req;

  /** Its prompt tokens the prefix cache served, set at admission on the engine's thread. */
  private volatile int cachedPromptTokens;

  /** Whether the usage says them ({@code --enable-prompt-tokens-details}). */
  private final boolean promptTokensDetails;

  private final String id;
  private final long created;
  private final String model;
  private final boolean keepAlive;
  private final int seed;
  private final byte[] head; // {"id":..,"object":..,"created":..,"model":..,"choices":[
  private final byte[]
      prefix; // data: {"id":..,"choices":[{"index":0,"delta":{"content":   (or "text":)

  /** The HTTP codec's context: what is written from it skips the HTTP encoder. */
  private final ChannelHandlerContext raw;

  /** The last token's write, for {@link #recordSent}. */
  private ChannelFuture sent;

  /** Tokens a chunk carries (the last one of a stream may carry fewer). */
  private final int tokensPerChunk;

  /** The first token not written yet. */
  private int unwritten;

  /** A chat answer's first tokens that are thinking, and the prefix of their chunks. */
  private final int reasoningTokens;

  private final byte[] reasoningPrefix;

  /** The first and the later chunks' prefixes of a tool call, null when the answer is text. */
  private final byte[] toolFirstPrefix;

  private final byte[] toolPrefix;

  private boolean toolCallStarted;

  StreamWriter(
      Channel channel, ParsedRequest req, String model, boolean keepAlive, Runnable onDone) {
    this(channel, req, model, keepAlive, onDone, 1, 0, Dialect.VLLM.reasoningField(), false);
  }

  StreamWriter(
      Channel channel,
      ParsedRequest req,
      String model,
      boolean keepAlive,
      Runnable onDone,
      int tokensPerChunk,
      int reasoningTokens,
      String reasoningField,
      boolean promptTokensDetails) {
    this.promptTokensDetails = promptTokensDetails;
    this.tokensPerChunk = tokensPerChunk;
    this.reasoningTokens = req.chat ? reasoningTokens : 0;
    this.channel = channel;
    this.req = req;
    this.model = model;
    this.keepAlive = keepAlive;
    this.onDone = onDone;
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    // vLLM: f"chatcmpl-{random_uuid()}" / f"cmpl-{random_uuid()}", uuid4().hex
    this.id = (req.chat ? "chatcmpl-" : "cmpl-") + hex(rnd.nextLong()) + hex(rnd.nextLong());
    this.created = System.currentTimeMillis() / 1000;
    this.seed = rnd.nextInt(StubTokenizer.OUTPUT_WORDS.length);
    String object = req.chat ? "chat.completion.chunk" : "text_completion";
    this.head =
        b(
            "{\"id\":"
                + Json.quote(id)
                + ",\"object\":\""
                + object
                + "\",\"created\":"
                + created
                + ",\"model\":"
                + Json.quote(model)
                + ",\"choices\":[");
    byte[] mid = req.chat ? CHAT_MID : CMPL_MID;
    this.prefix = new byte[DATA.length + head.length + mid.length];
    System.arraycopy(DATA, 0, prefix, 0, DATA.length);
    System.arraycopy(head, 0, prefix, DATA.length, head.length);
    System.arraycopy(mid, 0, prefix, DATA.length + head.length, mid.length);
    // vLLM's reasoning delta is "reasoning" (since late 2025), the others' "reasoning_content"
    this.reasoningPrefix =
        concat(DATA, head, b("{\"index\":0,\"delta\":{" + Json.quote(reasoningField) + ":"));
    if (req.toolName != null) {
      byte[] first =
          b(
              "\"id\":"
                  + Json.quote("chatcmpl-tool-" + hex(rnd.nextLong()))
                  + ",\"type\":\"function\",\"function\":{\"name\":"
                  + Json.quote(req.toolName)
                  + ",\"arguments\":");
      this.toolFirstPrefix = concat(DATA, head, TOOL_MID, first);
      this.toolPrefix = concat(DATA, head, TOOL_MID, TOOL_ARGUMENTS);
    } else {
      this.toolFirstPrefix = null;
      this.toolPrefix = null;
    }
    this.raw = channel.pipeline().context(HttpServerCodec.class);
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  /**
   * Tokens {@code from} to {@code to} of a tool call's arguments, a JSON object in all: the call's
   * first token is its name, the next opens {@code {"text": "}, the last closes it.
   */
  private String toolArguments(int from, int to) {
    int first = reasoningTokens;
    int n = req.maxTokens - first;
    StringBuilder sb = new StringBuilder();
    for (int j = Math.max(from, first); j <= to; j++) {
      int i = j - first;
      if (i == 0) {
        continue;
      }
      if (n == 2) {
        sb.append("{}");
      } else if (i == 1) {
        sb.append("{\"text\": \"");
      } else if (i == n - 1) {
        sb.append("\"}");
      } else {
        sb.append(StubTokenizer.OUTPUT_WORDS[StubTokenizer.outputWord(seed, j)]);
      }
    }
    return sb.toString();
  }

  private static String hex(long v) {
    String s = Long.toHexString(v);
    return "0000000000000000".substring(s.length()) + s;
  }

  @Override
  public EventLoop eventLoop() {
    return channel.eventLoop();
  }

  @Override
  public boolean writesSeveralTokensPerChunk() {
    return true;
  }

  @Override
  public boolean emit(int k) {
    boolean last = k == req.maxTokens - 1;
    if (!req.stream) {
      if (last) {
        writeFull();
      }
      return false;
    }
    if (tokensPerChunk > 1 && !last && k + 1 - unwritten < tokensPerChunk) {
      return false; // this token goes out with the chunk's last
    }
    boolean role = unwritten == 0 && req.chat;
    byte[] word;
    byte[] pre;
    byte[] tail;
    if (toolPrefix != null && unwritten >= reasoningTokens) {
      pre = toolCallStarted ? toolPrefix : toolFirstPrefix;
      toolCallStarted = true;
      word = b(Json.quote(toolArguments(unwritten, k)));
      tail = last ? TOOL_TAIL_LAST : TOOL_TAIL;
    } else {
      word =
          k == unwritten
              ? StubTokenizer.OUTPUT_WORDS_JSON[StubTokenizer.outputWord(seed, k)]
              : words(unwritten, k);
      pre = unwritten < reasoningTokens ? reasoningPrefix : prefix;
      tail =
          !last
              ? (req.chat ? CHAT_TAIL : CMPL_TAIL)
              : req.endedByModel
                  ? (req.chat ? CHAT_TAIL_STOP : CMPL_TAIL_STOP)
                  : (req.chat ? CHAT_TAIL_LAST : CMPL_TAIL_LAST);
    }
    unwritten = k + 1;
    int data = pre.length + word.length + tail.length;
    if (role) {
      // vLLM sends the role chunk when the first output arrives, i.e. with the first token
      data += DATA.length + head.length + CHAT_ROLE.length;
    }
    if (last) {
      writeLast(data, role, pre, word, tail);
    } else {
      writeChunk(data, role, pre, word, tail);
    }
    return true;
  }

  /** The last event, the usage when asked and [DONE], ending the response. */
  @Override
  public void admitted(int cachedPromptTokens) {
    this.cachedPromptTokens = cachedPromptTokens;
  }

  private void writeLast(int data, boolean role, byte[] pre, byte[] word, byte[] tail) {
    byte[] usage = null;
    if (req.includeUsage) {
      usage =
          b(
              "data: "
                  + new String(head, StandardCharsets.UTF_8)
                  + "],\"usage\":{\"prompt_tokens\":"
                  + req.promptTokens
                  + ",\"total_tokens\":"
                  + (req.promptTokens + req.maxTokens)
                  + ",\"completion_tokens\":"
                  + req.maxTokens
                  + (promptTokensDetails
                      ? ",\"prompt_tokens_details\":{\"cached_tokens\":" + cachedPromptTokens + "}"
                      : "")
                  + "}}\n\n");
      data += usage.length;
    }
    data += DONE.length;
    // Once per request, through the HTTP encoder: it frames the chunk, adds "0\r\n\r\n" and
    // resets its state for the next response on this connection.
    ByteBuf buf = channel.alloc().buffer(data);
    writeEvent(buf, role, pre, word, tail);
    if (usage != null) {
      buf.writeBytes(usage);
    }
    buf.writeBytes(DONE);
    sent = channel.writeAndFlush(new DefaultLastHttpContent(buf));
    finish(sent);
  }

  /**
   * The hot path: the whole HTTP chunk ("<hex size>\r\n<data>\r\n", exactly what Netty's
   * HttpObjectEncoder writes) in one buffer, written from the codec's context so that it goes
   * straight to the socket (epoll, NIO: one write syscall; io_uring: one send queued on the ring,
   * submitted with the loop's other writes after its tasks). Its promise times the send.
   */
  private void writeChunk(int data, boolean role, byte[] pre, byte[] word, byte[] tail) {
    int hex = hexDigits(data);
    ByteBuf buf = raw.alloc().directBuffer(hex + 2 + data + 2);
    for (int shift = (hex - 1) * 4; shift >= 0; shift -= 4) {
      buf.writeByte(HEX[(data >>> shift) & 0xf]);
    }
    buf.writeShort(CRLF);
    writeEvent(buf, role, pre, word, tail);
    buf.writeShort(CRLF);
    sent = raw.writeAndFlush(buf);
  }

  @Override
  public void recordSent(LatenessHistogram lateness, long scheduledEnd) {
    ResponseWriter.recordWhenWritten(sent, lateness, scheduledEnd);
  }

  /** Tokens {@code from} to {@code to} as one JSON string. */
  private byte[] words(int from, int to) {
    StringBuilder sb = new StringBuilder();
    for (int j = from; j <= to; j++) {
      sb.append(StubTokenizer.OUTPUT_WORDS[StubTokenizer.outputWord(seed, j)]);
    }
    return b(Json.quote(sb.toString()));
  }

  private void writeEvent(ByteBuf buf, boolean role, byte[] pre, byte[] word, byte[] tail) {
    if (role) {
      buf.writeBytes(DATA).writeBytes(head).writeBytes(CHAT_ROLE);
    }
    buf.writeBytes(pre).writeBytes(word).writeBytes(tail);
  }

  private static int hexDigits(int v) {
    return Math.max(1, (35 - Integer.numberOfLeadingZeros(v)) / 4);
  }

  private void finish(ChannelFuture f) {
    onDone.run();
    if (!keepAlive) {
      f.addListener(ChannelFutureListener.CLOSE);
    }
  }

  private String fullText() {
    StringBuilder sb = new StringBuilder(req.maxTokens * 6);
    for (int k = 0; k < req.maxTokens; k++) {
      sb.append(StubTokenizer.OUTPUT_WORDS[StubTokenizer.outputWord(seed, k)]);
    }
    return sb.toString();
  }

  /** The non-streaming response: vLLM's ChatCompletionResponse / CompletionResponse. */
  private void writeFull() {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("id", id);
    o.put("object", req.chat ? "chat.completion" : "text_completion");
    o.put("created", created);
    o.put("model", model);
    ArrayNode choices = o.putArray("choices");
    ObjectNode c = choices.addObject();
    c.put("index", 0);
    if (req.chat) {
      ObjectNode msg = c.putObject("message");
      msg.put("role", "assistant");
      if (req.toolName == null) {
        msg.put("content", fullText());
      } else {
        msg.putNull("content");
      }
      msg.putNull("refusal");
      msg.putNull("annotations");
      msg.putNull("audio");
      msg.putNull("function_call");
      ArrayNode calls = msg.putArray("tool_calls");
      if (req.toolName != null) {
        ObjectNode call = calls.addObject();
        call.put("id", "chatcmpl-tool-" + hex(ThreadLocalRandom.current().nextLong()));
        call.put("type", "function");
        call.putObject("function")
            .put("name", req.toolName)
            .put("arguments", toolArguments(0, req.maxTokens - 1));
      }
      msg.putNull("reasoning_content");
      c.putNull("logprobs");
      c.put(
          "finish_reason",
          req.toolName != null ? "tool_calls" : req.endedByModel ? "stop" : "length");
      c.putNull("stop_reason");
    } else {
      c.put("text", fullText());
      c.putNull("logprobs");
      c.put("finish_reason", req.endedByModel ? "stop" : "length");
      c.putNull("stop_reason");
      c.putNull("prompt_logprobs");
    }
    if (req.chat) {
      o.putNull("service_tier");
      o.putNull("system_fingerprint");
    }
    ObjectNode u = o.putObject("usage");
    u.put("prompt_tokens", req.promptTokens);
    u.put("total_tokens", req.promptTokens + req.maxTokens);
    u.put("completion_tokens", req.maxTokens);
    if (promptTokensDetails) {
      u.putObject("prompt_tokens_details").put("cached_tokens", cachedPromptTokens);
    } else {
      u.putNull("prompt_tokens_details");
    }
    if (req.chat) {
      o.putNull("prompt_logprobs");
    }
    o.putNull("kv_transfer_params");
    FullHttpResponse resp = Http.json(HttpResponseStatus.OK, o, keepAlive);
    finish(channel.writeAndFlush(resp));
  }

  /** Response head of a stream: sent as soon as the request is accepted, like uvicorn does. */
  void writeStreamHead() {
    DefaultHttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    r.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    if (!keepAlive) {
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    channel.writeAndFlush(r, channel.voidPromise());
  }

  static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    static String quote(String s) {
      try {
        return MAPPER.writeValueAsString(s);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  static final class Http {
    static FullHttpResponse json(HttpResponseStatus status, Object body, boolean keepAlive) {
      byte[] bytes;
      try {
        bytes = Json.MAPPER.writeValueAsBytes(body);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
      return bytes(status, bytes, "application/json", keepAlive);
    }

    static FullHttpResponse bytes(
        HttpResponseStatus status, byte[] bytes, String type, boolean keepAlive) {
      FullHttpResponse r =
          new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
      if (type != null) {
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
      }
      r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
      if (!keepAlive) {
        r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      }
      return r;
    }
  }
}
