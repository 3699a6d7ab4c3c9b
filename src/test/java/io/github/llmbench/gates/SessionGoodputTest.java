package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code -Dgate.goodput=task:MS}: goodput counts agent sessions. */
class SessionGoodputTest {

  private static RequestRecord call(String session, long start, long end, double ttft, boolean ok) {
    return RequestRecord.builder()
        .id(session + start)
        .level("c1")
        .startMs(start)
        .endMs(end)
        .ok(ok)
        .error(ok ? null : "HTTP 500")
        .ttftMs(ok ? ttft : null)
        .origin(
            RequestOrigin.sessionPlace(
                new RequestOrigin.SessionPlace(session, "c" + start, 1, List.of(), 0)))
        .build();
  }

  private static final List<RequestRecord> RECORDS =
      List.of(
          call("quick", 0, 100, 10, true),
          call("quick", 100, 300, 10, true), // task 300 ms
          call("slow", 0, 900, 10, true), // task 900 ms
          call("slowFirst", 0, 200, 80, true), // task 200 ms, a TTFT of 80
          call("failed", 0, 100, 10, false));

  @Test
  void aSessionIsGoodWhenEveryCallCompletedInItsObjectivesAndTheTaskInTime() {
    assertEquals(new GoodputSpec.Count(2, 4), GoodputSpec.parse("task:500").count(RECORDS));
    assertEquals(new GoodputSpec.Count(1, 4), GoodputSpec.parse("task:500 ttft:50").count(RECORDS));
    assertEquals(new GoodputSpec.Count(3, 4), GoodputSpec.parse("task:900").count(RECORDS));
    assertEquals("ttft:50 task:500", GoodputSpec.parse("task:500 ttft:50").toString());
  }

  @Test
  void withoutATaskObjectiveGoodputCountsRequests() {
    assertEquals(new GoodputSpec.Count(3, 5), GoodputSpec.parse("ttft:50").count(RECORDS));
  }
}
