package io.github.llmbench.capture;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.http.client.Request;
import io.gatling.http.client.uri.Uri;
import io.gatling.http.engine.HttpEngine;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.endpoints.Endpoint;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming request as a Gatling action on Gatling's HTTP client, with the kit's own reading of
 * the stream ({@link StreamAction}, {@link StreamExchange}).
 *
 * <p>Why not Gatling's {@code sse()}: it stamps events in whole milliseconds after its own parsing
 * and JSON rendering of each event, costs ~20 µs of CPU per chunk before the kit reads anything,
 * and, following the browser rules, reconnects a cut stream 3 s later and sends the POST again.
 * Here each read is stamped with {@link System#nanoTime()} on the event loop, the body is scanned
 * once (bytes, then Jackson's streaming parser, no tree), and a cut stream fails at once.
 *
 * <p>A request's end is a list of jobs, each its own type ({@link RequestEndJob}): its records in
 * Gatling's stats ({@link GatlingResponseLog}), then in {@code requests.jsonl} ({@link
 * RecorderHandOff}). Its actions then time its Gatling record into the user's groups ({@link
 * GatlingResponseLog#timedInGroups}), as Gatling's HTTP requests are: a level's group rows in
 * Gatling's report read its streams' times, not 0 ms. Its options are one record ({@link
 * CaptureOptions}).
 *
 * <p>The endpoint, set once at build time, says how its answer is read: an event stream, or one
 * JSON body read as it arrives ({@link PooledBody}, embeddings); each record carries the endpoint's
 * figures ({@link RequestRecord#figures()}).
 */
public final class StreamCapture {
  public static final String REQUEST_RECORD = RunDirectory.REQUEST_RECORD;

  private static final Logger LOG = LoggerFactory.getLogger(StreamCapture.class);

  /**
   * The session attribute that holds a completed request's generated text, when answers are kept.
   */
  public static final String ANSWER = "answer";

  /**
   * The session attribute that holds a request's arrival ({@code System.nanoTime()}) when it may
   * wait for a free slot before it is sent ({@code -Dmax.conc}): its record then has the wait.
   */
  public static final String ARRIVED_NANOS = "llm.arrivedNanos";

  /**
   * The session attribute that holds when the user's last request ended ({@code
   * System.nanoTime()}): its next request's record has how long the slot stood idle. A planned
   * pause (a conversation's think time) sets it anew when it ends: the pause is the workload's.
   */
  public static final String SLOT_FREED_NANOS = "llm.slotFreedNanos";

  /**
   * Session attribute: the model a request names when the run mixes several ({@code -Dmodel=a,b});
   * its record carries it.
   */
  public static final String MODEL = "llm.model";

  /** What a {@code sendAt} function gives for a request sent as soon as it is built. */
  public static final long SEND_NOW = Long.MIN_VALUE;

  private static final AtomicLong REQUEST_IDS = new AtomicLong();

  private final RunRecorder recorder;
  private final ClientProbe clientProbe;
  private final int timeoutSeconds;
  private final Uri uri;
  private final Endpoint endpoint;
  private final Uri modelsUri;
  private final int maxOutputTokens;
  private final HttpHeaders headers;
  private final boolean keepAnswers;

  private final TokenCounter outputCounter;
  private final Function<Session, Integer> countedInputTokens;
  private final Cancelling cancelling;

  /** The servers' request URIs, sent to in turn, and each one's name for the records. */
  private final List<Uri> uris;

  private final List<String> endpoints;
  private final AtomicLong sent = new AtomicLong();
  private final StreamExchange.Reading reading;

  /** What is done at each request's end, once its record is made, in this order. */
  private final List<RequestEndJob> endJobs;

  /** A capture of these options, its reading path warmed up. */
  public StreamCapture(CaptureOptions options) {
    this.outputCounter = options.outputCounter();
    this.countedInputTokens = options.countedInputTokens();
    this.recorder = options.recorder();
    this.clientProbe = options.clientProbe();
    this.timeoutSeconds = (int) Math.max(1, options.timeout().toSeconds());
    this.endpoint = options.endpoint();
    String path = endpoint.path();
    // the settings leave no trailing '/' (as ServerApi relies on)
    this.uri = Uri.create(options.baseUrl() + path);
    this.modelsUri = Uri.create(options.baseUrl() + "/v1/models");
    this.maxOutputTokens = options.maxOutputTokens();
    this.endJobs =
        List.of(
            new GatlingResponseLog(options.gatlingMetrics()),
            new RecorderHandOff(options.recorder()));
    this.keepAnswers = options.keepAnswers() || outputCounter != null;
    this.cancelling = options.cancelling();
    List<URI> named =
        options.baseUrls().size() >= 2 || !options.namedServer()
            ? options.baseUrls()
            : List.of(options.baseUrl());
    boolean spread = named.size() >= 2 || options.namedServer();
    this.uris = spread ? named.stream().map(u -> Uri.create(u + path)).toList() : null;
    this.endpoints = spread ? named.stream().map(URI::toString).toList() : List.of();
    HttpHeaders h = new DefaultHttpHeaders();
    h.set("Content-Type", "application/json");
    h.set("Accept", endpoint.capture().accept());
    options.apiKey().ifPresent(key -> h.set("Authorization", "Bearer " + key));
    if (options.closeConnection()) {
      h.set("Connection", "close");
    }
    options.extraHeaders().forEach(h::set);
    this.headers = h;
    this.reading =
        new StreamExchange.Reading(
            maxOutputTokens, keepAnswers, timeoutSeconds, endpoint.capture());
    warmUp();
  }

  /**
   * Runs the whole reading path once on a made-up stream and error body before any load: the first
   * use of each class (Jackson's streaming parser and trees, the records) costs tens of ms, which
   * would otherwise stall an event loop, and every stream on it, during the first requests.
   * (Records are serialized on the recorder's own thread, off the event loops.)
   */
  static void warmUp() {
    String body =
        ": ping\r\n\r\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":null}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"text\":\"b\"}],\"timings\":{\"prompt_n\":1}}\n\n"
            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\n"
            + "data: {\"error\":{\"message\":\"x\",\"code\":1}}\n\n";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    StreamReader reader = new StreamReader(2, true);
    reader.feed(bytes, 0, bytes.length, 0);
    ParsedStream ok = new ParsedStream(new long[] {1_000_000L, 2_000_000L}, 2, 1, 2, true, null);
    RequestRecords.Sent warmUp = new RequestRecords.Sent("warm-up", "warm-up", null, 0L);
    RequestRecords.of(warmUp, 3_000_000L, ok, null, 200, null);
    PooledBody pooled = new PooledBody();
    byte[] json =
        "{\"object\":\"list\",\"data\":[{\"index\":0,\"embedding\":[0.5,-1e-3]}],\"usage\":{\"prompt_tokens\":1}}"
            .getBytes(StandardCharsets.UTF_8);
    pooled.feed(json, 0, json.length);
    RequestRecords.builder(warmUp, 3_000_000L, pooled.result(2_000_000L), null, 200, null)
        .figures(Figures.POOLED)
        .build();
    RequestRecords.of(
        warmUp,
        3_000_000L,
        reader.result(),
        "HTTP 500: " + ErrorBody.message("{\"error\":{\"message\":\"x\"}}"),
        500,
        null);
  }

  /**
   * The chain of one request, its level, profile, body and origin read from the session when it is
   * sent.
   *
   * @param level the level's tag, e.g. {@code c128}, or {@link #enclosingGroup}
   * @param profile the request's workload profile, or null
   * @param body the JSON body of a new request (called once per request)
   * @param origin the request's conversation and turn, or trace time, or null
   */
  public ChainBuilder request(
      Function<Session, String> level,
      Function<Session, String> profile,
      Function<Session, String> body,
      Function<Session, RequestOrigin> origin) {
    return request(level, profile, body, origin, session -> SEND_NOW);
  }

  /**
   * As {@link #request(Function, Function, Function, Function)}, sent at a set time: the request is
   * built first, then sent when {@code sendAt} says ({@link System#nanoTime()}; at once when that
   * has passed, or when it says {@link #SEND_NOW}), so building it is not part of its lateness.
   */
  public ChainBuilder request(
      Function<Session, String> level,
      Function<Session, String> profile,
      Function<Session, String> body,
      Function<Session, RequestOrigin> origin,
      ToLongFunction<Session> sendAt) {
    StreamAction.SessionReads reads =
        new StreamAction.SessionReads(level, profile, body, origin, sendAt);
    ActionBuilder action =
        () ->
            (ctx, next) ->
                new StreamAction(
                    this,
                    GatlingHttpInternals.engine(ctx),
                    new GatlingStats(ctx.coreComponents().statsEngine()),
                    reads,
                    next);
    return exec(action);
  }

  /**
   * The chain of one agent session: its calls sent as its graph says, each recorded as a request of
   * the level, the user passed on when the session has ended.
   *
   * @param level the level's tag
   * @param graphs a new session's graph, from the user's session (called once per session)
   */
  public ChainBuilder session(
      Function<Session, String> level, Function<Session, CallGraph> graphs) {
    ActionBuilder action =
        () ->
            (ctx, next) ->
                new SessionAction(
                    this,
                    GatlingHttpInternals.engine(ctx),
                    new GatlingStats(ctx.coreComponents().statsEngine()),
                    level,
                    graphs,
                    next);
    return exec(action);
  }

  /**
   * Gets the request chain ready for a load that must start on time ({@link ReadyAction}): one
   * request built from the session, not sent, and a connection opened to the server from each of
   * Gatling's event loops. Run by one user before the load.
   *
   * @param body the JSON body of a request, from the session
   */
  public ChainBuilder ready(Function<Session, String> body) {
    ActionBuilder action =
        () -> (ctx, next) -> new ReadyAction(this, GatlingHttpInternals.engine(ctx), body, next);
    return exec(action);
  }

  /**
   * The outermost Gatling group the session is in (as a level: {@code group("c8").on(...)}), else
   * the scenario's name: how a user's own simulation names the levels of its records.
   */
  public static String enclosingGroup(Session session) {
    var groups = session.asScala().groups(); // Scala's list
    return groups.isEmpty() ? session.scenario() : groups.head();
  }

  /**
   * Sends a built request on the session's event loop: notes its start in the records, reads its
   * answer with a new {@link StreamExchange} that calls {@code completion} once at its end, and
   * cancels it when {@code -Dcancel.pct} picks it.
   */
  void send(
      HttpEngine engine,
      io.gatling.core.session.Session session,
      RequestRecords.Sent sent,
      Request request,
      StreamExchange.Completion completion) {
    StreamExchange exchange;
    try {
      recorder.started(
          sent.id(),
          sent.level(),
          sent.labels().profile(),
          sent.origin(),
          ClockAnchor.epochMs(sent.t0Nanos()));
      exchange = new StreamExchange(session, sent, reading, completion);
    } catch (RuntimeException e) {
      LOG.error("gatling-llm-bench: could not start request {}: {}", sent.id(), e.toString());
      completion.completed(
          new StreamExchange(session, sent, reading, completion),
          System.nanoTime(),
          "could not start: " + e.getMessage(),
          null);
      return;
    }
    long cancelAfter = cancelling.afterNanos(sent.id(), sent.level());
    if (cancelAfter != Cancelling.NEVER) {
      session.eventLoop().schedule(exchange::cancel, cancelAfter, TimeUnit.NANOSECONDS);
    }
    GatlingHttpInternals.send(engine, request, session, exchange);
  }

  /**
   * A request's end: its record made, then the {@link #endJobs} done with it (Gatling's records of
   * it, then the run's).
   *
   * @return the record, or null when it could not be made or a job failed (logged)
   */
  RequestRecord ended(
      GatlingStats stats, StreamExchange ex, long endNanos, String failure, Integer httpStatus) {
    try {
      RequestRecord record =
          RequestRecords.builder(ex.sent, endNanos, ex.stream(), failure, httpStatus, outputCounter)
              .figures(endpoint.figures())
              .build();
      RequestEndJob.Ended ended = new RequestEndJob.Ended(stats, ex.session, record, ex.stream());
      for (RequestEndJob job : endJobs) {
        job.done(ended);
      }
      return record;
    } catch (RuntimeException e) {
      LOG.error("gatling-llm-bench: could not record request {}: {}", ex.sent.id(), e.toString());
      return null;
    }
  }

  Cancelling cancelling() {
    return cancelling;
  }

  String nextRequestId() {
    return "req-" + REQUEST_IDS.incrementAndGet();
  }

  RunRecorder recorder() {
    return recorder;
  }

  /** Starts the client probe on the loops of a request's event loop (once). */
  void watch(EventLoop loop) {
    if (clientProbe != null && !clientProbe.started()) {
      clientProbe.watch(loop);
    }
  }

  int timeoutSeconds() {
    return timeoutSeconds;
  }

  /** How each request's answer is read. */
  StreamExchange.Reading reading() {
    return reading;
  }

  boolean keepAnswers() {
    return keepAnswers;
  }

  /** The endpoint its requests go to. */
  public Endpoint endpoint() {
    return endpoint;
  }

  TokenCounter outputCounter() {
    return outputCounter;
  }

  Integer countedInputTokens(Session s) {
    return countedInputTokens.apply(s);
  }

  /** The next request's server: its index in {@link #endpoints}, in turn; 0 with one. */
  int nextEndpoint() {
    return uris == null ? 0 : (int) (sent.getAndIncrement() % uris.size());
  }

  /** The request URI of server {@code i} ({@link #nextEndpoint()}). */
  Uri uri(int i) {
    return uris == null ? uri : uris.get(i);
  }

  /** Server {@code i}'s name for the records, or null when the run has one. */
  String endpoint(int i) {
    return endpoints.isEmpty() ? null : endpoints.get(i);
  }

  Uri uri() {
    return uri;
  }

  Uri modelsUri() {
    return modelsUri;
  }

  HttpHeaders headers() {
    return headers;
  }
}
