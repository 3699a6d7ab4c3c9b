package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.CachedTokens;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionFiguresTest {

  private static RequestRecord call(
      String session, String call, int step, int round, long start, long end, boolean ok) {
    return RequestRecord.builder()
        .id(session + call + round)
        .level("c2")
        .startMs(start)
        .endMs(end)
        .ok(ok)
        .error(ok ? null : "HTTP 500")
        .ttftMs(ok ? (double) (step * 10) : null)
        .inputTokens(ok ? step * 100 : null)
        .origin(
            RequestOrigin.sessionPlace(
                new RequestOrigin.SessionPlace(session, call, step, List.of(), round)))
        .build();
  }

  /**
   * Session s1: a (0-100), a's tool round after a 50-ms tool (150-250), b and c in parallel after
   * 20 ms of the agent's own (270-400 and 270-350), then the end. Session s2 failed.
   */
  private static final List<RequestRecord> RECORDS =
      List.of(
          call("s1", "a", 1, 0, 0, 100, true),
          call("s1", "a", 1, 1, 150, 250, true),
          call("s1", "b", 2, 0, 270, 400, true),
          call("s1", "c", 2, 0, 270, 350, true),
          call("s2", "a", 1, 0, 1000, 1200, true),
          call("s2", "b", 2, 0, 1300, 1400, false),
          RequestRecord.builder().id("plain").level("c2").startMs(0).endMs(5).ok(true).build());

  @Test
  void aTaskRunsFromTheFirstSendToTheLastEndAndSplitsItsTime() {
    SessionFigures f = SessionFigures.of(RECORDS);
    assertEquals(2, f.tasks().size());
    SessionFigures.Task s1 = f.tasks().get(0);
    assertEquals("s1", s1.session());
    assertEquals(400, s1.taskMs());
    assertEquals(3, s1.calls());
    assertEquals(4, s1.requests());
    assertTrue(s1.completed());
    assertEquals(100 + 100 + 130, s1.serverMs());
    assertEquals(50, s1.toolMs());
    assertEquals(20, s1.agentMs());
    assertFalse(f.tasks().get(1).completed(), "a failed call fails its session");
    assertEquals(1, f.completed());
    assertEquals(1, f.taskMs().count(), "task time is over completed sessions");
    assertEquals(400, f.taskMs().mean());
    assertEquals(2.5, f.meanCalls());
    assertEquals(3.0, f.meanRequests());
    assertEquals((330.0 + 300) / (400 + 400), f.serverShare(), 1e-12);
    assertEquals(50.0 / 800, f.toolShare(), 1e-12);
    assertEquals(1, f.withinTask(400));
    assertEquals(0, f.withinTask(399));
  }

  @Test
  void stepsGiveTheirTtftAndPromptLengthOverCompletedRequests() {
    List<SessionFigures.Step> steps = SessionFigures.of(RECORDS).steps();
    assertEquals(2, steps.size());
    assertEquals(new SessionFigures.Step(1, 3, 0, 100, 10, 10, Double.NaN), steps.get(0));
    assertEquals(2, steps.get(1).step());
    assertEquals(2, steps.get(1).completed());
    assertEquals(1, steps.get(1).failed());
    assertEquals(200, steps.get(1).meanInputTokens());
  }

  @Test
  void aStepsPrefixCacheHitsAreOverTheRequestsWhoseServerSaid() {
    List<RequestRecord> rs =
        List.of(
            call("s", "a", 1, 0, 0, 10, true).toBuilder()
                .inputTokens(100)
                .part(CachedTokens.PART, 20)
                .build(),
            call("s", "b", 1, 0, 0, 10, true).toBuilder()
                .inputTokens(300)
                .part(CachedTokens.PART, 280)
                .build(),
            call("s", "c", 1, 0, 0, 10, true).toBuilder().inputTokens(500).build());
    assertEquals(0.75, SessionFigures.of(rs).steps().get(0).cacheHitRate(), 1e-12);
  }

  @Test
  void aTaskStartsWhenItsSessionStartedWhereTheRecordsSaySo() {
    RequestRecord first =
        call("s", "a", 1, 0, 100, 200, true).toBuilder()
            .origin(
                RequestOrigin.sessionPlace(
                    new RequestOrigin.SessionPlace("s", "a", 1, List.of(), 0, 40)))
            .build();
    SessionFigures.Task t = SessionFigures.tasks(List.of(first)).get(0);
    assertEquals(40, t.startMs());
    assertEquals(160, t.taskMs());
    assertEquals(60, t.agentMs(), "the wait before the first call is the agent's");
  }

  @Test
  void recordsOutsideSessionsHaveNone() {
    assertTrue(SessionFigures.of(List.of(RECORDS.get(6))).isEmpty());
  }
}
