package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.EngineCalibration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The scheduler in virtual time: vLLM V1's invariants, KV capacity and preemption, prefix caching.
 */
class SchedulerTest {

  private static SimRequest req(SplittableRandom rnd, int prompt, int out, long now) {
    int[] t = new int[prompt];
    for (int i = 0; i < prompt; i++) {
      t[i] = rnd.nextInt(30_000);
    }
    return new SimRequest(prompt, out, null, SimRequest.hashBlocks(t, prompt, 16), now);
  }

  /** Runs requests to completion, checking each step's invariants; returns the scheduler. */
  private static Scheduler runAll(CostModel cost, int maxSeqs, int budget, List<SimRequest> reqs) {
    Scheduler s = new Scheduler(cost, maxSeqs, budget, new SimMetrics());
    reqs.forEach(s::add);
    long now = cost.requestPathNanos(); // they arrived at 0: all have reached the engine
    int steps = 0;
    while (!s.idle()) {
      assertTrue(s.schedule(now), "a step is always schedulable");
      int tokens = 0;
      Set<SimRequest> seen = new HashSet<>();
      for (SimRequest r : s.scheduled()) {
        tokens += r.scheduledThisStep;
        assertTrue(r.scheduledThisStep > 0);
        assertTrue(seen.add(r), "a request at most once per step");
        assertTrue(r.computed + r.scheduledThisStep <= r.numTokens());
      }
      assertTrue(tokens <= budget, "token budget " + tokens + " > " + budget);
      assertTrue(s.runningCount() <= maxSeqs, "max_num_seqs");
      assertTrue(s.kv().freeBlocks() >= 0);
      long end = now + s.durationNanos();
      s.complete(end, (r, k, t) -> assertEquals(r.generated - 1, k));
      now = end;
      assertTrue(++steps < 1_000_000);
    }
    assertEquals(s.kv().numBlocks(), s.kv().freeBlocks(), "every block is free again");
    return s;
  }

