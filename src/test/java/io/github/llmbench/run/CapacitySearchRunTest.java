package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CapacitySearchRunTest {
  private static final SloFigure P99_TTFT = new LatencyFigure(Metric.TTFT, Statistic.P99);

  private static SearchSettings search(boolean rate, double p99TtftMs, int budgetMinutes) {
    return new SearchSettings(rate, Map.of(P99_TTFT, p99TtftMs), 1, 64, 0.1, budgetMinutes);
  }

  /**
   * A drained level of {@code n} completed requests, each with this TTFT, as the run's end analyses
   * it.
   */
  private static RunAnalysis.Level level(String tag, int n, double ttftMs) {
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(TestRecords.ok(tag).start(i * 100L).end(i * 100L + 50).ttft(ttftMs).build());
    }
    return RunAnalysis.of(RunAnalysis.Inputs.builder(records).rooflineHint("hint").build())
        .levels()
        .get(tag);
  }

  @Test
  void aProbeMeetsTheObjectivesOnItsFiguresAndTheAnswerBracketsTheProbes() {
    CapacitySearchRun run = new CapacitySearchRun(search(false, 100, 30), 10, () -> 1_000);
    assertEquals(1, run.next(), "the search starts at its minimum");
    run.drained(1, level("c1", 20, 10));
    double second = run.next();
    assertTrue(second > 1, "a met probe: the search goes up, to " + second);
    run.drained(second, level("c" + (int) second, 20, 500));
    CapacitySearch.Verdict v = run.answer();
    assertEquals(2, v.probes().size());
    assertTrue(v.probes().get(0).met());
    assertFalse(v.probes().get(1).met(), "TTFT 500 ms breaks p99 <= 100");
    assertEquals(1.0, v.capacity());
    assertEquals(second, v.lowestBroken());
  }

  @Test
  void aProbeWithoutAnalysisBreaksTheObjectives() {
    CapacitySearchRun run = new CapacitySearchRun(search(true, 100, 30), 10, () -> 1_000);
    run.drained(run.next(), null); // no request of the probe finished
    assertFalse(run.answer().probes().get(0).met());
  }

  @Test
  void noProbeStartsThatWouldEndAfterTheBudget() {
    AtomicLong now = new AtomicLong(1_000);
    CapacitySearchRun run = new CapacitySearchRun(search(false, 100, 1), 20, now::get);
    double first = run.next();
    assertTrue(first > 0, "the first probe runs whatever the budget");
    now.addAndGet(30_000);
    run.drained(first, level("c1", 20, 10));
    assertTrue(run.next() > 0, "30 s + a 20 s probe fit in 1 min");
    now.addAndGet(15_000);
    assertEquals(0, run.next(), "45 s + a 20 s probe would not");
  }

  @Test
  void aSearchWhoseLoadWasNeverBuiltHasNoAnswer() {
    assertTrue(new CapacitySearchRun(search(false, 100, 30), 10, () -> 1_000).verdict().isEmpty());
  }

  @Test
  void aConcurrencyProbeIsJudgedOnItsSteadyWindowARateProbeOnItsWholeLevel() {
    // c2: one long request, eight short ones beside it (the steady window, two in flight), then a
    // slow one alone
    List<RequestRecord> records = new ArrayList<>();
    records.add(TestRecords.ok("c2").start(0).end(1_000).ttft(10.0).build());
    for (int i = 1; i <= 8; i++) {
      records.add(TestRecords.ok("c2").start(i * 100L).end(i * 100L + 100).ttft(10.0).build());
    }
    records.add(TestRecords.ok("c2").start(1_500).end(1_600).ttft(900.0).build());
    RunAnalysis.Level l =
        RunAnalysis.of(
                RunAnalysis.Inputs.builder(records)
                    .concurrencyByLevel(Map.of("c2", 2))
                    .rooflineHint("hint")
                    .build())
            .levels()
            .get("c2");
    assertTrue(l.steady().reached());
    assertEquals(
        10.0,
        CapacitySearchRun.probeFigures(l, true).slo().get(P99_TTFT),
        1e-9,
        "the steady window's");
    assertTrue(
        CapacitySearchRun.probeFigures(l, false).slo().get(P99_TTFT) > 100,
        "the whole level's, the slow request in it");
  }
}
