package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SettingsTable;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The step factors of {@link SimNoise}: pure and deterministic given the seed and the steps' start
 * times, so their statistics are tested directly.
 */
class SimNoiseTest {

  private static final long MS = 1_000_000L;

  /** Step start times {@code stepMs} apart, from an arbitrary origin (the engine's nanoTime). */
  private static double[][] run(SimNoise n, int steps, long stepMs) {
    SimNoise.Steps s = n.steps();
    double[] factor = new double[steps];
    double[] jitter = new double[steps];
    double[] drift = new double[steps];
    long t = 123_456_789_000L;
    for (int i = 0; i < steps; i++, t += stepMs * MS) {
      factor[i] = s.factor(t);
      jitter[i] = s.jitter();
      drift[i] = s.drift();
    }
    return new double[][] {factor, jitter, drift};
  }

  private static double mean(double[] x) {
    double sum = 0;
    for (double v : x) {
      sum += v;
    }
    return sum / x.length;
  }

  private static double cv(double[] x) {
    double m = mean(x);
    double ss = 0;
    for (double v : x) {
      ss += (v - m) * (v - m);
    }
    return Math.sqrt(ss / (x.length - 1)) / m;
  }

  /** Autocorrelation of {@code log x} at {@code lag} samples. */
  private static double autocorrelation(double[] x, int lag) {
    double[] l = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      l[i] = Math.log(x[i]);
    }
    double m = mean(l);
    double num = 0;
    double den = 0;
    for (int i = 0; i < l.length; i++) {
      den += (l[i] - m) * (l[i] - m);
      if (i + lag < l.length) {
        num += (l[i] - m) * (l[i + lag] - m);
      }
    }
    return num / den;
  }

  @Test
  void noNoiseLeavesTodaysStepTimesBitForBit() {
    assertSame(SimNoise.NONE, SimulatorConfig.defaults().noise(), "none by default");
    assertTrue(SimNoise.NONE.off());
    assertTrue(new SimNoise(0, 1, 42).off(), "a seed alone changes nothing");
    // the cost model's step times of a scheduler run, with and without SimNoise.NONE: identical
    SimNoise.Steps none = SimNoise.NONE.steps();
    SimNoise.Steps seeded = new SimNoise(0, 1, 7).steps();
    int steps =
        schedulerRun(
            (d, now) -> {
              assertEquals(d, none.apply(d, now));
              assertEquals(d, seeded.apply(d, now));
              return d;
            });
    assertTrue(steps > 20, "steps " + steps);
    SimNoise.Steps s = SimNoise.NONE.steps();
    SplittableRandom rnd = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      long d = 1 + rnd.nextLong(Long.MAX_VALUE / 2);
      assertEquals(d, s.apply(d, rnd.nextLong()));
    }
    assertEquals(1.0, s.factor(5), 0.0);
  }

  /**
   * Runs 40 requests of the default model through the scheduler in virtual time, each step taking
   * what {@code stepTime} makes of the cost model's duration at its start; the steps run.
   */
  static int schedulerRun(LongBinaryOperator stepTime) {
    CostModel cost =
        new CostModel(Catalog.model("qwen2.5-7b-instruct"), Catalog.gpu("rtx4080-32gb"), 1);
    Scheduler sch = new Scheduler(cost, 256, 2048, new SimMetrics());
    for (int i = 0; i < 40; i++) {
      sch.add(request(i, 300 + 37 * i, 20));
    }
    long now = 1_000_000_000L;
    int steps = 0;
    while (!sch.idle()) {
      if (!sch.schedule(now)) {
        now += MS;
        continue;
      }
      now += stepTime.applyAsLong(sch.durationNanos(), now);
      sch.complete(now, (r, k, end) -> {});
      steps++;
    }
    return steps;
  }

  /** A request whose prompt has blocks of its own: no prefix hits. */
  static SimRequest request(int i, int promptTokens, int maxTokens) {
    long[] hashes = new long[promptTokens / 16];
    for (int j = 0; j < hashes.length; j++) {
      hashes[j] = i * 1_000_003L + j; // unique: no prefix hits
    }
    return new SimRequest(promptTokens, maxTokens, null, hashes, 0);
  }

  @Test
  void slowdownMultipliesTheStepTimeExactly() {
    SimNoise.Steps s = new SimNoise(0, 1.10, 99).steps();
    SplittableRandom rnd = new SplittableRandom(2);
    for (int i = 0; i < 10_000; i++) {
      long d = 1 + rnd.nextLong(10_000_000_000L);
      assertEquals(Math.round(d * 1.10), s.apply(d, i * 40 * MS));
    }
    assertEquals(50_000_000L, new SimNoise(0, 2, 0).steps().apply(25_000_000L, 0));
    assertEquals(1.10, s.factor(0), 0.0);
    // with noise, the slowdown scales the mean factor
    double[] f = run(new SimNoise(0.1, 1.10, 5), 200_000, 40)[0];
    assertEquals(1.10, mean(f), 0.01 * 1.10);
  }

  @Test
  void noiseHasTheAskedCvAndMeanOne() {
    for (double cv : List.of(0.05, 0.1, 0.3)) {
      // 200,000 steps of 40 ms: 8,000 s, 1,600 drift correlation times
      double[][] r = run(new SimNoise(cv, 1, 11), 200_000, 40);
      double total = Math.sqrt((1 + cv * cv) * (1 + cv * cv / 4) - 1);
      assertEquals(1, mean(r[0]), 0.01, "mean factor at cv " + cv);
      assertEquals(total, cv(r[0]), 0.05 * total, "total CV at cv " + cv);
      assertEquals(1, mean(r[1]), 0.005, "mean jitter at cv " + cv);
      assertEquals(cv, cv(r[1]), 0.03 * cv, "jitter CV at cv " + cv);
      assertEquals(1, mean(r[2]), 0.01, "mean drift at cv " + cv);
      assertEquals(cv / 2, cv(r[2]), 0.1 * cv / 2, "drift CV at cv " + cv);
      for (double x : r[0]) {
        assertTrue(x > 0, "positive");
      }
    }
  }

  @Test
  void driftCorrelationTimeIsAboutFiveSecondsWhateverTheStepLength() {
    for (long stepMs : List.of(10L, 40L, 250L)) {
      int perSecond = (int) (1000 / stepMs);
      double[] drift = run(new SimNoise(0.1, 1, 3), 4000 * perSecond, stepMs)[2];
      double at1 = autocorrelation(drift, perSecond);
      double at5 = autocorrelation(drift, 5 * perSecond);
      assertEquals(Math.exp(-1 / 5.0), at1, 0.05, "autocorrelation at 1 s, steps of " + stepMs);
      assertEquals(Math.exp(-1), at5, 0.08, "autocorrelation at 5 s, steps of " + stepMs);
      double tau = -5 / Math.log(at5);
      assertTrue(tau > 4 && tau < 6.25, "correlation time " + tau + " s, steps of " + stepMs);
      // the jitter, in contrast, is drawn afresh every step
      double[] jitter = run(new SimNoise(0.1, 1, 3), 4000 * perSecond, stepMs)[1];
      assertEquals(0, autocorrelation(jitter, 1), 0.02);
    }
  }

  @Test
  void runsDifferFromEachOtherThroughTheDrift() {
    // 20 s runs (500 steps of 40 ms) with fresh seeds: their mean factors spread by about
    // the drift's CV x sqrt(its share over 20 s); the jitter alone would average out to ~0.5%
    double[] means = new double[200];
    for (int i = 0; i < means.length; i++) {
      means[i] = mean(run(new SimNoise(0.1, 1, 1000 + i), 500, 40)[0]);
    }
    double between = cv(means);
    assertTrue(between > 0.02 && between < 0.045, "CV between runs " + between);
    assertEquals(1, mean(means), 0.01);
  }

  @Test
  void sameSeedSameSequence() {
    SimNoise n = new SimNoise(0.1, 1.05, 42);
    double[] a = run(n, 5_000, 40)[0];
    assertArrayEquals(a, run(n, 5_000, 40)[0], 0.0);
    assertArrayEquals(a, run(new SimNoise(0.1, 1.05, 42), 5_000, 40)[0], 0.0);
    assertFalse(
        java.util.Arrays.equals(a, run(new SimNoise(0.1, 1.05, 43), 5_000, 40)[0]),
        "another seed, other factors");
    SimNoise.Steps s1 = n.steps();
    SimNoise.Steps s2 = n.steps();
    for (int i = 0; i < 1000; i++) {
      assertEquals(s1.apply(30 * MS, i * 30 * MS), s2.apply(30 * MS, i * 30 * MS));
    }
    assertNotEquals(SimNoise.NONE, n);
  }

  @Test
  void badValuesAreRefusedInOneLine() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new SimNoise(-0.1, 1, 0))
            .getMessage()
            .startsWith("noise -0.1 is invalid (accepted: a number from 0 to 1"));
    assertThrows(IllegalArgumentException.class, () -> new SimNoise(Double.NaN, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new SimNoise(1.5, 1, 0));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new SimNoise(0, 0, 0))
            .getMessage()
            .startsWith("slowdown 0.0 is invalid (accepted: a number above 0"));
    assertThrows(IllegalArgumentException.class, () -> new SimNoise(0, 101, 0));
    assertThrows(
        IllegalArgumentException.class, () -> new SimNoise(0, Double.POSITIVE_INFINITY, 0));
  }

  @Test
  void theKitsSettingsAcceptWhatTheSimulatorAccepts() {
    for (String v : List.of("0", "0.1", "1", "-0.01", "1.01", "abc", "NaN")) {
      boolean kit =
          accepts(
              () -> SettingsTable.get("sim.noise").orElseThrow().parser().parse("sim.noise", v));
      boolean sim = accepts(() -> new SimNoise(Double.parseDouble(v), 1, 0));
      assertEquals(sim, kit, "sim.noise=" + v);
    }
    for (String v : List.of("1", "1.1", "0.5", "100", "0", "-1", "100.5", "x", "Infinity")) {
      boolean kit =
          accepts(
              () ->
                  SettingsTable.get("sim.slowdown")
                      .orElseThrow()
                      .parser()
                      .parse("sim.slowdown", v));
      boolean sim = accepts(() -> new SimNoise(0, Double.parseDouble(v), 0));
      assertEquals(sim, kit, "sim.slowdown=" + v);
    }
  }

  private static boolean accepts(Runnable r) {
    try {
      r.run();
      return true;
    } catch (SettingsException | IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * {@code slowdown 2} schedules each live step at least twice the cost model's time after the one
   * before (the engine's ITL metric: the scheduled ends of the steps), where plain steps may be
   * scheduled less than that apart. What the engine scheduled, not the gaps a client read, which a
   * busy machine stretches (printed).
   */
  @Test
  void slowdownStretchesTheLiveSteps() throws Exception {
    double step =
        TimingTest.leastDecodeStepMs(
            SimulatorConfig.defaults().model(), SimulatorConfig.defaults().gpu());
    double[] plain = scheduledAndReadGapMs(SimNoise.NONE);
    double[] slow = scheduledAndReadGapMs(new SimNoise(0, 2, 0));
    System.out.printf(
        Locale.ROOT,
        "a step %.2f ms; scheduled gaps %.2f -> %.2f ms, read by the client %.2f -> %.2f ms%n",
        step,
        plain[0],
        slow[0],
        plain[1],
        slow[1]);
    assertTrue(
        slow[0] >= 2 * step * (1 - 1e-9), "scheduled " + slow[0] + " ms, twice a step " + 2 * step);
  }

  /** A 16-token stream's mean gap as the engine scheduled it and as the client read it, in ms. */
  private static double[] scheduledAndReadGapMs(SimNoise noise) throws Exception {
    try (VllmSimulator sim = VllmSimulator.start(SimulatorConfig.defaults().withNoise(noise))) {
      long[] sent = new long[1];
      List<SimClient.Event> ev =
          new SimClient(sim)
              .stream(
                  "/v1/chat/completions",
                  "{\"messages\":[{\"role\":\"user\",\"content\":\"Tell me about GPUs.\"}],"
                      + "\"max_tokens\":16,\"stream\":true}",
                  sent);
      return new double[] {
        TimingTest.scheduledMeanGapMs(sim), TimingTest.mean(TimingTest.gapsMs(ev))
      };
    }
  }
}
