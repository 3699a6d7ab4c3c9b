package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ServerSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnergyFiguresTest {
  private static final String DCGM = "http://127.0.0.1:9400/metrics";

  private static ServerSample gpu(long t, String name, int gpu, double v, boolean simulated) {
    Map<String, String> labels =
        simulated
            ? Map.of("gpu", String.valueOf(gpu), "simulated", "true")
            : Map.of("gpu", String.valueOf(gpu));
    return new ServerSample(t, DCGM, name, labels, v);
  }

  /**
   * Two GPUs scraped every second from 0 to 12 s, GPU 0 at 300 W and GPU 1 at 500 W; the energy
   * counter (mJ) follows, unless {@code withCounter} is false.
   */
  private static ServerFigures.Series twoGpus(boolean withCounter, boolean simulated) {
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 12_000; t += 1000) {
      s.add(gpu(t, EnergyFigures.POWER, 0, 300, simulated));
      s.add(gpu(t, EnergyFigures.POWER, 1, 500, simulated));
      if (withCounter) {
        s.add(gpu(t, EnergyFigures.ENERGY, 0, 1e6 + 300 * t, simulated));
        s.add(gpu(t, EnergyFigures.ENERGY, 1, 2e6 + 500 * t, simulated));
      }
    }
    return ServerFigures.Series.of(s, null);
  }

  @Test
  void theCounterGivesTheLevelsJoulesOverEveryGpu() {
    // level 1-11 s: 10 s x (300 + 500) W = 8000 J for 4000 tokens
    EnergyFigures e = EnergyFigures.of(twoGpus(true, false), 1000, 11_000, 4000, 3000, 9000, 1000);
    assertEquals(EnergyFigures.Source.ENERGY_COUNTER, e.source());
    assertEquals(8000, e.joules(), 1e-6);
    assertEquals(10, e.seconds(), 1e-9);
    assertEquals(2, e.gpus());
    assertEquals(2.0, e.joulesPerOutputToken(), 1e-9);
    assertEquals(400, e.wattsPerGpu(), 1e-9);
    assertEquals(4000 / (8000 / 3.6e6), e.outputTokensPerKwh(), 1e-3);
    assertFalse(e.simulated());
  }

  @Test
  void aLevelBetweenScrapesTakesTheScrapesAroundIt() {
    // 1.5-10.5 s: the counter's scrapes at 1 s and 11 s bound it
    EnergyFigures e = EnergyFigures.of(twoGpus(true, false), 1500, 10_500, 1000, 0, 0, 0);
    assertEquals(10, e.seconds(), 1e-9);
    assertEquals(8000, e.joules(), 1e-6);
  }

  @Test
  void withoutTheCounterPowerIsIntegratedOverTheSteadyWindow() {
    // steady 3-9 s: 6 s x 800 W = 4800 J, at 500 tok/s: 3000 tokens
    EnergyFigures e = EnergyFigures.of(twoGpus(false, true), 1000, 11_000, 4000, 3000, 9000, 500);
    assertEquals(EnergyFigures.Source.POWER_INTEGRATED, e.source());
    assertEquals(4800, e.joules(), 1e-6);
    assertEquals(6, e.seconds(), 1e-9);
    assertEquals(3000, e.outputTokens(), 1e-9);
    assertEquals(1.6, e.joulesPerOutputToken(), 1e-9);
    assertTrue(e.simulated());
  }

  @Test
  void withoutSteadyWindowPowerIsIntegratedOverTheLevelWithItsTokens() {
    EnergyFigures e = EnergyFigures.of(twoGpus(false, false), 1000, 11_000, 4000, 0, 0, 0);
    assertEquals(8000, e.joules(), 1e-6);
    assertEquals(4000, e.outputTokens(), 1e-9);
  }

  @Test
  void aRealExportersReadingsReplaceTheSimulatorsStandIn() {
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 4000; t += 1000) {
      s.add(gpu(t, EnergyFigures.ENERGY, 0, 100 * t, true)); // 100 W, simulated
      s.add(gpu(t, EnergyFigures.ENERGY, 0, 300 * t, false)); // 300 W, measured
    }
    EnergyFigures e = EnergyFigures.of(ServerFigures.Series.of(s, null), 0, 4000, 10, 0, 0, 0);
    assertEquals(1200, e.joules(), 1e-6);
    assertEquals(1, e.gpus());
    assertFalse(e.simulated());
  }

  @Test
  void aCounterResetFallsBackToPower() {
    List<ServerSample> s = new ArrayList<>();
    for (long t = 0; t <= 4000; t += 1000) {
      s.add(gpu(t, EnergyFigures.POWER, 0, 100, false));
      s.add(gpu(t, EnergyFigures.ENERGY, 0, t < 2000 ? 5e6 : 1000, false));
    }
    EnergyFigures e = EnergyFigures.of(ServerFigures.Series.of(s, null), 0, 4000, 10, 0, 0, 0);
    assertEquals(EnergyFigures.Source.POWER_INTEGRATED, e.source());
    assertEquals(400, e.joules(), 1e-6);
  }

  @Test
  void noDcgmFigureMeansNoEnergy() {
    ServerSample running = new ServerSample(0, DCGM, "vllm:num_requests_running", Map.of(), 1);
    EnergyFigures e =
        EnergyFigures.of(ServerFigures.Series.of(List.of(running), null), 0, 1000, 10, 0, 0, 0);
    assertFalse(e.measured());
    assertTrue(Double.isNaN(e.joulesPerOutputToken()));
    assertTrue(Double.isNaN(e.wattsPerGpu()));
  }
}
