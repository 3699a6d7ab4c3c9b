package io.github.llmbench.capture;

import io.gatling.core.action.Action;
import io.gatling.http.client.Request;
import io.gatling.http.client.RequestBuilder;
import io.gatling.http.client.body.bytearray.ByteArrayRequestBodyBuilder;
import io.gatling.http.client.resolver.InetAddressNameResolver;
import io.gatling.http.client.uri.Uri;
import io.gatling.http.engine.HttpEngine;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Gatling action that sends one streaming request and waits for its end: it builds the POST,
 * waits for the request's send time if it has one (a trace's), notes t0 just before handing it to
 * Gatling's HTTP client, and when the {@link StreamExchange} ends, writes the request's record to
 * {@code requests.jsonl}, logs the request's Gatling record (and the latency records asked for),
 * and passes the virtual user on.
 */
final class StreamAction extends KitAction {
  private static final Logger LOG = LoggerFactory.getLogger(StreamAction.class);

  private final StreamCapture capture;
  private final HttpEngine engine;
  private final GatlingStats stats;
  private final SessionReads reads;
  private final Action next;

  StreamAction(
      StreamCapture capture,
      HttpEngine engine,
      GatlingStats stats,
      SessionReads reads,
      Action next) {
    this.capture = capture;
    this.engine = engine;
    this.stats = stats;
    this.reads = reads;
    this.next = next;
  }

  /**
   * What a request reads from its virtual user's session.
   *
   * @param level the level's tag
   * @param profile the workload profile, or null
   * @param body the JSON body of a new request (called once per request)
   * @param origin its conversation and turn, or trace time, or null (read when it is sent)
   * @param sendAt when to send it ({@link System#nanoTime()}), or {@link StreamCapture#SEND_NOW}
   */
  record SessionReads(
      Function<Session, String> level,
      Function<Session, String> profile,
      Function<Session, String> body,
      Function<Session, RequestOrigin> origin,
      ToLongFunction<Session> sendAt) {}

  @Override
  public String name() {
    return "llmStream";
  }

  @Override
  public void execute(io.gatling.core.session.Session session) {
    // A virtual user may send several requests (count-stopped phases): each starts clean.
    io.gatling.core.session.Session clean = session.markAsSucceeded();
    capture.watch(clean.eventLoop());
    Session javaSession = new Session(clean);
    RequestRecords.Labels labels;
    Request request;
    Integer countedInputTokens;
    long due;
    try {
      String body = reads.body().apply(javaSession);
      String profile = reads.profile().apply(javaSession);
      String level = reads.level().apply(javaSession);
      String id = capture.nextRequestId();
      int endpoint = capture.nextEndpoint();
      Route route =
          Route.of(
              capture.endpoint(endpoint),
              javaSession.contains(StreamCapture.MODEL)
                  ? javaSession.getString(StreamCapture.MODEL)
                  : null);
      labels = new RequestRecords.Labels(id, level, profile, route);
      request = request(capture, capture.uri(endpoint), id, body);
      countedInputTokens = capture.countedInputTokens(javaSession);
      due = reads.sendAt().applyAsLong(javaSession);
    } catch (RuntimeException e) {
      failed(clean, e);
      return;
    }
    long wait = due == StreamCapture.SEND_NOW ? 0 : due - System.nanoTime();
    if (wait > 0) {
      // built ahead of its time: only the send itself is left for the due instant
      clean
          .eventLoop()
          .schedule(
              () -> send(clean, javaSession, labels, request, countedInputTokens),
              wait,
              TimeUnit.NANOSECONDS);
    } else {
      send(clean, javaSession, labels, request, countedInputTokens);
    }
  }

  private void send(
      io.gatling.core.session.Session clean,
      Session javaSession,
      RequestRecords.Labels labels,
      Request request,
      Integer countedInputTokens) {
    RequestOrigin origin;
    long t0;
    long slotIdle;
    try {
      origin = reads.origin().apply(javaSession); // a trace request's send time is taken here
      t0 = System.nanoTime();
      if (javaSession.contains(StreamCapture.ARRIVED_NANOS)) {
        long waited = t0 - javaSession.getLong(StreamCapture.ARRIVED_NANOS);
        origin = RequestOrigin.queued(origin, Math.max(0, waited) / 1000);
      }
      slotIdle =
          javaSession.contains(StreamCapture.SLOT_FREED_NANOS)
              ? Math.max(0, t0 - javaSession.getLong(StreamCapture.SLOT_FREED_NANOS)) / 1000
              : RequestRecord.ABSENT;
    } catch (RuntimeException e) {
      failed(clean, e);
      return;
    }
    capture.send(
        engine,
        clean,
        new RequestRecords.Sent(labels, origin, t0, countedInputTokens, slotIdle),
        request,
        this::completed);
  }

  private void failed(io.gatling.core.session.Session clean, RuntimeException e) {
    LOG.error("gatling-llm-bench: could not build a request: {}", e.toString());
    stats.crash(clean, StreamCapture.REQUEST_RECORD, String.valueOf(e.getMessage()));
    next.execute(clean.markAsFailed());
  }

  static Request request(StreamCapture capture, String id, String body) {
    return request(capture, capture.uri(), id, body);
  }

  static Request request(StreamCapture capture, Uri uri, String id, String body) {
    return request(capture, uri, id, body, Map.of());
  }

  /** As {@link #request(StreamCapture, Uri, String, String)}, with headers of its own. */
  static Request request(
      StreamCapture capture, Uri uri, String id, String body, Map<String, String> own) {
    HttpHeaders headers = new DefaultHttpHeaders();
    headers.add(capture.headers());
    own.forEach(headers::set);
    // as vllm bench serve: the server's logs and traces name the request as our records do
    headers.set("x-request-id", id);
    return new RequestBuilder(
            StreamCapture.REQUEST_RECORD,
            HttpMethod.POST,
            uri,
            InetAddressNameResolver.JAVA_RESOLVER)
        .setHeaders(headers)
        .setBodyBuilder(
            new ByteArrayRequestBodyBuilder(body.getBytes(StandardCharsets.UTF_8), null))
        .setRequestTimeout(capture.timeoutSeconds() * 1000L)
        .setDefaultCharset(StandardCharsets.UTF_8)
        .build();
  }

  private void completed(StreamExchange ex, long endNanos, String failure, Integer httpStatus) {
    RequestRecord record = capture.ended(stats, ex, endNanos, failure, httpStatus);
    io.gatling.core.session.Session after =
        GatlingResponseLog.timedInGroups(ex.session, record)
            .set(StreamCapture.SLOT_FREED_NANOS, endNanos);
    if (record != null && record.ok()) {
      if (capture.keepAnswers()) {
        after = after.set(StreamCapture.ANSWER, ex.stream().answer());
      }
    } else {
      after = after.markAsFailed();
    }
    io.gatling.core.session.Session continued = after;
    // Pass the user on after the client has finished with this response (its connection back in
    // the pool), not from inside the client's read.
    continued.eventLoop().execute(() -> next.execute(continued));
  }
}
