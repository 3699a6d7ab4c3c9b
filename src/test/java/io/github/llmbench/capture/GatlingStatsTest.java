package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.Status;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.Controller;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.gatling.core.stats.StatsEngine;
import io.github.llmbench.core.Metric;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.settings.GatlingRecords;
import io.netty.channel.DefaultEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import scala.Option;

/**
 * What Gatling's stats get of a stream, through Gatling's own {@code StatsEngine} interface (a
 * Gatling upgrade that changes it breaks here): one record per stream, named and timed as Gatling's
 * report and assertions read it, and the latency records only when asked for.
 */
class GatlingStatsTest {
  private final DefaultEventLoop loop = new DefaultEventLoop();
  private final Session session = Session$.MODULE$.apply("s", 1L, loop);

  @AfterEach
  void stop() {
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  /** One call of {@code logResponse}: its name, response time and status. */
  record Logged(String name, long ms, String status, String message) {}

  /** Gatling's stats engine, keeping what it is given. */
  static final class Recording implements StatsEngine {
    final List<Logged> logged = new ArrayList<>();

    @Override
    public void start() {}

    @Override
    public void stop(ActorRef<Controller.Command> controller, Option<Exception> exception) {}

    @Override
    public void logUserStart(String scenario) {}

    @Override
    public void logUserEnd(String scenario) {}

    @Override
    public void logResponse(
        String scenario,
        scala.collection.immutable.List<String> groups,
        String requestName,
        long startTimestamp,
        long endTimestamp,
        Status status,
        Option<String> responseCode,
        Option<String> message) {
      logged.add(
          new Logged(
              requestName,
              endTimestamp - startTimestamp,
              status.name(),
              message.getOrElse(() -> null)));
    }

    @Override
    public void logGroupEnd(String scenario, GroupBlock groupBlock, long exitTimestamp) {}

    @Override
    public void logRequestCrash(
        String scenario,
        scala.collection.immutable.List<String> groups,
        String requestName,
        String error) {
      logged.add(new Logged(requestName, -1, "CRASH", error));
    }
  }

  private static GatlingResponseLog log(GatlingRecords records) {
    return new GatlingResponseLog(records.metrics());
  }

  /** Text chunks 40.6 ms, 60.6 ms and 80.6 ms after t0: E2EL 80.6 ms over 3 tokens. */
  private static final long T0 = 1_000_000_000L;

  private static final long[] ARRIVALS = {T0 + 40_600_000L, T0 + 60_600_000L, T0 + 80_600_000L};

  private static ParsedStream stream() {
    return new ParsedStream(ARRIVALS.clone(), 3, 5, 3, true, null);
  }

  private static RequestRecord completed() {
    RequestRecord r =
        RequestRecords.of(
            new RequestRecords.Sent("req-1", "c1", null, T0),
            T0 + 81_000_000L,
            stream(),
            null,
            200,
            null);
    assertEquals(80.6, r.e2elMs(), 1e-9);
    return r;
  }

  private List<Logged> logged(GatlingRecords records) {
    Recording engine = new Recording();
    log(records).logCompleted(new GatlingStats(engine), session, completed(), stream());
    return engine.logged;
  }

  @Test
  void byDefaultAStreamIsOneRecordTimedForItsE2el() {
    // E2EL 80.6 ms, in whole ms truncated: not the 81 ms to the response's end
    assertEquals(List.of(new Logged("request", 80, "OK", null)), logged(GatlingRecords.REQUEST));
  }

  @Test
  void latencyRecordsAreAddedOnlyWhenAsked() {
    assertEquals(
        List.of(
            new Logged("request", 80, "OK", null),
            new Logged("TTFT", 41, "OK", null),
            new Logged("TPOT", 20, "OK", null)),
        logged(GatlingRecords.LATENCY));
    List<Logged> all = logged(GatlingRecords.ALL);
    assertEquals(3 + 2, all.size(), "request, TTFT, TPOT and one ITL per gap: " + all);
    assertEquals(List.of("ITL", "ITL"), all.subList(3, 5).stream().map(Logged::name).toList());
  }

  @Test
  void aFailedStreamIsOneKoRecordWithItsReason() {
    Recording engine = new Recording();
    GatlingStats stats = new GatlingStats(engine);
    stats.ko(session, StreamCapture.REQUEST_RECORD, 1_000L, 1_250L, "HTTP 500: boom");
    stats.crash(session, StreamCapture.REQUEST_RECORD, "no prompt");
    assertEquals(
        List.of(
            new Logged("request", 250, KO$.MODULE$.name(), "HTTP 500: boom"),
            new Logged("request", -1, "CRASH", "no prompt")),
        engine.logged);
  }

  @Test
  void aRequestsEndJobLogsItsRecordOkOrKoAndNothingForACancel() {
    Recording engine = new Recording();
    GatlingStats stats = new GatlingStats(engine);
    RequestRecord ok = completed();
    RequestRecord failed =
        ok.toBuilder().ok(false).error("HTTP 500: boom").endMs(ok.startMs() + 250).build();
    RequestRecord cancelled =
        failed.toBuilder().error(RequestRecord.CANCELLED + " after 5 ms").build();
    GatlingResponseLog job = log(GatlingRecords.ALL);
    job.done(new RequestEndJob.Ended(stats, session, ok, stream()));
    int completedRecords = engine.logged.size();
    job.done(new RequestEndJob.Ended(stats, session, failed, stream()));
    job.done(new RequestEndJob.Ended(stats, session, cancelled, stream()));
    assertEquals(logged(GatlingRecords.ALL), engine.logged.subList(0, completedRecords));
    assertEquals(
        List.of(new Logged("request", 250, KO$.MODULE$.name(), "HTTP 500: boom")),
        engine.logged.subList(completedRecords, engine.logged.size()),
        "a cancel is neither OK nor KO");
  }

  /** The cumulated response time of each group the session is in, innermost first. */
  private static List<Integer> groupTimes(Session s) {
    List<Integer> times = new ArrayList<>();
    s.blockStack()
        .foreach(
            b -> {
              if (b instanceof GroupBlock g) {
                times.add(g.cumulatedResponseTime());
              }
              return null;
            });
    return times;
  }

  @Test
  void aStreamsOwnRecordIsTimedIntoEachGroupItIsIn() {
    // a level's group with a profile's inside, as a profile run's request is
    Session grouped = session.enterGroup("c1", 0L).enterGroup("chat", 0L);
    Recording engine = new Recording();
    log(GatlingRecords.ALL).logCompleted(new GatlingStats(engine), grouped, completed(), stream());
    long own = engine.logged.get(0).ms();
    assertEquals("request", engine.logged.get(0).name());
    // the stream's own record only, not its TTFT, TPOT and ITL records (parts of the same time)
    assertEquals(
        List.of((int) own, (int) own),
        groupTimes(GatlingResponseLog.timedInGroups(grouped, completed())));
  }

  @Test
  void aFailedStreamIsTimedToItsFailureAndACancelledOneNotAtAll() {
    Session grouped = session.enterGroup("c1", 0L);
    RequestRecord failed =
        RequestRecords.of(
            new RequestRecords.Sent("req-2", "c1", null, T0),
            T0 + 30_000_000L,
            ParsedStream.EMPTY,
            "HTTP 500: boom",
            500,
            null);
    assertEquals(
        List.of((int) (failed.endMs() - failed.startMs())),
        groupTimes(GatlingResponseLog.timedInGroups(grouped, failed)));
    RequestRecord cancelled =
        RequestRecords.of(
            new RequestRecords.Sent("req-3", "c1", null, T0),
            T0 + 30_000_000L,
            ParsedStream.EMPTY,
            RequestRecord.CANCELLED,
            null,
            null);
    assertTrue(cancelled.cancelled(), cancelled.toString());
    assertEquals(List.of(0), groupTimes(GatlingResponseLog.timedInGroups(grouped, cancelled)));
  }

  @Test
  void eachLatencyHasItsRecordName() {
    assertEquals("request", GatlingResponseLog.recordName(Metric.E2EL));
    assertEquals(
        List.of("TTFT", "TPOT", "ITL"),
        Set.of(Metric.TTFT, Metric.TPOT, Metric.ITL).stream()
            .sorted()
            .map(GatlingResponseLog::recordName)
            .toList());
  }
}
