package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.SequentialTest;
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateSet;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.simulator.SimNoise;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 58's E2 on synthetic pairs: interleaved A/B, as the kit judges it today ({@link
 * AbGateTrack} over {@link SequentialTest}, at the gate's defaults), takes the pairs as
 * independent, so a lasting difference between the two processes it compares reads as a change.
 * Each A/A "experiment" starts two processes of one server whose lasting speed factors are drawn as
 * the simulator's {@code -Dsim.process.sd} draws them (one seed a process), and every pair's B/A is
 * their ratio times the pair's own noise. Blocks of fresh deployments ({@code
 * -Dcandidate.serve.cmd}) turn it around: each block draws two new processes, its pairs pooled into
 * one unit, so the offsets are in the units' spread ({@link
 * #blocksOfFreshDeploymentsHoldTheFalseAlarmWithLastingProcessOffsets}).
 */
class ProcessOffsetAbTest {

  /** A/A experiments a setting: the FAIL rate's standard error about 2% at 25%. */
  private static final int EXPERIMENTS = 400;

  /**
   * A pair's own log-ratio noise: within what interleaved pairs on llama-server spread (gates.md).
   */
  private static final double PAIR_LOG_SD = 0.03;

  /** The standard normal's 99.95% quantile: a two-sided 99.9% interval for the rates. */
  private static final double Z_999 = 3.2905;

  private static final GateJudgement.Family FAMILY = GateJudgement.Family.alone(0.05);

  private static Gate tpotGate() {
    return GateSet.parse(Map.of("tpot.mean", "+10%"), "-Dgate.").gates().get(0);
  }

  /**
   * FAIL, PASS and INCONCLUSIVE shares of A/A experiments at this per-process log sd, judged at the
   * default false alarm and pairs with this power.
   */
  private static double[] aaOutcomes(double processSd, double power, long seed) {
    SplittableRandom noise = new SplittableRandom(seed);
    int maxPairs = AbSettings.AB_MAX_PAIRS.typedDefault().orElseThrow();
    int minPairs = AbSettings.AB_MIN_PAIRS.typedDefault().orElseThrow();
    GateSet.Judging judging = GateSet.Judging.DEFAULT;
    int[] counts = new int[3];
    for (int e = 0; e < EXPERIMENTS; e++) {
      // two simulators started with seeds of their own: each its lasting factor
      double a = SimNoise.processFactor(processSd, seed * 100_000 + 2L * e);
      double b = SimNoise.processFactor(processSd, seed * 100_000 + 2L * e + 1);
      AbGateTrack track =
          new AbGateTrack(
              tpotGate(),
              judging.confidence(),
              power,
              new AbSettings.Units("pair", 1, minPairs, maxPairs),
              "",
              FAMILY);
      for (int p = 0; p < maxPairs && !track.decided(); p++) {
        double pair = Math.exp(PAIR_LOG_SD * noise.nextGaussian());
        track.add(25.0 * a, 25.0 * b * pair);
      }
      tally(counts, track.decision());
    }
    return shares(counts);
  }

  /** Counts a decision: FAIL, PASS, INCONCLUSIVE in that order. */
  private static void tally(int[] counts, SequentialTest.Decision d) {
    counts[d == SequentialTest.Decision.FAIL ? 0 : d == SequentialTest.Decision.PASS ? 1 : 2]++;
  }

  /** The counts as shares of the experiments. */
  private static double[] shares(int[] counts) {
    return new double[] {
      counts[0] / (double) EXPERIMENTS,
      counts[1] / (double) EXPERIMENTS,
      counts[2] / (double) EXPERIMENTS
    };
  }

  private static double halfWidth(double rate) {
    return Z_999 * Math.sqrt(Math.max(rate * (1 - rate), 0.05 * 0.95) / EXPERIMENTS);
  }

  /**
   * At the kit's default power (0.9) and at the (0.95), with the A/A's two process offsets
   * of log sd 0, 0.03, 0.04 and 0.05 (printed); asserted: no offset holds the design's 5%, an
   * offset of 0.05 at the defaults is far above it.
   */
  @Test
  void todaysPairDesignFailsAaWithLastingProcessOffsets() {
    double[] at = null;
    for (double power : List.of(GateSet.Judging.DEFAULT.power(), 0.95)) {
      for (double sd : List.of(0.0, 0.03, 0.04, 0.05)) {
        double[] r = aaOutcomes(sd, power, 58);
        print(power, sd, r);
        if (sd == 0.0) {
          assertTrue(r[0] <= 0.05 + halfWidth(0.05), "without an offset the design holds: " + r[0]);
        }
        if (sd == 0.05 && power == GateSet.Judging.DEFAULT.power()) {
          at = r;
        }
      }
    }
    // the simulation: about 25% at 0.05 and power 0.95; far above the design's 5% either
    // way
    assertTrue(at[0] - halfWidth(at[0]) > 0.05, "A/A FAIL " + at[0] + " at process log sd 0.05");
    assertTrue(at[0] >= 0.15, "A/A FAIL " + at[0] + " at process log sd 0.05");
  }

