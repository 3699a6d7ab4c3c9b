package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.GpuPower;
import io.github.llmbench.catalog.ModelSpec;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SimPowerTest {
  private static final long S = 1_000_000_000L;

  @Test
  void idleTimeDrawsTheIdlePower() {
    SimPower p = new SimPower(new GpuPower(50, 500), 1, "g", 0);
    assertEquals(100, p.joulesPerGpu(2 * S), 1e-9);
    assertEquals(50, p.watts(2 * S), 1e-9);
  }

  @Test
  void aBusyComputeBoundStepDrawsTheBoardPower() {
    SimPower p = new SimPower(new GpuPower(50, 500), 1, "g", 0);
    p.step(0, 2 * S, 2.0, 1.0);
    assertEquals(1000, p.joulesPerGpu(2 * S), 1e-9);
    // half busy, memory-bound: idle + 450 x 0.5 x 0.6
    p.step(2 * S, 3 * S, 0.5, 0.6);
    assertEquals(1000 + 50 + 450 * 0.5 * 0.6, p.joulesPerGpu(3 * S), 1e-9);
    // the reading follows the steps
    assertTrue(p.watts(3 * S) < 500 && p.watts(3 * S) > 50 + 450 * 0.3 - 1e-9);
  }

  @Test
  void rendersDcgmsNamesOncePerGpu() {
    SimPower p = new SimPower(new GpuPower(50, 500), 2, "NVIDIA \"X\"", 0);
    String text = p.render(3 * S);
    Matcher m =
        Pattern.compile(
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION\\{gpu=\"(\\d)\"[^}]*simulated=\"true\"\\} (\\d+)")
            .matcher(text);
    int gpus = 0;
    while (m.find()) {
      gpus++;
      assertEquals(150_000, Long.parseLong(m.group(2))); // 3 s at 50 W, in mJ
    }
    assertEquals(2, gpus);
    assertTrue(text.contains("# TYPE DCGM_FI_DEV_POWER_USAGE gauge"));
    assertTrue(text.contains("modelName=\"NVIDIA 'X'\""));
  }

  @Test
  void decodeIsMemoryBoundAndALongPrefillComputeBound() {
    ModelSpec m = Catalog.model("qwen2.5-7b-instruct");
    CostModel cost = new CostModel(m, Catalog.gpu("h100-sxm"), 1);
    CostModel.Step decode = cost.new Step();
    for (int i = 0; i < 8; i++) {
      decode.add(1000, 1, true);
    }
    decode.durationNanos();
    assertEquals(CostModel.MEMORY_INTENSITY, decode.intensity(), 0.1);
    CostModel.Step prefill = cost.new Step();
    prefill.add(0, 4096, true);
    prefill.durationNanos();
    assertTrue(prefill.intensity() > 0.95, "prefill intensity " + prefill.intensity());
    assertTrue(prefill.busySeconds() > decode.busySeconds());
  }
}
