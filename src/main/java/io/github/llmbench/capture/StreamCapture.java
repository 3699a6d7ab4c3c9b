package io.github.llmbench.capture;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.gatling.http.client.Request;
import io.gatling.http.client.uri.Uri;
import io.gatling.http.engine.HttpEngine;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.core.Metric;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * <p>Gatling records, in the request's group (the level): one {@value #REQUEST_RECORD} per stream,
 * so Gatling counts streams: a completed one from t0 for its E2EL, a failed one from t0 to its end,
 * KO with the reason (Gatling's error table and failure counts read it). Asked for ({@link
 * #recordName}), also TTFT and TPOT records of a completed stream, and one ITL record per gap.
 * Gatling's records are whole milliseconds; {@code requests.jsonl} keeps microseconds. The stream's
 * own record is also timed into the user's groups ({@link #timedInGroups}), as Gatling's HTTP
 * requests are: a level's group rows in Gatling's report read its streams' times, not 0 ms.
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
  private final boolean ttftRecords;
  private final boolean tpotRecords;
  private final boolean itlRecords;
  private final boolean keepAnswers;

  private final TokenCounter outputCounter;
  private final Function<Session, Integer> countedInputTokens;
  private final Cancelling cancelling;

  /** The servers' request URIs, sent to in turn, and each one's name for the records. */
  private final List<Uri> uris;

  private final List<String> endpoints;
  private final AtomicLong sent = new AtomicLong();
  private final StreamExchange.Reading reading;

  /** A capture to describe by name, then {@link Builder#build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * What a capture needs, set by name; the server ({@link #baseUrl}), the endpoint ({@link
   * #endpoint}) and the {@link #timeout} are required, the rest have the defaults their setters
   * say.
   */
  public static final class Builder {
    private RunRecorder recorder;
    private ClientProbe clientProbe;
    private Duration timeout;
    private URI baseUrl;
    private Endpoint endpoint;
    private Optional<String> apiKey = Optional.empty();
    private Map<String, String> extraHeaders = Map.of();
    private boolean closeConnection;
    private int maxOutputTokens;
    private Set<Metric> gatlingMetrics = Set.of();
    private boolean keepAnswers;
    private TokenCounter outputCounter;
    private Function<Session, Integer> countedInputTokens = session -> null;
    private Cancelling cancelling = Cancelling.NONE;
    private List<URI> baseUrls = List.of();
    private boolean namedServer;

    private Builder() {}

    /** Where the records go; null: nowhere (tests). */
    public Builder recorder(RunRecorder recorder) {
      this.recorder = recorder;
      return this;
    }

    /** Watches the event loops of the requests from the first one on; null (default): none. */
    public Builder clientProbe(ClientProbe probe) {
      this.clientProbe = probe;
      return this;
    }

    /** How long a request may take, whole seconds (at least 1). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** The server, e.g. {@code http://127.0.0.1:8000}, with no trailing '/'. */
    public Builder baseUrl(URI baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The endpoint: its path, how its answer is read and the figures its records have. */
    public Builder endpoint(Endpoint endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** Sent as {@code Authorization: Bearer ...}, never logged; empty (default): none. */
    public Builder apiKey(Optional<String> apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /**
     * The user's own headers ({@code -Dheader.<Name>}), set after the kit's (so they win), never
     * logged; default none.
     */
    public Builder extraHeaders(Map<String, String> headers) {
      this.extraHeaders = headers;
      return this;
    }

    /**
     * Whether to ask the server to close the connection after each response (llama-server closes it
     * anyway: reusing it would fail the next request); default false.
     */
    public Builder closeConnection(boolean close) {
      this.closeConnection = close;
      return this;
    }

    /** The largest {@code max_tokens} any request asks for. */
    public Builder maxOutputTokens(int max) {
      this.maxOutputTokens = max;
      return this;
    }

    /**
     * The latencies Gatling's stats get ({@link #recordName}): E2EL is the request's own record,
     * always there; ITL costs one record per chunk gap. Default: E2EL alone.
     */
    public Builder gatlingMetrics(Set<Metric> metrics) {
      this.gatlingMetrics = metrics;
      return this;
    }

    /**
     * Whether each completed request's generated text goes into the session ({@value #ANSWER}), for
     * conversations that send it back; off (default), the text is not copied.
     */
    public Builder keepAnswers(boolean keep) {
      this.keepAnswers = keep;
      return this;
    }

    /**
     * Counts a streamed answer's tokens when the stream has no usage (the answer is then kept);
     * null (default): none.
     */
    public Builder outputCounter(TokenCounter counter) {
      this.outputCounter = counter;
      return this;
    }

    /**
     * The request's prompt tokens by the local tokenizer, from its session, used when the stream
     * has no usage; default: unknown (null).
     */
    public Builder countedInputTokens(Function<Session, Integer> counted) {
      this.countedInputTokens = counted;
      return this;
    }

    /** Which requests the client cancels on purpose ({@code -Dcancel.pct}); default none. */
    public Builder cancelling(Cancelling cancelling) {
      this.cancelling = cancelling;
      return this;
    }

    /**
     * Sends the requests in turn to each of these servers (replicas behind no load balancer), each
     * record naming its own; fewer than two (default): the {@link #baseUrl} alone, no name.
     */
    public Builder spreadOver(List<URI> baseUrls) {
      this.baseUrls = baseUrls;
      return this;
    }

    /**
     * Whether each record names its server even when the capture has one (each side of an
     * interleaved A/B run); default false: only servers {@link #spreadOver} several are named.
     */
    public Builder namedServer(boolean named) {
      this.namedServer = named;
      return this;
    }

    /** The capture, its reading path warmed up. */
    public StreamCapture build() {
      return new StreamCapture(this);
    }
  }

  private StreamCapture(Builder b) {
    this.outputCounter = b.outputCounter;
    this.countedInputTokens = b.countedInputTokens;
    this.recorder = b.recorder;
    this.clientProbe = b.clientProbe;
    this.timeoutSeconds = (int) Math.max(1, b.timeout.toSeconds());
    this.endpoint = b.endpoint;
    String path = endpoint.path();
    this.uri =
        Uri.create(b.baseUrl + path); // the settings leave no trailing '/' (as ServerApi relies on)
    this.modelsUri = Uri.create(b.baseUrl + "/v1/models");
    this.maxOutputTokens = b.maxOutputTokens;
    this.ttftRecords = b.gatlingMetrics.contains(Metric.TTFT);
    this.tpotRecords = b.gatlingMetrics.contains(Metric.TPOT);
    this.itlRecords = b.gatlingMetrics.contains(Metric.ITL);
    this.keepAnswers = b.keepAnswers || outputCounter != null;
    this.cancelling = b.cancelling;
    List<URI> named = b.baseUrls.size() >= 2 || !b.namedServer ? b.baseUrls : List.of(b.baseUrl);
    boolean spread = named.size() >= 2 || b.namedServer;
    this.uris = spread ? named.stream().map(u -> Uri.create(u + path)).toList() : null;
    this.endpoints = spread ? named.stream().map(URI::toString).toList() : List.of();
    HttpHeaders h = new DefaultHttpHeaders();
    h.set("Content-Type", "application/json");
    h.set("Accept", endpoint.capture().accept());
    b.apiKey.ifPresent(key -> h.set("Authorization", "Bearer " + key));
    if (b.closeConnection) {
      h.set("Connection", "close");
    }
    b.extraHeaders.forEach(h::set);
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
   * A request's end: its record made and handed to the recorder, and Gatling's records of it (OK
   * with its latencies, KO with the reason, none when cancelled on purpose).
   *
   * @return the record, or null when it could not be made (logged)
   */
  RequestRecord ended(
      GatlingStats stats, StreamExchange ex, long endNanos, String failure, Integer httpStatus) {
    try {
      RequestRecord record =
          RequestRecords.builder(ex.sent, endNanos, ex.stream(), failure, httpStatus, outputCounter)
              .figures(endpoint.figures())
              .build();
      if (record.ok()) {
        logCompleted(stats, ex.session, record, ex.stream());
      } else if (!record.cancelled()) {
        // a cancelled one is neither OK nor KO: Gatling counts neither (requests.jsonl does)
        stats.ko(
            ex.session, REQUEST_RECORD, record.startMs(), gatlingEndMs(record), record.error());
      }
      recorder.finished(record);
      return record;
    } catch (RuntimeException e) {
      LOG.error("gatling-llm-bench: could not record request {}: {}", ex.sent.id(), e.toString());
      return null;
    }
  }

  /**
   * The end of a request's own Gatling record ({@value #REQUEST_RECORD}, from its start): t0 plus
   * its E2EL (whole ms, truncated) when completed, its end when failed.
   */
  static long gatlingEndMs(RequestRecord r) {
    return r.ok() ? r.startMs() + r.e2elMs().longValue() : r.endMs();
  }

  /**
   * The user's session with a request's Gatling record timed into its groups (the level's, and the
   * profile's), as Gatling's own HTTP requests do, so a level's group rows in Gatling's report read
   * the requests' E2EL; unchanged for a request with no Gatling record (cancelled, or not
   * recorded).
   */
  static io.gatling.core.session.Session timedInGroups(
      io.gatling.core.session.Session session, RequestRecord r) {
    return r == null || r.cancelled()
        ? session
        : GatlingStats.timedInGroups(session, r.startMs(), gatlingEndMs(r));
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
    stats.ok(session, REQUEST_RECORD, start, gatlingEndMs(r));
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
