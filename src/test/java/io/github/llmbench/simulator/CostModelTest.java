package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import org.junit.jupiter.api.Test;

/** What the step-time model charges for, and the request path before the engine's queue. */
class CostModelTest {

  private static final ModelSpec QWEN = Catalog.model("qwen2.5-7b-instruct");
  private static final GpuSpec RTX4080 = Catalog.gpu("rtx4080-32gb");
  private static final EngineCalibration CAL = EngineCalibration.DEFAULT;

  private static double computeRate() {
    return RTX4080.peakDenseBf16Flops() * CAL.computeEfficiency();
  }

  @Test
  void theLmHeadRunsOnlyWhereATokenIsSampled() {
    CostModel cm = new CostModel(QWEN, RTX4080, 1);
    CostModel.Step chunk = cm.new Step();
    chunk.add(0, 1024, false); // a prefill chunk that does not end the prompt: no logits
    CostModel.Step last = cm.new Step();
    last.add(0, 1024, true); // the prompt's last chunk: logits for its last token
    double lmHeadNanos = 2.0 * QWEN.vocabSize() * QWEN.hiddenSize() / computeRate() * 1e9;
    assertEquals(lmHeadNanos, last.durationNanos() - chunk.durationNanos(), 2);
    // and the 1,024 prompt tokens pay only for the layers: 2 x (params - embedding - lm_head) each
    double layers = 2.0 * (QWEN.parameters() - 2.0 * QWEN.vocabSize() * QWEN.hiddenSize());
    double gemmNanos = 1024 * layers / computeRate() * 1e9;
    assertTrue(
        chunk.durationNanos() > gemmNanos && chunk.durationNanos() < gemmNanos * 1.05,
        chunk.durationNanos() + " ns vs GEMMs alone " + gemmNanos);
  }

  @Test
  void kvCacheReadsAreNotHiddenUnderAComputeBoundStep() {
    // 200 decodes beside a 1,024-token prefill: the step is compute bound, yet reading 200 long
    // contexts from the KV cache takes its own time (attention kernels run apart from the GEMMs)
    CostModel cm = new CostModel(QWEN, RTX4080, 1);
    CostModel.Step shortCtx = cm.new Step();
    CostModel.Step longCtx = cm.new Step();
    shortCtx.add(0, 1024, true);
    longCtx.add(0, 1024, true);
    for (int i = 0; i < 200; i++) {
      shortCtx.add(1, 1, true);
      longCtx.add(2000, 1, true);
    }
    double extraKvBytes = 200.0 * 1999 * QWEN.kvBytesPerToken();
    double kvReadNanos = extraKvBytes / (RTX4080.memoryBandwidth() * CAL.memoryEfficiency()) * 1e9;
    long delta = longCtx.durationNanos() - shortCtx.durationNanos();
    assertEquals(
        kvReadNanos,
        delta,
        0.15 * kvReadNanos,
        "extra step time for 200 x 1,999 more context tokens");
  }

  @Test
  void aRequestReachesTheEngineARequestPathAfterItArrives() {
    CostModel cm = new CostModel(Catalog.model("sim-tiny"), Catalog.gpu("rtx4090"), 1);
    long path = cm.requestPathNanos();
    assertEquals((long) (CAL.requestPathSeconds() * 1e9), path);
    assertTrue(path > 0);
    Scheduler s = new Scheduler(cm, 256, 2048, new SimMetrics());
    s.add(new SimRequest(100, 4, null, new long[0], 1_000));
    assertFalse(s.schedule(1_000), "not schedulable on arrival");
    assertEquals(1_000 + path, s.nextReadyNanos());
    assertFalse(s.schedule(1_000 + path - 1));
    assertTrue(s.schedule(1_000 + path));
    assertEquals(Long.MAX_VALUE, s.nextReadyNanos());
  }

  @Test
  void theVirtualClockWaitsForTheRequestPath() {
    // one request at a time: TTFT = the request path + the prefill step, never less
    SimulatorConfig c = SimulatorConfig.defaults();
    EngineModel em = EngineModel.of(c);
    EngineModel.Level l = em.closedLoop(1, 5, 1024, 16, 1);
    CostModel cm = em.costModel();
    CostModel.Step prefill = cm.new Step();
    prefill.add(0, 1024, true);
    double expectedMs = (cm.requestPathNanos() + prefill.durationNanos()) / 1e6;
    assertEquals(expectedMs, l.meanTtftMs(), 0.01 * expectedMs);
  }
}
