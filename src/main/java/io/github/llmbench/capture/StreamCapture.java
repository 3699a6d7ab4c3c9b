package io.github.llmbench.capture;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.http.client.uri.Uri;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.core.Metric;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunRecorder;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

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
 * <p>Gatling records, in the request's group (the level): one {@value #REQUEST_RECORD} per stream,
 * so Gatling counts streams: a completed one from t0 for its E2EL, a failed one from t0 to its end,
 * KO with the reason (Gatling's error table and failure counts read it). Asked for ({@link
 * #recordName}), also TTFT and TPOT records of a completed stream, and one ITL record per gap.
 * Gatling's records are whole milliseconds; {@code requests.jsonl} keeps microseconds.
 *
 * <p>An embeddings endpoint ({@value #EMBEDDINGS_PATH}) is not streamed: its one JSON body is read
 * as it arrives ({@link PooledBody}) and its records are pooling ones ({@link
 * RequestRecord#pooling()}).
 */
public final class StreamCapture {
  public static final String REQUEST_RECORD = "request";

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
   * Session attribute: the model a request names when the run mixes several ({@code -Dmodel=a,b});
   * its record carries it.
   */
  public static final String MODEL = "llm.model";

  /** What a {@code sendAt} function gives for a request sent as soon as it is built. */
  public static final long SEND_NOW = Long.MIN_VALUE;

  /** How the path of an embeddings endpoint ends ({@code /v1/embeddings}). */
  public static final String EMBEDDINGS_PATH = "/embeddings";

  private static final AtomicLong REQUEST_IDS = new AtomicLong();

  private final RunRecorder recorder;
  private final ClientProbe clientProbe;
  private final int timeoutSeconds;
  private final Uri uri;
  private final String path;
  private final Uri modelsUri;
  private final int maxOutputTokens;
  private final HttpHeaders headers;
  private final boolean ttftRecords;
  private final boolean tpotRecords;
  private final boolean itlRecords;
  private final boolean keepAnswers;

  /** Whether the endpoint answers with one JSON body and generates nothing (embeddings). */
  private final boolean pooling;

  private final ToIntFunction<String> outputCounter;
  private final Function<Session, Integer> countedInputTokens;
  private volatile Cancelling cancelling = Cancelling.NONE;

  /** The servers' request URIs, sent to in turn, and each one's name for the records. */
  private volatile List<Uri> uris;

  private volatile List<String> endpoints = List.of();
  private final AtomicLong sent = new AtomicLong();

  /**
   * @param baseUrl the server, e.g. {@code http://127.0.0.1:8000}
   * @param path the endpoint, e.g. {@code /v1/chat/completions}
   * @param apiKey sent as {@code Authorization: Bearer ...}, never logged
   * @param extraHeaders the user's own headers ({@code -Dheader.<Name>}), set after the kit's (so
   *     they win), never logged
   * @param closeConnection whether to ask the server to close the connection after each response
   *     (llama-server closes it anyway: reusing it would fail the next request)
   * @param maxOutputTokens the largest {@code max_tokens} any request asks for
   * @param gatlingMetrics the latencies Gatling's stats get ({@link #recordName}): E2EL is the
   *     request's own record, always there; ITL costs one record per chunk gap
   * @param keepAnswers whether each completed request's generated text goes into the session
   *     ({@value #ANSWER}), for conversations that send it back; off, the text is not copied
   * @param outputCounter counts a streamed answer's tokens when the stream has no usage (the answer
   *     is then kept), or null
   * @param countedInputTokens the request's prompt tokens by the local tokenizer, from its session,
   *     or null (used when the stream has no usage)
   * @param clientProbe watches the event loops of the requests from the first one on, or null
   */
  public StreamCapture(
      RunRecorder recorder,
      ClientProbe clientProbe,
      Duration timeout,
      URI baseUrl,
      String path,
      Optional<String> apiKey,
      Map<String, String> extraHeaders,
      boolean closeConnection,
      int maxOutputTokens,
      Set<Metric> gatlingMetrics,
      boolean keepAnswers,
      ToIntFunction<String> outputCounter,
      Function<Session, Integer> countedInputTokens) {
    this.outputCounter = outputCounter;
    this.countedInputTokens = countedInputTokens;
    this.recorder = recorder;
    this.clientProbe = clientProbe;
    this.timeoutSeconds = (int) Math.max(1, timeout.toSeconds());
    this.path = path;
    this.pooling = path.endsWith(EMBEDDINGS_PATH);
    this.uri =
        Uri.create(baseUrl + path); // the settings leave no trailing '/' (as ServerApi relies on)
    this.modelsUri = Uri.create(baseUrl + "/v1/models");
    this.maxOutputTokens = maxOutputTokens;
    this.ttftRecords = gatlingMetrics.contains(Metric.TTFT);
    this.tpotRecords = gatlingMetrics.contains(Metric.TPOT);
    this.itlRecords = gatlingMetrics.contains(Metric.ITL);
    this.keepAnswers = keepAnswers || outputCounter != null;
    HttpHeaders h = new DefaultHttpHeaders();
    h.set("Content-Type", "application/json");
    h.set("Accept", pooling ? "application/json" : "text/event-stream");
    apiKey.ifPresent(key -> h.set("Authorization", "Bearer " + key));
    if (closeConnection) {
      h.set("Connection", "close");
    }
    extraHeaders.forEach(h::set);
    this.headers = h;
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
    ParsedStream ok =
        new ParsedStream(new long[] {1_000_000L, 2_000_000L}, 2, 1, 2, true, null, null, null);
    RequestRecords.Sent warmUp = new RequestRecords.Sent("warm-up", "warm-up", null, 0L);
    RequestRecords.of(warmUp, 3_000_000L, ok, null, 200, null);
    PooledBody pooled = new PooledBody();
    byte[] json =
        "{\"object\":\"list\",\"data\":[{\"index\":0,\"embedding\":[0.5,-1e-3]}],\"usage\":{\"prompt_tokens\":1}}"
            .getBytes(StandardCharsets.UTF_8);
    pooled.feed(json, 0, json.length);
    RequestRecords.builder(warmUp, 3_000_000L, pooled.result(2_000_000L), null, 200, null)
        .pooling(true)
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
    ActionBuilder action =
        () ->
            (ctx, next) ->
                new StreamAction(
                    this,
                    GatlingHttpInternals.engine(ctx),
                    new GatlingStats(ctx.coreComponents().statsEngine()),
                    level,
                    profile,
                    body,
                    origin,
                    sendAt,
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

  /** Cancels requests on purpose from now on ({@code -Dcancel.pct}). */
  public void cancelling(Cancelling c) {
    this.cancelling = c;
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

  int maxOutputTokens() {
    return maxOutputTokens;
  }

  boolean keepAnswers() {
    return keepAnswers;
  }

  /** Whether the endpoint answers with one JSON body and generates nothing (embeddings). */
  public boolean pooling() {
    return pooling;
  }

  ToIntFunction<String> outputCounter() {
    return outputCounter;
  }

  Integer countedInputTokens(Session s) {
    return countedInputTokens.apply(s);
  }

  /**
   * Sends the requests in turn to each of these servers (replicas behind no load balancer), each
   * record naming its own; the first is the one given at construction.
   */
  public void spreadOver(List<URI> baseUrls) {
    if (baseUrls.size() < 2) {
      return;
    }
    this.uris = baseUrls.stream().map(u -> Uri.create(u + path)).toList();
    this.endpoints = baseUrls.stream().map(URI::toString).toList();
  }

  /** The next request's server: its index in {@link #endpoints}, in turn; 0 with one. */
  int nextEndpoint() {
    List<Uri> all = uris;
    return all == null ? 0 : (int) (sent.getAndIncrement() % all.size());
  }

  /** The request URI of server {@code i} ({@link #nextEndpoint()}). */
  Uri uri(int i) {
    List<Uri> all = uris;
    return all == null ? uri : all.get(i);
  }

  /** Server {@code i}'s name for the records, or null when the run has one. */
  String endpoint(int i) {
    List<String> all = endpoints;
    return all.isEmpty() ? null : all.get(i);
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

  /**
   * The name of a latency's Gatling record in the request's group: E2EL is the request's own record
   * ({@value #REQUEST_RECORD}), the others are named as vLLM abbreviates them ({@code TTFT}).
   */
  public static String recordName(Metric metric) {
    return metric == Metric.E2EL ? REQUEST_RECORD : metric.name();
  }

  /**
   * A completed request's Gatling records: its own, from t0 for its E2EL (whole ms, truncated, so
   * Gatling's response time is the kit's E2EL rather than the end of the response's last read), and
   * those asked for: TTFT, TPOT and each ITL.
   */
  void logCompleted(
      GatlingStats stats,
      io.gatling.core.session.Session session,
      RequestRecord r,
      ParsedStream stream) {
    long start = r.startMs();
    stats.ok(session, REQUEST_RECORD, start, start + r.e2elMs().longValue());
    long first = start + Math.round(r.ttftMs());
    if (ttftRecords) {
      stats.ok(session, recordName(Metric.TTFT), start, first);
    }
    if (tpotRecords && r.tpotMs() != null) {
      stats.ok(session, recordName(Metric.TPOT), first, first + Math.round(r.tpotMs()));
    }
    if (itlRecords) {
      long[] arrivals = stream.textArrivalNanos();
      String itl = recordName(Metric.ITL);
      for (int i = 1; i < stream.textCount(); i++) {
        long from = ClockAnchor.epochMs(arrivals[i - 1]);
        stats.ok(session, itl, from, from + Math.round((arrivals[i] - arrivals[i - 1]) / 1e6));
      }
    }
  }
}
