package io.github.llmbench.capture;

import io.gatling.commons.validation.Success;
import io.gatling.core.action.SessionHook;
import io.gatling.javaapi.core.ActionBuilder;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunRecorder;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The last step of a request: turns what was captured into a {@link RequestRecord}, logs TTFT,
 * TPOT, each ITL and E2EL as Gatling records of the current group, and appends the record to
 * {@code requests.jsonl}.
 *
 * <p>A custom action rather than a plain {@code exec(session -> ...)}: only an action built with
 * Gatling's {@code ScenarioContext} can reach the stats engine.
 */
final class RecordRequestAction implements ActionBuilder {
  static final String TTFT = "TTFT";
  static final String TPOT = "TPOT";
  static final String ITL = "ITL";
  static final String E2EL = "E2EL";

  private static final Pattern STATUS = Pattern.compile("response with code (\\d{3})");

  private final RunRecorder recorder;
  private final int bufferSize;
  private final Duration timeout;

  RecordRequestAction(RunRecorder recorder, int bufferSize, Duration timeout) {
    this.recorder = recorder;
    this.bufferSize = bufferSize;
    this.timeout = timeout;
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return (ctx, next) -> {
      GatlingStats stats = new GatlingStats(ctx.coreComponents().statsEngine());
      return new SessionHook(
          scalaSession -> new Success<>(record(stats, scalaSession)),
          "llmRecord",
          ctx.coreComponents().statsEngine(),
          next);
    };
  }

  private io.gatling.core.session.Session record(GatlingStats stats, io.gatling.core.session.Session scalaSession) {
    io.gatling.javaapi.core.Session session = new io.gatling.javaapi.core.Session(scalaSession);
    StreamAttempt attempt = StreamCapture.attempt(session);
    long now = System.currentTimeMillis();
    ParsedStream stream =
        attempt.stream() != null ? attempt.stream() : new ParsedStream(List.of(), null, null, false, null);
    String failure = null;
    Integer status = null;
    String crash = attempt.crashReason();
    if (crash != null) {
      Matcher m = STATUS.matcher(crash);
      if (m.find()) {
        status = Integer.parseInt(m.group(1));
        failure = "HTTP " + status;
      } else {
        failure = crash.equals("End of stream") ? "stream ended without [DONE]" : crash;
        status = attempt.chunkCount() > 0 ? 200 : null;
      }
    } else if (session.isFailed()) {
      status = 200;
      String end = session.getString(StreamCapture.END_KEY);
      String endFailure = end == null ? null : StreamParser.endFailure(end);
      if (endFailure != null) {
        failure = endFailure;
      } else {
        failure = "timeout: no [DONE] within " + timeout.toSeconds() + " s";
      }
    } else if (attempt.chunkCount() >= bufferSize) {
      failure = "more than " + bufferSize + " chunks: the first ones were dropped by the buffer";
    }
    RequestRecord record =
        RequestRecords.of(attempt.id(), attempt.level(), attempt.t0(), now, stream, failure, status)
            .withProfile(attempt.profile());
    io.gatling.core.session.Session result = scalaSession;
    if (record.ok()) {
      logTimings(stats, scalaSession, record, stream);
    } else if (!session.isFailed()) {
      // Gatling saw a clean [DONE]; the problem is in the chunks: make the request count as failed.
      stats.ko(scalaSession, StreamCapture.STREAM_RECORD, attempt.t0(), now, record.error());
      result = scalaSession.markAsFailed();
    }
    recorder.finished(record);
    return result;
  }

  private static void logTimings(
      GatlingStats stats, io.gatling.core.session.Session session, RequestRecord r, ParsedStream stream) {
    List<Long> arrivals = stream.textArrivalsMs();
    long first = arrivals.get(0);
    long last = arrivals.get(arrivals.size() - 1);
    stats.ok(session, TTFT, r.startMs(), first);
    if (r.tpotMs() != null) {
      stats.ok(session, TPOT, first, first + Math.round(r.tpotMs()));
    }
    for (int i = 1; i < arrivals.size(); i++) {
      stats.ok(session, ITL, arrivals.get(i - 1), arrivals.get(i));
    }
    stats.ok(session, E2EL, r.startMs(), last);
  }
}
