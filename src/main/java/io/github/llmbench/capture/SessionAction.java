package io.github.llmbench.capture;

import io.gatling.core.action.Action;
import io.gatling.http.client.Request;
import io.gatling.http.engine.HttpEngine;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Gatling action that runs one agent session as its virtual user: it sends each call of the
 * session's {@link CallGraph} when it is due (several in flight at once where the graph fans out,
 * over the shared connection pool), records each as {@link StreamAction} does, tells the graph how
 * each ended, and passes the user on when nothing is in flight or waiting any more: the user is
 * failed when any call failed. Everything runs on the user's event loop, so a session's state needs
 * no lock.
 */
final class SessionAction extends KitAction {
  private static final Logger LOG = LoggerFactory.getLogger(SessionAction.class);

  private final StreamCapture capture;
  private final HttpEngine engine;
  private final GatlingStats stats;
  private final Function<Session, String> level;
  private final Function<Session, CallGraph> graphs;
  private final Action next;

  SessionAction(
      StreamCapture capture,
      HttpEngine engine,
      GatlingStats stats,
      Function<Session, String> level,
      Function<Session, CallGraph> graphs,
      Action next) {
    this.capture = capture;
    this.engine = engine;
    this.stats = stats;
    this.level = level;
    this.graphs = graphs;
    this.next = next;
  }

  @Override
  public String name() {
    return "llmSession";
  }

  @Override
  public void execute(io.gatling.core.session.Session session) {
    io.gatling.core.session.Session clean = session.markAsSucceeded();
    capture.watch(clean.eventLoop());
    Session javaSession = new Session(clean);
    Running running;
    List<CallGraph.Due> first;
    try {
      running = new Running(clean, level.apply(javaSession), graphs.apply(javaSession));
      first = running.graph.start(ClockAnchor.epochMs(System.nanoTime()));
    } catch (RuntimeException e) {
      LOG.error("gatling-llm-bench: could not start a session: {}", e.toString());
      stats.crash(clean, StreamCapture.REQUEST_RECORD, String.valueOf(e.getMessage()));
      next.execute(clean.markAsFailed());
      return;
    }
    running.due(first);
    running.passOnWhenDone();
  }

  /** One session in progress. */
  private final class Running {
    /** The user's session: each ended call's time added to its groups as it ends. */
    io.gatling.core.session.Session session;

    final String level;
    final CallGraph graph;

    /** Calls in flight or waiting for their time. */
    int open;

    boolean failed;

    Running(io.gatling.core.session.Session session, String level, CallGraph graph) {
      this.session = session;
      this.level = level;
      this.graph = graph;
    }

    void due(List<CallGraph.Due> dues) {
      for (CallGraph.Due d : dues) {
        open++;
        if (d.delayNanos() > 0) {
          session.eventLoop().schedule(() -> send(d.call()), d.delayNanos(), TimeUnit.NANOSECONDS);
        } else {
          session.eventLoop().execute(() -> send(d.call()));
        }
      }
    }

    void send(String call) {
      RequestRecords.Sent sent;
      Request request;
      try {
        CallGraph.Call c = graph.call(call);
        String id = capture.nextRequestId();
        int endpoint = capture.nextEndpoint();
        RequestRecords.Labels labels =
            new RequestRecords.Labels(
                id, level, null, Route.of(capture.endpoint(endpoint), c.model()));
        request = StreamAction.request(capture, capture.uri(endpoint), id, c.body(), c.headers());
        sent = new RequestRecords.Sent(labels, c.origin(), System.nanoTime(), null);
      } catch (RuntimeException e) {
        LOG.error("gatling-llm-bench: could not build call {}: {}", call, e.toString());
        stats.crash(session, StreamCapture.REQUEST_RECORD, String.valueOf(e.getMessage()));
        failed(call);
        return;
      }
      capture.send(
          engine,
          session,
          sent,
          request,
          (ex, endNanos, failure, status) -> {
            RequestRecord record = capture.ended(stats, ex, endNanos, failure, status);
            ParsedStream stream = ex.stream();
            // on from the loop's next turn: the client is done with this response by then
            session.eventLoop().execute(() -> ended(call, record, stream));
          });
    }

    void ended(String call, RequestRecord record, ParsedStream stream) {
      session = GatlingResponseLog.timedInGroups(session, record);
      if (record == null || !record.ok()) {
        failed(call);
        return;
      }
      List<CallGraph.Due> dues;
      try {
        dues = graph.answered(call, stream.content(), stream.toolCalls());
      } catch (RuntimeException e) {
        LOG.error("gatling-llm-bench: could not go on after call {}: {}", call, e.toString());
        failed(call);
        return;
      }
      open--;
      due(dues);
      passOnWhenDone();
    }

    private void failed(String call) {
      failed = true;
      open--;
      try {
        graph.failed(call);
      } catch (RuntimeException e) {
        LOG.error("gatling-llm-bench: call {} failed twice: {}", call, e.toString());
      }
      passOnWhenDone();
    }

    void passOnWhenDone() {
      if (open == 0) {
        next.execute(failed ? session.markAsFailed() : session);
      }
    }
  }
}
