package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PrefixSharingTest {
  private static final String MODEL = "m";

  private static List<RequestRecord> level(int n, int inputTokens) {
    return IntStream.range(0, n)
        .mapToObj(i -> TestRecords.ok("c4").inputTokens(inputTokens).build())
        .toList();
  }

  @Test
  void eachGroupsFirstRequestMissesInTheFirstLevelOnly() {
    PrefixSharing p = new PrefixSharing(500, 4);
    // 20 prompts of 1000 tokens, 500 of them the prefix: 16 of 20 hit
    assertEquals(500.0 * 16 / 20_000, p.idealHitRate(level(20, 1000), true), 1e-12);
    assertEquals(0.5, p.idealHitRate(level(20, 1000), false), 1e-12);
    assertEquals(0.0, p.idealHitRate(level(3, 1000), true), 1e-12, "3 requests, 4 groups");
    assertNull(PrefixSharing.NONE.idealHitRate(level(20, 1000), true));
    assertNull(p.idealHitRate(List.of(TestRecords.ok("c4").inputTokens(null).build()), true));
  }

  private static List<ServerSample> cached(double share) {
    List<ServerSample> s = new ArrayList<>();
    for (long sec = 0; sec <= 10; sec++) {
      Map<String, String> l = Map.of("model_name", MODEL);
      s.add(new ServerSample(sec * 1000, "u", "vllm:prompt_tokens_total", l, 1000.0 * sec));
      s.add(
          new ServerSample(
              sec * 1000, "u", "vllm:prompt_tokens_cached_total", l, 1000.0 * share * sec));
    }
    return s;
  }

  @Test
  void theHitRateGuardsJudgeTheServerAgainstThePrefixesSentOnPurpose() {
    ServerFigures.Series asIntended = ServerFigures.Series.of(cached(0.45), MODEL);
    ServerFigures f = ServerFigures.of(asIntended, "c4", 0, 10_000, 0, 0, 0, 0.48);
    assertEquals(0.48, f.level().get(ServerFigures.IDEAL_HIT_RATE), 1e-12);
    assertEquals(1, f.guards().size(), f.guards().toString());
    assertTrue(
        f.guards().get(0).contains("45% of prompt tokens at c4 (a perfect cache 48% of these"),
        "the hits are intended, prefill still unmeasured: " + f.guards());
    assertTrue(
        ServerFigures.of(asIntended, "c4", 0, 10_000, 0, 0, 0)
            .guards()
            .get(0)
            .contains("at c4: prefill was not measured"));
    ServerFigures off =
        ServerFigures.of(
            ServerFigures.Series.of(cached(0.05), MODEL), "c4", 0, 10_000, 0, 0, 0, 0.48);
    assertTrue(off.guards().get(0).contains("prefix caching is off"), off.guards().toString());
  }
}
