package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SettingsTable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The lasting per-process speed factor ({@code -Dsim.process.sd}, {@code --process-sd}): its draws
 * over many starts, its repeatability, the step times it scales, and the knob's words.
 */
class SimProcessOffsetTest {

  private static final long MS = 1_000_000L;

  /**
   * The standard normal's 99.95% quantile: a two-sided 99.9% interval, so a sound test rarely
   * trips.
   */
  private static final double Z_999 = 3.2905;

  /**
   * The chi-square's quantile with {@code k} df where the standard normal's is {@code z}
   * (Wilson-Hilferty: within 0.1% at k in the hundreds).
   */
  private static double chiSquareQuantile(double z, int k) {
    double c = 2.0 / (9.0 * k);
    return k * Math.pow(1 - c + z * Math.sqrt(c), 3);
  }

  @Test
  void startsDrawLogFactorsOfTheKnobsSdAndMeanZero() {
    int starts = 400;
    for (double sd : List.of(0.04, 0.3)) {
      double[] logs = new double[starts];
      for (int i = 0; i < starts; i++) {
        logs[i] = Math.log(new SimNoise(0, 1, sd, 5_000 + i).processFactor());
      }
      double mean = 0;
      for (double l : logs) {
        mean += l;
      }
      mean /= starts;
      double ss = 0;
      for (double l : logs) {
        ss += (l - mean) * (l - mean);
      }
      double sampleSd = Math.sqrt(ss / (starts - 1));
      // (n - 1) s^2 / sd^2 is chi-square with n - 1 df: s lies in this interval 99.9% of the time
      int df = starts - 1;
      double low = sd * Math.sqrt(chiSquareQuantile(-Z_999, df) / df);
      double high = sd * Math.sqrt(chiSquareQuantile(Z_999, df) / df);
      double meanBound = Z_999 * sd / Math.sqrt(starts);
      System.out.printf(
          Locale.ROOT,
          "sim.process.sd %.2f over %d starts: log factors' sd %.4f (99.9%% chi-square interval"
              + " %.4f-%.4f), mean %+.4f (bound +-%.4f)%n",
          sd,
          starts,
          sampleSd,
          low,
          high,
          mean,
          meanBound);
      assertTrue(sampleSd >= low && sampleSd <= high, "sd " + sampleSd + " at " + sd);
      assertTrue(Math.abs(mean) <= meanBound, "mean " + mean + " at " + sd);
    }
  }

