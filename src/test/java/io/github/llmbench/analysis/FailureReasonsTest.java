package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailureReasonsTest {

  static final String CONTEXT =
      "HTTP 400: request (15204 tokens) exceeds the available context size (2048 tokens),"
          + " try increasing it";

  /** {@code times} requests of {@code level} that failed for {@code error}. */
  static List<RequestRecord> failures(String level, String error, int times) {
    List<RequestRecord> out = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      out.add(TestRecords.failed(level, error).build());
    }
    return out;
  }

  @Test
  void mostFrequentFirstTiesInFirstAppearanceOrder() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(TestRecords.ok("c2").build());
    rs.add(TestRecords.failed("c2", "timeout: no response within 5 s").build());
    rs.add(TestRecords.failed("c2", "HTTP 500: injected failure").build());
    rs.addAll(failures("c2", CONTEXT, 4));
    rs.add(TestRecords.failed("c2", "connect error: refused").build());
    rs.add(TestRecords.failed("c2", "HTTP 500: injected failure").build());
    rs.add(TestRecords.ok("c2").build());

    FailureReasons f = FailureReasons.of(rs, 10);
    assertEquals(
        List.of(
            new FailureReasons.Reason(CONTEXT, 4),
            new FailureReasons.Reason("HTTP 500: injected failure", 2),
            new FailureReasons.Reason("timeout: no response within 5 s", 1),
            new FailureReasons.Reason("connect error: refused", 1)),
        f.top());
    assertEquals(0, f.otherRequests());
    assertEquals(0, f.otherReasons());
    assertEquals(8, f.failed());
  }

  @Test
  void topTenAndWhatWasLeftOut() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 1; i <= 13; i++) { // reason i appears i times: the 3 rarest are cut
      rs.addAll(failures("c8", "HTTP 500: reason " + i, i));
    }
    FailureReasons f = FailureReasons.of(rs, FailureReasons.TOP);
    assertEquals(10, f.top().size());
    assertEquals(new FailureReasons.Reason("HTTP 500: reason 13", 13), f.top().get(0));
    assertEquals(new FailureReasons.Reason("HTTP 500: reason 4", 4), f.top().get(9));
    assertEquals(1 + 2 + 3, f.otherRequests());
    assertEquals(3, f.otherReasons());
    assertEquals(13 * 14 / 2, f.failed());

    FailureReasons none = FailureReasons.of(rs, 0);
    assertTrue(none.top().isEmpty());
    assertEquals(13, none.otherReasons());
    assertThrows(IllegalArgumentException.class, () -> FailureReasons.of(rs, -1));
  }

  @Test
  void perLevelWithNullsNamed() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(TestRecords.ok("c4").build());
    rs.add(TestRecords.failed("c2", null).build());
    rs.add(TestRecords.ok("c2").build());
    rs.add(TestRecords.failed("c4", "HTTP 500: injected failure").build());
    rs.add(TestRecords.failed(null, "stream cut before [DONE]: reset").build());
    rs.add(TestRecords.ok("c8").build());

    // the levels as the analysis groups them (ServingMetricsCalculator.byLevel: a null level is "")
    Map<String, FailureReasons> byLevel = new LinkedHashMap<>();
    RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build())
        .levels()
        .forEach((name, l) -> byLevel.put(name, l.failures()));
    assertEquals(Set.of("c4", "c2", "", "c8"), byLevel.keySet());
    assertEquals(
        List.of(new FailureReasons.Reason("HTTP 500: injected failure", 1)),
        byLevel.get("c4").top());
    assertEquals(
        List.of(new FailureReasons.Reason(FailureReasons.NO_REASON, 1)), byLevel.get("c2").top());
    assertEquals(
        List.of(new FailureReasons.Reason("stream cut before [DONE]: reset", 1)),
        byLevel.get("").top());
    assertTrue(byLevel.get("c8").isEmpty());
    assertEquals(0, byLevel.get("c8").failed());
  }

  @Test
  void theAnalysisCarriesEachLevelsReasonsWarmupLeftOut() {
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(TestRecords.failed("warmup", "HTTP 503: loading").build());
    rs.add(TestRecords.ok("c2").build());
    rs.addAll(failures("c2", CONTEXT, 2));
    RunAnalysis a = RunAnalysis.of(RunAnalysis.Inputs.builder(rs).rooflineHint("hint").build());
    assertEquals(List.of("c2"), List.copyOf(a.levels().keySet()));
    assertEquals(
        List.of(new FailureReasons.Reason(CONTEXT, 2)), a.levels().get("c2").failures().top());
  }
}
