package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.simulator.StreamWriter.Http;
import io.github.llmbench.simulator.StreamWriter.Json;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Routes the OpenAI-compatible endpoints; one instance per connection. */
final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

  private static final int KV_BLOCK_SIZE = EngineCalibration.DEFAULT.blockSize();

  private final VllmSimulator sim;

  /** The request streaming on this connection, if any (HTTP/1.1: one at a time). */
  private volatile SimRequest current;

  ApiHandler(VllmSimulator sim) {
    this.sim = sim;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
    boolean keepAlive = HttpUtil.isKeepAlive(msg);
    String path = msg.uri();
    int q = path.indexOf('?');
    if (q >= 0) {
      path = path.substring(0, q);
    }
    if (!dialect().serves(path)) {
      sendDetail(ctx, HttpResponseStatus.NOT_FOUND, "Not Found", keepAlive);
      return;
    }
    try {
      if (!serverRoute(ctx, msg, path, keepAlive)) {
        completionRoute(ctx, msg, path, keepAlive);
      }
    } catch (MethodNotAllowed e) {
      sendDetail(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "Method Not Allowed", keepAlive);
    } catch (ApiError e) {
      sendError(ctx, e, keepAlive);
    }
  }

  /** The server's own routes (health, models, tokenizer, metrics, kit calls); false for others. */
  private boolean serverRoute(
      ChannelHandlerContext ctx, FullHttpRequest msg, String path, boolean keepAlive) {
    HttpMethod method = msg.method();
    switch (path) {
      case "/health" -> {
        requireMethod(method, HttpMethod.GET);
        send(
            ctx,
            answers()
                .health()
                .map(h -> Http.json(HttpResponseStatus.OK, h, keepAlive))
                .orElseGet(() -> Http.bytes(HttpResponseStatus.OK, new byte[0], null, keepAlive)),
            keepAlive);
      }
      case "/v1/models" -> {
        requireMethod(method, HttpMethod.GET);
        FullHttpResponse list = Http.json(HttpResponseStatus.OK, answers().models(sim), keepAlive);
        answers().serverHeader().ifPresent(h -> list.headers().set("Server", h));
        send(ctx, list, keepAlive);
      }
      case "/tokenize" -> {
        requireMethod(method, HttpMethod.POST);
        JsonNode tokenizeBody = body(msg);
        send(
            ctx,
            Http.json(HttpResponseStatus.OK, answers().tokenize(tokenizeBody, sim), keepAlive),
            keepAlive);
      }
      case "/props" -> {
        requireMethod(method, HttpMethod.GET);
        sendJson(ctx, answers().props(sim), keepAlive);
      }
      case "/info" -> {
        requireMethod(method, HttpMethod.GET);
        sendJson(ctx, answers().info(sim), keepAlive);
      }
      case "/metrics" -> {
        requireMethod(method, HttpMethod.GET);
        sendMetrics(ctx, keepAlive);
      }
      case "/prometheus/metrics" -> {
        requireMethod(method, HttpMethod.GET);
        sendPrometheus(ctx, keepAlive);
      }
      case "/start_profile", "/stop_profile" -> {
        requireMethod(method, HttpMethod.POST);
        if (!answers().profilerRouted(sim.config())) {
          sendDetail(ctx, HttpResponseStatus.NOT_FOUND, "Not Found", keepAlive);
        } else {
          sim.profiling(path.equals("/start_profile"));
          send(ctx, Http.bytes(HttpResponseStatus.OK, new byte[0], null, keepAlive), keepAlive);
        }
      }
      case "/reset_prefix_cache", "/flush_cache" -> {
        if (path.equals("/reset_prefix_cache")) {
          requireMethod(method, HttpMethod.POST);
        } else if (!method.equals(HttpMethod.GET)) { // SGLang's takes both
          requireMethod(method, HttpMethod.POST);
        }
        resetPrefixCache(ctx, path.equals("/flush_cache"), keepAlive);
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  /** The OpenAI API's generating routes; 404 for any other. */
  private void completionRoute(
      ChannelHandlerContext ctx, FullHttpRequest msg, String path, boolean keepAlive) {
    HttpMethod method = msg.method();
    switch (path) {
      case "/v1/chat/completions" -> {
        requireMethod(method, HttpMethod.POST);
        admit(ctx, body(msg), msg.headers().get("x-request-id"), true, keepAlive);
      }
      case "/v1/completions" -> {
        requireMethod(method, HttpMethod.POST);
        admit(ctx, body(msg), msg.headers().get("x-request-id"), false, keepAlive);
      }
      case "/v1/responses" -> {
        requireMethod(method, HttpMethod.POST);
        admit(
            ctx,
            ParsedRequest.responsesAsChat(body(msg)),
            msg.headers().get("x-request-id"),
            true,
            keepAlive);
      }
      case "/v1/embeddings" -> {
        requireMethod(method, HttpMethod.POST);
        admit(
            ctx,
            ParsedRequest.embeddingsAsCompletion(body(msg)),
            msg.headers().get("x-request-id"),
            false,
            keepAlive);
      }
      default -> sendDetail(ctx, HttpResponseStatus.NOT_FOUND, "Not Found", keepAlive);
    }
  }

  /** {@code GET /metrics}: the dialect's JSON there, else its Prometheus text. */
  private void sendMetrics(ChannelHandlerContext ctx, boolean keepAlive) {
    Optional<String> json = answers().metricsJson(sim.metrics());
    if (json.isPresent()) {
      send(
          ctx,
          Http.bytes(
              HttpResponseStatus.OK,
              json.get().getBytes(StandardCharsets.UTF_8),
              "application/json",
              keepAlive),
          keepAlive);
    } else {
      sendPrometheus(ctx, keepAlive);
    }
  }

  private void sendPrometheus(ChannelHandlerContext ctx, boolean keepAlive) {
    send(
        ctx,
        Http.bytes(
            HttpResponseStatus.OK,
            (answers().prometheus(sim.metrics(), sim.servedModelName())
                    + sim.power().render(System.nanoTime()))
                .getBytes(StandardCharsets.UTF_8),
            "text/plain; version=0.0.4; charset=utf-8",
            keepAlive),
        keepAlive);
  }

  /** A JSON answer, or 404 where the dialect has none. */
  private void sendJson(ChannelHandlerContext ctx, Optional<JsonNode> json, boolean keepAlive) {
    if (json.isPresent()) {
      send(ctx, Http.json(HttpResponseStatus.OK, json.get(), keepAlive), keepAlive);
    } else {
      sendDetail(ctx, HttpResponseStatus.NOT_FOUND, "Not Found", keepAlive);
    }
  }

  /** vLLM's error JSON. */
  private void sendError(ChannelHandlerContext ctx, ApiError e, boolean keepAlive) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    ObjectNode err = o.putObject("error");
    err.put("message", e.getMessage());
    err.put("type", e.type);
    if (e.param == null) {
      err.putNull("param");
    } else {
      err.put("param", e.param);
    }
    err.put("code", e.status);
    send(ctx, Http.json(HttpResponseStatus.valueOf(e.status), o, keepAlive), keepAlive);
  }

  /**
   * Tokenizes and admits a completion request on the simulator's admission thread, off this event
   * loop (whose job is to write tokens on time); the response is written back through the channel.
   */
  private void admit(
      ChannelHandlerContext ctx, JsonNode body, String requestId, boolean chat, boolean keepAlive) {
    sim.admission()
        .execute(
            () -> {
              try {
                generate(ctx, body, requestId, chat, keepAlive);
              } catch (ApiError e) {
                sendError(ctx, e, keepAlive);
              } catch (RuntimeException e) {
                ctx.close();
              }
            });
  }

  /**
   * Empties the prefix cache on the engine's thread, waited for off this event loop. vLLM answers
   * 200 whether or not its block pool could reset (it logs a warning when requests hold blocks);
   * SGLang's {@code /flush_cache} answers 400 then.
   */
  private void resetPrefixCache(ChannelHandlerContext ctx, boolean sglang, boolean keepAlive) {
    sim.admission()
        .execute(
            () -> {
              boolean done;
              try {
                done = sim.resetPrefixCache().get(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                done = false;
              } catch (ExecutionException | TimeoutException e) {
                done = false;
              }
              if (!sglang) {
                send(
                    ctx,
                    Http.bytes(HttpResponseStatus.OK, new byte[0], null, keepAlive),
                    keepAlive);
                return;
              }
              String text =
                  done
                      ? "Cache flushed.\n"
                      : "Cache not flushed because there are pending requests.\n";
              send(
                  ctx,
                  Http.bytes(
                      done ? HttpResponseStatus.OK : HttpResponseStatus.BAD_REQUEST,
                      text.getBytes(StandardCharsets.UTF_8),
                      "text/plain; charset=utf-8",
                      keepAlive),
                  keepAlive);
            });
  }

  private static final class MethodNotAllowed extends RuntimeException {
    MethodNotAllowed() {
      super(null, null, false, false);
    }
  }

  private static void requireMethod(HttpMethod actual, HttpMethod expected) {
    if (!actual.equals(expected)) {
      throw new MethodNotAllowed();
    }
  }

  /** FastAPI's answer for unknown routes and wrong methods: {@code {"detail":"Not Found"}}. */
  private static void sendDetail(
      ChannelHandlerContext ctx, HttpResponseStatus status, String detail, boolean keepAlive) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("detail", detail);
    send(ctx, Http.json(status, o, keepAlive), keepAlive);
  }

  private static void send(ChannelHandlerContext ctx, FullHttpResponse r, boolean keepAlive) {
    var f = ctx.writeAndFlush(r);
    if (!keepAlive) {
      f.addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static JsonNode body(FullHttpRequest msg) {
    try {
      byte[] bytes = new byte[msg.content().readableBytes()];
      msg.content().getBytes(msg.content().readerIndex(), bytes);
      JsonNode n = Json.MAPPER.readTree(bytes);
      if (n == null || n.isMissingNode()) {
        throw ApiError.badRequest("Invalid JSON: request body is empty", null);
      }
      return n;
    } catch (IOException e) {
      String m = e.getMessage();
      int nl = m == null ? -1 : m.indexOf('\n');
      throw ApiError.badRequest("Invalid JSON: " + (nl >= 0 ? m.substring(0, nl) : m), null);
    }
  }

  private Dialect dialect() {
    return sim.config().dialect();
  }

  private VllmAnswers answers() {
    return dialect().answers();
  }

  private void generate(
      ChannelHandlerContext ctx, JsonNode body, String requestId, boolean chat, boolean keepAlive) {
    answers().checkBody(body, chat);
    ParsedRequest p =
        ParsedRequest.parse(
            body,
            chat,
            sim.acceptedModels(),
            sim.tokenizer(),
            sim.modelSpec().maxModelLen(),
            sim.modelSpec());
    JsonNode named = body.get("model");
    sim.received(
        requestId,
        named != null && named.isTextual() ? named.asText() : null,
        p.images,
        Arrays.hashCode(p.promptIds));
    if (!dialect().profile().honoursIgnoreEos() && p.maxTokens > 1) {
      // TGI has no ignore_eos: the answer ends where the model's end-of-sequence token falls
      int half = (p.maxTokens + 1) / 2;
      p = p.endingAt(half + ThreadLocalRandom.current().nextInt(p.maxTokens - half + 1));
    }
    SimFaults.Fault fault = sim.config().faults().draw();
    if (fault != null
        && (fault.mode() == SimFaults.Mode.HTTP_429 || fault.mode() == SimFaults.Mode.HTTP_500)) {
      boolean limited = fault.mode() == SimFaults.Mode.HTTP_429;
      throw new ApiError(
          limited ? 429 : 500,
          limited ? "RateLimitError" : "InternalServerError",
          limited ? "simulated fault: too many requests" : "simulated fault: internal server error",
          null);
    }
    // vLLM hashes the tokens of each full block of the prompt for its prefix cache
    long[] hashes = SimRequest.hashBlocks(p.promptIds, p.promptTokens, KV_BLOCK_SIZE);
    SimRequest[] holder = new SimRequest[1];
    Runnable onDone =
        () -> {
          if (current == holder[0]) {
            current = null;
          }
        };
    ResponseWriter w;
    boolean responses = body.has(ParsedRequest.RESPONSES_MARK);
    if (body.has(ParsedRequest.EMBEDDINGS_MARK)) {
      // the prefill alone, through the same scheduler; the fault, if any, fits one JSON body
      w =
          new EmbeddingsWriter(
              ctx.channel(),
              p,
              sim.servedModelName(),
              Math.min(EmbeddingsWriter.MAX_DIMENSIONS, sim.modelSpec().hiddenSize()),
              keepAlive,
              onDone,
              fault);
    } else if (responses) {
      ResponsesStreamWriter rw =
          new ResponsesStreamWriter(
              ctx.channel(),
              p,
              sim.servedModelName(),
              keepAlive,
              onDone,
              sim.config().reasoningTokens());
      rw.writeStreamHead();
      w = rw;
    } else {
      w = answers().streamWriter(ctx.channel(), p, sim, keepAlive, onDone);
    }
    if (fault != null && p.stream) {
      w = new FaultyWriter(w, ctx.channel(), fault, p.maxTokens, onDone, holder, responses);
    }
    SimRequest r = new SimRequest(p.promptTokens, p.maxTokens, w, hashes, System.nanoTime());
    holder[0] = r;
    current = r;
    sim.engine().submit(r);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    // The client went away: the engine drops the request at its next step.
    SimRequest r = current;
    if (r != null) {
      r.cancelled = true;
      current = null;
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