  @Test
  void noOffsetIsExactlyOneAndLeavesTheStepTimesBitForBit() {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      long seed = rnd.nextLong();
      assertEquals(1.0, new SimNoise(0, 1, 0, seed).processFactor(), 0.0);
      assertEquals(1.0, SimNoise.processFactor(0, seed), 0.0);
      SimNoise.Steps s = new SimNoise(0, 1, 0, seed).steps();
      long d = 1 + rnd.nextLong(10_000_000_000L);
      assertEquals(d, s.apply(d, i * 40 * MS));
    }
    assertTrue(new SimNoise(0, 1, 0, 42).off());
    assertTrue(!new SimNoise(0, 1, 0.04, 42).off(), "an offset changes the step times");
    assertEquals(new SimNoise(0.1, 1.1, 0, 9), new SimNoise(0.1, 1.1, 9), "none by default");
  }

  @Test
  void theSameSeedDrawsTheSameFactorAndAnotherSeedAnother() {
    double f = new SimNoise(0, 1, 0.04, 42).processFactor();
    assertEquals(f, new SimNoise(0.1, 1.5, 0.04, 42).processFactor(), 0.0, "noise or slowdown");
    assertEquals(f, SimNoise.processFactor(0.04, 42), 0.0);
    assertNotEquals(f, new SimNoise(0, 1, 0.04, 43).processFactor(), "another seed");
    assertNotEquals(1.0, f);
    // the factor's Z does not depend on the sd: a larger sd scales the same draw's log
    assertEquals(2 * Math.log(f), Math.log(new SimNoise(0, 1, 0.08, 42).processFactor()), 1e-12);
  }

  /**
   * Every step the scheduler prices is multiplied by the start's factor, with the slowdown and
   * without noise exactly, with noise on average: the engine's step times, not a clock.
   */
  @Test
  void everyStepTheCostModelPricesIsScaledByTheFactor() {
    SimNoise offset = new SimNoise(0, 1.1, 0.2, 17);
    double factor = offset.processFactor();
    SimNoise.Steps steps = offset.steps();
    long[] priced = new long[1];
    long[] scheduled = new long[1];
    SimNoiseTest.schedulerRun(
        (d, now) -> {
          long applied = steps.apply(d, now);
          assertEquals(Math.round(d * (1.1 * factor)), applied); // as Steps groups it
          priced[0] += d;
          scheduled[0] += applied;
          return applied;
        });
    System.out.printf(
        Locale.ROOT,
        "process speed factor %.4f (sd 0.2, seed 17) x slowdown 1.1: the steps' total %.1f ->"
            + " %.1f ms (x %.4f)%n",
        factor,
        priced[0] / 1e6,
        scheduled[0] / 1e6,
        (double) scheduled[0] / priced[0]);
    assertEquals(1.1 * factor, (double) scheduled[0] / priced[0], 1e-6);
    // with noise, the factor scales the steps' mean factor (200,000 steps: 1,600 drift times)
    SimNoise.Steps noisy = new SimNoise(0.1, 1, 0.2, 17).steps();
    double sum = 0;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      sum += noisy.factor(i * 40 * MS);
    }
    assertEquals(factor, sum / n, 0.01 * factor);
  }

  /**
   * A live simulator whose start drew a slow factor schedules each token at least that many steps'
   * time after the one before (the engine's ITL metric: the scheduled ends, not a client's clock),
   * and says the factor it drew from its own config, as its settings line does.
   */
  @Test
  void aLiveEngineSchedulesItsStepsAtTheFactorItDrew() throws Exception {
    long seed = 0;
    while (SimNoise.processFactor(0.3, seed) < 1.3) {
      seed++;
    }
    double step = TimingTest.leastDecodeStepMs("sim-tiny", "rtx4090");
    SimulatorConfig config =
        SimulatorConfig.defaults()
            .withModel("sim-tiny")
            .withGpu("rtx4090")
            .withNoise(new SimNoise(0, 1, 0.3, seed));
    try (VllmSimulator sim = VllmSimulator.start(config)) {
      double factor = sim.config().noise().processFactor();
      new SimClient(sim)
          .stream(
              "/v1/chat/completions",
              "{\"messages\":[{\"role\":\"user\",\"content\":\"Tell me about GPUs.\"}],"
                  + "\"max_tokens\":50,\"stream\":true}",
              new long[1]);
      double gap = TimingTest.scheduledMeanGapMs(sim);
      System.out.printf(
          Locale.ROOT,
          "seed %d drew process speed factor %.4f: a step %.3f ms, scheduled gaps %.3f ms (x %.3f)%n",
          seed,
          factor,
          step,
          gap,
          gap / step);
      assertEquals(SimNoise.processFactor(0.3, seed), factor, 0.0);
      assertTrue(factor >= 1.3);
      assertTrue(gap >= factor * step * (1 - 1e-9), "scheduled " + gap + " ms, factor " + factor);
    }
  }

  @Test
  void theSettingsLineAndTheListeningLineSayTheFactorAndWhereItComesFrom() {
    SimulatorConfig c =
        BenchSettings.from(Map.of("sim.process.sd", "0.04"), k -> null).simulator().config();
    assertEquals(0.04, c.get(SimKnobs.PROCESS_SD), 0.0);
    String factor = String.format(Locale.ROOT, "%.4f", SimNoise.processFactor(0.04, 7));
    assertEquals(
        "0.04 (process speed factor "
            + factor
            + ": every engine step x this for the process's life, drawn as exp(N(0, 0.04)) from"
            + " seed 7)",
        BenchSettings.from(Map.of("sim.process.sd", "0.04"), k -> null)
            .simulator()
            .lines(7)
            .get("sim.process.sd"));
    assertTrue(
        BenchSettings.from(Map.of(), k -> null).simulator().lines(7).get("sim.process.sd") == null,
        "no line at the default");
    SimNoise n =
        VllmSimulatorMain.parse(new String[] {"--process-sd", "0.04", "--seed", "7"}).noise();
    assertEquals(
        ", process speed factor " + factor + " (--process-sd 0.04, seed 7)",
        VllmSimulatorMain.noiseWords(n));
    // no seed given: a fresh one per start, as the noise's
    assertTrue(VllmSimulatorMain.parse(new String[] {"--process-sd", "0.04"}).noise().seed() != 0);
  }

  @Test
  void badValuesAreRefusedInOneLineNamingTheKnob() {
    for (String v : List.of("-0.01", "1", "1.5", "abc", "NaN", "Infinity")) {
      String kit =
          assertThrows(
                  SettingsException.class,
                  () -> BenchSettings.from(Map.of("sim.process.sd", v), k -> null))
              .getMessage();
      assertEquals(
          "Invalid -Dsim.process.sd="
              + v
              + ": expected a number from 0, below 1 (a log sd: 0.04 is about 4%)",
          kit);
      String cli =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> VllmSimulatorMain.parse(new String[] {"--process-sd", v}))
              .getMessage();
      assertEquals(
          "--process-sd: '"
              + v
              + "' is invalid (accepted: a number from 0, below 1 (a log sd: 0.04 is about 4%))",
          cli);
    }
    for (double v : List.of(-0.01, 1.0, Double.NaN)) {
      assertThrows(IllegalArgumentException.class, () -> new SimNoise(0, 1, v, 0));
    }
    assertEquals(
        0.999,
        BenchSettings.from(Map.of("sim.process.sd", "0.999"), k -> null)
            .simulator()
            .config()
            .get(SimKnobs.PROCESS_SD),
        0.0);
    String help = SettingsTable.help("sim");
    assertTrue(help.contains("-Dsim.process.sd"), help);
    assertTrue(VllmSimulatorMain.usage().contains("--process-sd"));
  }
}
