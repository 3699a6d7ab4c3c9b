package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.settings.InjectorSettings;
import io.github.llmbench.workload.Dataset;
import io.github.llmbench.workload.FeederRecords;
import io.github.llmbench.workload.RequestSpec;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RequestChainsTest {

  /** Request n's prompt is "p<n>". */
  private static final Dataset NUMBERED =
      new Dataset() {
        @Override
        public RequestSpec request(long index, String profile) {
          return RequestSpec.ofPrompt("p" + index, 16, profile, 4);
        }

        @Override
        public int maxTokens() {
          return 16;
        }

        @Override
        public List<RequestSpec> longestRequests() {
          return List.of();
        }

        @Override
        public Dataset withSeed(long seed) {
          return this;
        }
      };

  @Test
  void traceRecordsCarryTheirSendTimeFromOneClockStartedAtTheFirstFeed() {
    AtomicLong now = new AtomicLong(1_000);
    Iterator<Map<String, Object>> records =
        RequestChains.traceRecords(
            n -> FeederRecords.of(NUMBERED.request(n, null)),
            new AtomicLong(),
            List.of(0.0, 0.5),
            now::get);
    Map<String, Object> first = records.next();
    now.set(9_000_000_000L); // later feeds keep the first's clock
    Map<String, Object> second = records.next();
    Map<String, Object> third = records.next();
    long start = 1_000 + RequestChains.TRACE_LEAD_NANOS;
    assertEquals(start, first.get(Populations.SEND_CLOCK_START_NANOS));
    assertEquals(start, third.get(Populations.SEND_CLOCK_START_NANOS));
    assertEquals(0L, first.get(Populations.SEND_AT_MICROS));
    assertEquals(500_000L, second.get(Populations.SEND_AT_MICROS));
    assertEquals(0L, third.get(Populations.SEND_AT_MICROS), "past the trace's end it starts over");
    assertEquals("p2", third.get(FeederRecords.PROMPT), "the dataset's requests go on");
  }

  @Test
  void aTraceRequestIsDueAtItsTimeFromTheClockStartAndSaysWhenItWent() {
    assertEquals(1_000 + 2_500_000, RequestChains.sendAtNanos(1_000, 2_500));
    RequestOrigin origin = RequestChains.traceOrigin(1_000, 2_500, 1_000 + 2_700_000);
    assertEquals(2_500, origin.traceMicros());
    assertEquals(2_700, origin.sentMicros());
  }

  @Test
  void injectorsSendInterleavedRequestsAndSayWhichSentOne() {
    InjectorSettings second = new InjectorSettings(1, 3, OptionalLong.empty(), 10);
    assertEquals(
        List.of(1L, 4L, 7L),
        List.of(
            RequestChains.datasetIndex(0, second),
            RequestChains.datasetIndex(1, second),
            RequestChains.datasetIndex(2, second)));
    assertEquals(5, RequestChains.datasetIndex(5, InjectorSettings.ALONE));
    RequestOrigin turn = RequestOrigin.turn("conv-1", 2);
    assertSame(
        turn, RequestChains.withInjector(turn, InjectorSettings.ALONE), "one injector: as it was");
    RequestOrigin sharded = RequestChains.withInjector(turn, second);
    assertEquals(1, sharded.injector());
    assertEquals("conv-1", sharded.conversation());
    assertEquals(1, RequestChains.withInjector(null, second).injector(), "a plain request too");
  }

  @Test
  void onlyAWholeNonNegativeCountIsAnInputTokenCount() {
    assertEquals(12, RequestChains.countedInputTokens((Object) 12));
    assertEquals(12, RequestChains.countedInputTokens((Object) 12L));
    assertNull(RequestChains.countedInputTokens((Object) (-1)));
    assertNull(RequestChains.countedInputTokens((Object) "12"));
    assertNull(RequestChains.countedInputTokens((Object) null));
  }
}