  @Test
  void budgetMaxNumSeqsAndEveryRequestCompletes() {
    CostModel cost = new CostModel(Catalog.model("sim-tiny"), Catalog.gpu("rtx4090"), 1);
    SplittableRandom rnd = new SplittableRandom(1);
    List<SimRequest> reqs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      reqs.add(req(rnd, 50 + rnd.nextInt(900), 1 + rnd.nextInt(60), 0));
    }
    Scheduler s = runAll(cost, 16, 512, reqs);
    for (SimRequest r : reqs) {
      assertEquals(r.maxTokens, r.generated);
      assertTrue(r.firstTokenNanos >= r.firstScheduledNanos);
    }
    assertEquals(0, s.preemptions());
  }

  @Test
  void aFullKvCachePreemptsTheNewestAndRecomputesIt() {
    // gpu_memory_utilization chosen so that the cache holds ~200 blocks: 12 requests of 500 + 100
    // tokens
    // (38 blocks each at the end) cannot all run at once.
    CostModel base =
        new CostModel(
            Catalog.model("sim-tiny"), Catalog.gpu("rtx4090"), 1, 0.9, EngineCalibration.DEFAULT);
    long blockBytes = (long) 16 * Catalog.model("sim-tiny").kvBytesPerToken();
    long reserve =
        (long) (Catalog.gpu("rtx4090").memoryBytes() * 0.9)
            - Catalog.model("sim-tiny").weightBytes()
            - 200 * blockBytes;
    CostModel small =
        new CostModel(
            Catalog.model("sim-tiny"),
            Catalog.gpu("rtx4090"),
            1,
            0.9,
            EngineCalibration.DEFAULT.withActivationReserveBytes(reserve));
    assertTrue(base.kvBlocks() > 10_000);
    assertTrue(small.kvBlocks() >= 199 && small.kvBlocks() <= 201, "blocks " + small.kvBlocks());
    SplittableRandom rnd = new SplittableRandom(2);
    List<SimRequest> reqs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      reqs.add(req(rnd, 500, 100, 0));
    }
    Scheduler s = runAll(small, 256, 2048, reqs);
    assertTrue(s.preemptions() > 0, "preemptions");
    int preempted = 0;
    for (SimRequest r : reqs) {
      assertEquals(100, r.generated, "a preempted request still completes (recomputed)");
      preempted += r.preemptions > 0 ? 1 : 0;
    }
    assertTrue(preempted > 0);
  }

  @Test
  void aRepeatedPromptHitsThePrefixCache() {
    CostModel cost =
        new CostModel(Catalog.model("qwen2.5-7b-instruct"), Catalog.gpu("rtx4080-32gb"), 1);
    SimMetrics m = new SimMetrics();
    Scheduler s = new Scheduler(cost, 256, 2048, m);
    SplittableRandom rnd = new SplittableRandom(3);
    int[] t = new int[1024];
    for (int i = 0; i < t.length; i++) {
      t[i] = rnd.nextInt(30_000);
    }
    long[] ttft = new long[2];
    long now = 0;
    for (int round = 0; round < 2; round++) {
      SimRequest r = new SimRequest(1024, 4, null, SimRequest.hashBlocks(t, 1024, 16), now);
      s.add(r);
      while (!s.idle()) {
        if (!s.schedule(now)) {
          now = s.nextReadyNanos(); // on its request path
          continue;
        }
        long end = now + s.durationNanos();
        s.complete(end, (x, k, e) -> {});
        now = end;
      }
      ttft[round] =
          r.firstTokenNanos - r.readyNanos; // the engine's share (the request path is fixed)
      if (round == 1) {
        assertEquals(
            1008, r.cachedPromptTokens, "63 of 64 blocks cached (the last token is recomputed)");
      }
    }
    assertTrue(ttft[1] < ttft[0] / 5, "TTFT " + ttft[0] + " -> " + ttft[1]);
    assertEquals(2048, m.prefixQueries());
    assertEquals(1008, m.prefixHits());
  }

  @Test
  void virtualLadderKeepsTheSeedShape() {
    EngineModel em = EngineModel.of(SimulatorConfig.defaults());
    EngineModel.Level c1 = em.closedLoop(1, 20, 1024, 128, 1);
    assertEquals(25, c1.meanTpotMs(), 2.5);
    EngineModel.Level c128 = em.closedLoop(128, 500, 1024, 128, 2);
    EngineModel.Level c200 = em.closedLoop(200, 500, 1024, 128, 3);
    assertEquals(163, c128.meanTpotMs(), 16.3);
    assertEquals(0, c128.preemptions());
    assertTrue(c200.preemptions() > 0, "KV capacity: preemptions at C=200");
    EngineModel.Level tp2 =
        EngineModel.of(SimulatorConfig.defaults().withTp(2)).closedLoop(1, 20, 1024, 128, 4);
    assertEquals(12.07, tp2.meanTpotMs(), 1.21);
  }

  @Test
  void replayedLadderHitsThePrefixCacheOnlyWhenTheListFits() {
    EngineModel em = EngineModel.of(SimulatorConfig.defaults());
    // 40 prompts (2,880 blocks) fit the ~13,400-block cache: the second level finds them all
    List<EngineModel.Level> small =
        em.replayLadder(new int[] {8, 16}, new int[] {40, 40}, 1024, 128, 0);
    assertEquals(0, small.get(0).prefixHitRate(), 1e-9);
    assertEquals(63.0 / 64, small.get(1).prefixHitRate(), 1e-9, "63 of 64 blocks of every prompt");
    assertTrue(small.get(1).meanTtftMs() < small.get(0).meanTtftMs() / 3);
    // the seed's 300 prompts (21,600 blocks with their outputs) do not: LRU eviction of a cyclic
    // list larger than the cache leaves nothing for the next level
    List<EngineModel.Level> seed =
        em.replayLadder(new int[] {8, 16}, new int[] {300, 300}, 1024, 128, 0);
    assertEquals(0, seed.get(1).prefixHitRate(), 1e-9);
  }

  @Test
  void perSequenceOverheadLengthensTheStep() {
    CostModel base = new CostModel(Catalog.model("sim-tiny"), Catalog.gpu("rtx4090"), 1);
    EngineCalibration cal = EngineCalibration.DEFAULT.withStepOverheadPerSeqSeconds(100e-6);
    CostModel withSeq =
        new CostModel(Catalog.model("sim-tiny"), Catalog.gpu("rtx4090"), 1, 0.9, cal);
    CostModel.Step a = base.new Step();
    CostModel.Step b = withSeq.new Step();
    for (int i = 0; i < 10; i++) {
      a.add(1000, 1, true);
      b.add(1000, 1, true);
    }
    assertEquals(1_000_000, b.durationNanos() - a.durationNanos(), 2);
  }
}
