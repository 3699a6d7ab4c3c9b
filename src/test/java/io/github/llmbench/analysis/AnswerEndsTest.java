package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnswerEndsTest {

  static RequestRecord ok(String id, int outputTokens, String finish) {
    return RequestRecord.builder()
        .id(id)
        .level("c2")
        .startMs(0)
        .endMs(100)
        .ttftMicros(10_000)
        .tpotMicros(1_000)
        .e2elMicros(10_000 + 1_000L * (outputTokens - 1))
        .itl(io.github.llmbench.records.ItlSeries.EMPTY)
        .inputTokens(10)
        .outputTokens(outputTokens)
        .httpStatus(200)
        .ok(true)
        .finishReason(finish)
        .build();
  }

  @Test
  void answersTheModelEndedAreCountedAndGuarded() {
    AnswerEnds e =
        AnswerEnds.of(
            List.of(
                ok("a", 32, "length"),
                ok("b", 20, "stop"),
                ok("c", 24, "stop"),
                ok("d", 32, null),
                RequestRecord.builder()
                    .id("e")
                    .level("c2")
                    .startMs(0)
                    .endMs(1)
                    .error("HTTP 500")
                    .httpStatus(500)
                    .build()));
    assertEquals(4, e.okRequests());
    assertEquals(Map.of("length", 1, "stop", 2), e.byReason());
    assertEquals(2, e.endedByModel());
    assertEquals(22.0, e.meanOutputTokensOfThose(), 1e-9);
    String g = e.guard("c2");
    assertTrue(
        g.startsWith("2 of 4 answers at c2 ended before max_tokens (finish_reason stop, 22"), g);
  }

  @Test
  void answersThatReachedMaxTokensNeedNoGuard() {
    AnswerEnds e = AnswerEnds.of(List.of(ok("a", 32, "length"), ok("b", 32, "tool_calls")));
    assertNull(e.guard("c2"));
    assertNull(AnswerEnds.of(List.of()).guard("c2"));
  }

  @Test
  void theFinishReasonTravelsThroughRequestsJsonl() throws Exception {
    ObjectMapper json = new ObjectMapper();
    RequestRecord r = ok("a", 8, "stop");
    String line = json.writeValueAsString(r);
    assertTrue(line.contains("\"finish_reason\":\"stop\""), line);
    assertEquals(r, json.readValue(line, RequestRecord.class));
    assertTrue(!json.writeValueAsString(ok("b", 8, null)).contains("finish_reason"));
  }
}
