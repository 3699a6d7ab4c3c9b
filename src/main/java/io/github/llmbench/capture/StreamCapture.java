package io.github.llmbench.capture;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.regex;
import static io.gatling.javaapi.http.HttpDsl.sse;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.SseMessageCheck;
import io.github.llmbench.records.RunRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One streaming request as a Gatling chain, with Gatling's own SSE support.
 *
 * <ol>
 *   <li>note t0 and the request body in the session;
 *   <li>POST with {@code sse(...)} and await the end of the stream: {@code data: [DONE]}, an error
 *       event or a non-JSON data line; every other event (the chunks) waits in Gatling's unmatched
 *       message buffer with its arrival time;
 *   <li>read the buffer ({@code processUnmatchedMessages}); close the stream only if it failed
 *       while open;
 *   <li>compute the request's metrics, log them as Gatling records (TTFT, TPOT, ITL, E2EL) and
 *       append the request to {@code requests.jsonl}.
 * </ol>
 *
 * <p>Gatling's record of the SSE connect (named {@value #HEADERS_RECORD}) times only the response
 * headers and Gatling's check record ({@value #STREAM_RECORD}) runs from the headers to {@code
 * [DONE]}: neither is a latency of the model server; TTFT and E2EL are.
 */
public final class StreamCapture {
  public static final String SSE_NAME = "llmStream";
  public static final String HEADERS_RECORD = "headers";
  public static final String STREAM_RECORD = "stream";
  static final String END_KEY = "llmStreamEnd";

  /**
   * Matches the event that ends a stream, on Gatling's rendering {@code
   * {"event":..,"id":..,"data":...}}: {@code [DONE]}, an error object, or data that is not a JSON
   * object (a broken server). Anchored, so text inside a chunk can never match.
   */
  static final String END_EVENT =
      "^\\{(?:\"event\":\"[^\"]*\",)?(?:\"id\":\"[^\"]*\",)?\"data\":(?:\\[DONE\\]|\\{\\s*\"error\"|\"(?!\"))";

  static final String CUT_STREAM =
      "stream cut before [DONE] (Gatling would reconnect and send the POST again; refused)";

  private static final AtomicLong REQUEST_IDS = new AtomicLong();

  private final RunRecorder recorder;
  private final Duration timeout;
  private final String path;
  private final int bufferSize;

  /**
   * @param path the endpoint, e.g. {@code /v1/chat/completions}
   * @param maxOutputTokens the largest {@code max_tokens} any request asks for; sizes the buffer
   */
  public StreamCapture(RunRecorder recorder, Duration timeout, String path, int maxOutputTokens) {
    this.recorder = recorder;
    this.timeout = timeout;
    this.path = path;
    this.bufferSize = unmatchedBufferSize(maxOutputTokens);
  }

  /**
   * The unmatched-message buffer must hold every chunk of the longest stream: when it is full
   * Gatling drops the OLDEST, which would lose the first token. One chunk per token plus the role
   * and usage chunks, doubled for servers that send extra empty chunks.
   */
  public static int unmatchedBufferSize(int maxOutputTokens) {
    return 2 * maxOutputTokens + 16;
  }

  /** The size to give {@code HttpProtocolBuilder.sseUnmatchedInboundMessageBufferSize}. */
  public int bufferSize() {
    return bufferSize;
  }

  /**
   * The chain of one request.
   *
   * @param level the load level's tag, e.g. {@code c128}, written in each record
   * @param profile the request's workload profile, or null
   * @param body the JSON body of a new request (called once per request)
   */
  public ChainBuilder request(String level, Function<Session, String> profile, Function<Session, String> body) {
    SseMessageCheck end =
        sse.checkMessage(STREAM_RECORD)
            .matching(regex(END_EVENT).exists())
            .check(
                bodyString().saveAs(END_KEY),
                bodyString()
                    .validate(
                        "[DONE]",
                        (message, s) -> {
                          String failure = StreamParser.endFailure(message);
                          if (failure != null) {
                            throw new IllegalStateException(failure);
                          }
                          return message;
                        }));
    return exec(session -> begin(session, level, profile, body))
        .exec(
            sse(HEADERS_RECORD)
                .sseName(SSE_NAME)
                .post(path)
                .header("Content-Type", "application/json")
                // as vllm bench serve: the server's logs and traces name the request as our records do
                .header("x-request-id", s -> attempt(s).id())
                .body(StringBody(s -> attempt(s).body()))
                .sign(
                    (request, s) -> {
                      if (!attempt(s).markSent()) {
                        throw new IllegalStateException(CUT_STREAM);
                      }
                      return request;
                    })
                .await(timeout)
                .on(end))
        .exec(sse.processUnmatchedMessages(SSE_NAME, StreamCapture::collect))
        // After [DONE] the server ends the response and the connection goes back to the pool (as
        // vLLM's client keeps it alive): closing it would force a new connection per request. Only a
        // stream that failed while still open (timeout, error event) is closed by the client.
        .doIf(s -> s.isFailed() && attempt(s).crashReason() == null)
        .then(exec(sse("close").sseName(SSE_NAME).close()))
        .exec(new RecordRequestAction(recorder, bufferSize, timeout));
  }

  private Session begin(
      Session session, String level, Function<Session, String> profileOf, Function<Session, String> body) {
    String id = "req-" + REQUEST_IDS.incrementAndGet();
    String json = body.apply(session);
    String profile = profileOf.apply(session);
    long t0 = System.currentTimeMillis();
    recorder.started(id, level, profile, t0);
    // A virtual user may send several requests (count-stopped phases): start each one clean.
    Session clean = session.markAsSucceeded().remove(SSE_NAME).remove(END_KEY);
    return clean.set(StreamAttempt.SESSION_KEY, new StreamAttempt(id, level, profile, json, t0));
  }

  static StreamAttempt attempt(Session session) {
    return session.get(StreamAttempt.SESSION_KEY);
  }

  private static Session collect(List<io.gatling.http.action.sse.SseInboundMessage> messages, Session session) {
    List<TimedMessage> timed = new ArrayList<>(messages.size());
    for (io.gatling.http.action.sse.SseInboundMessage m : messages) {
      timed.add(new TimedMessage(m.timestamp(), m.message()));
    }
    ParsedStream parsed = StreamParser.parse(timed);
    String crash = GatlingSseInternals.crashReason(session.get(SSE_NAME)).orElse(null);
    attempt(session).captured(parsed, timed.size(), crash);
    return session;
  }
}
