package io.github.llmbench.injection;

import io.github.llmbench.capture.CallGraph;
import io.github.llmbench.capture.ParsedStream;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.workload.RequestBodies;
import io.github.llmbench.workload.sessions.SessionRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One agent session's calls as the capture runs them: {@link SessionRun} decides what is due and
 * what each call says; this makes each call's request body, its headers (the session header among
 * them) and its record's place in the session.
 */
final class AgentCalls implements CallGraph {
  private final SessionRun run;
  private final RequestBodies bodies;
  private final int defaultMaxTokens;
  private final String instance;
  private final Optional<String> sessionHeader;
  private final UnaryOperator<RequestOrigin> sending;
  private long startMs = RequestRecord.ABSENT;

  /**
   * @param instance the session's id in the run's records, e.g. {@code review#3}
   * @param defaultMaxTokens {@code max_tokens} of a call that names none ({@code -Doutput.len})
   * @param sessionHeader the header that carries {@code instance} ({@code -Dsession.header})
   * @param sending adds the trial and the injector to a call's origin
   */
  AgentCalls(
      SessionRun run,
      RequestBodies bodies,
      int defaultMaxTokens,
      String instance,
      Optional<String> sessionHeader,
      UnaryOperator<RequestOrigin> sending) {
    this.run = run;
    this.bodies = bodies;
    this.defaultMaxTokens = defaultMaxTokens;
    this.instance = instance;
    this.sessionHeader = sessionHeader;
    this.sending = sending;
  }

  @Override
  public List<Due> start(long startMs) {
    this.startMs = startMs;
    return dues(run.start());
  }

  @Override
  public Call call(String id) {
    SessionRun.Request r = run.request(id);
    Map<String, String> headers = new LinkedHashMap<>(r.spec().headers());
    sessionHeader.ifPresent(h -> headers.put(h, instance));
    RequestOrigin origin =
        RequestOrigin.sessionPlace(
            new RequestOrigin.SessionPlace(
                instance, r.call(), r.step(), r.parents(), r.round(), startMs));
    return new Call(
        bodies.sessionBody(r, defaultMaxTokens), headers, r.spec().model(), sending.apply(origin));
  }

  @Override
  public List<Due> answered(String id, String text, List<ParsedStream.ToolCall> toolCalls) {
    List<SessionRun.ToolCall> calls =
        toolCalls.stream()
            .map(t -> new SessionRun.ToolCall(t.id(), t.name(), t.arguments()))
            .toList();
    return dues(run.answered(id, new SessionRun.Answer(text == null ? "" : text, calls)));
  }

  @Override
  public void failed(String id) {
    run.failed(id);
  }

  private static List<Due> dues(List<SessionRun.Due> dues) {
    return dues.stream()
        .map(d -> new Due(d.call(), Math.round(d.delayMs() * 1e6), d.round() > 0))
        .toList();
  }
}