  private static void print(double power, double sd, double[] r) {
    System.out.printf(
        Locale.ROOT,
        "A/A, interleaved pairs (tpot.mean +10%%, false alarm 5%%, power %.2f, %d-%d pairs, pair"
            + " log sd %.2f), process log sd %.2f: FAIL %.3f (+-%.3f), PASS %.3f, INCONCLUSIVE"
            + " %.3f over %d experiments%n",
        power,
        AbSettings.AB_MIN_PAIRS.typedDefault().orElseThrow(),
        AbSettings.AB_MAX_PAIRS.typedDefault().orElseThrow(),
        PAIR_LOG_SD,
        sd,
        r[0],
        halfWidth(r[0]),
        r[1],
        r[2],
        EXPERIMENTS);
  }

  /**
   * A/A and +10% outcomes of the block design at the settings' defaults ({@code ab.block.pairs} 2,
   * {@code ab.max.blocks} 10): each block two processes with factors drawn as {@code
   * -Dsim.process.sd} draws them, each of its pairs the pair noise, the block's figure on each side
   * its pairs' pooled (geometric mean), judged by {@link AbGateTrack} with the block as its unit.
   *
   * @param change B's true slowdown, 1 for A/A
   */
  private static double[] blockOutcomes(double processSd, double change, long seed) {
    SplittableRandom noise = new SplittableRandom(seed);
    int perBlock = AbSettings.AB_BLOCK_PAIRS.typedDefault().orElseThrow();
    int maxBlocks = AbSettings.AB_MAX_BLOCKS.typedDefault().orElseThrow();
    GateSet.Judging judging = GateSet.Judging.DEFAULT;
    int[] counts = new int[3];
    long starts = seed * 1_000_000;
    for (int e = 0; e < EXPERIMENTS; e++) {
      AbGateTrack track =
          new AbGateTrack(
              tpotGate(),
              judging.confidence(),
              judging.power(),
              new AbSettings.Units("block", perBlock, SequentialTest.MIN_PAIRS, maxBlocks),
              "",
              FAMILY);
      for (int block = 0; block < maxBlocks && !track.decided(); block++) {
        double a = SimNoise.processFactor(processSd, starts++);
        double b = SimNoise.processFactor(processSd, starts++);
        double logA = 0;
        double logB = 0;
        for (int p = 0; p < perBlock; p++) {
          // each trial its own noise: a pair's log ratio then has the pairs' spread
          logA += PAIR_LOG_SD / Math.sqrt(2) * noise.nextGaussian();
          logB += PAIR_LOG_SD / Math.sqrt(2) * noise.nextGaussian();
        }
        track.add(
            25.0 * a * Math.exp(logA / perBlock), 25.0 * change * b * Math.exp(logB / perBlock));
      }
      tally(counts, track.decision());
    }
    return shares(counts);
  }

  /**
   * The simulator target: with a lasting offset of log sd 0.05 per process, A/A in blocks
   * of fresh deployments FAILs at most the design's 5% (within the rate's 99.9% interval); a +10%
   * change is printed beside it (how often it is caught at that noise in at most 10 blocks).
   */
  @Test
  void blocksOfFreshDeploymentsHoldTheFalseAlarmWithLastingProcessOffsets() {
    for (double sd : List.of(0.0, 0.03, 0.05)) {
      double[] aa = blockOutcomes(sd, 1.0, 59);
      double[] plus10 = blockOutcomes(sd, 1.10, 60);
      System.out.printf(
          Locale.ROOT,
          "blocks of fresh deployments (2 pairs a block, 3-10 blocks, tpot.mean +10%%, pair log sd"
              + " %.2f), process log sd %.2f: A/A FAIL %.3f (+-%.3f), PASS %.3f, INCONCLUSIVE"
              + " %.3f; +10%% FAIL %.3f, PASS %.3f, INCONCLUSIVE %.3f; %d experiments each%n",
          PAIR_LOG_SD,
          sd,
          aa[0],
          halfWidth(aa[0]),
          aa[1],
          aa[2],
          plus10[0],
          plus10[1],
          plus10[2],
          EXPERIMENTS);
      assertTrue(aa[0] <= 0.05 + halfWidth(0.05), "A/A FAIL " + aa[0] + " at process sd " + sd);
      assertTrue(plus10[0] > aa[0], "a +10% change fails more often than none, at sd " + sd);
    }
  }
}
