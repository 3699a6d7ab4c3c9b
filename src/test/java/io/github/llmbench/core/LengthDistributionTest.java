package io.github.llmbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LengthDistributionTest {

  private static int[] draws(LengthDistribution d, int n, int cap) {
    Random rnd = new Random(11);
    int[] v = new int[n];
    for (int i = 0; i < n; i++) {
      v[i] = d.draw(rnd, cap);
    }
    return v;
  }

  private static double mean(int[] v) {
    return Arrays.stream(v).average().orElse(0);
  }

  private static double stdev(int[] v) {
    double m = mean(v);
    return Math.sqrt(Arrays.stream(v).mapToDouble(x -> (x - m) * (x - m)).sum() / (v.length - 1));
  }

  @Test
  void normalAndLognormalHaveTheAskedMeanAndDeviation() {
    for (LengthDistribution.Shape shape :
        new LengthDistribution.Shape[] {
          LengthDistribution.Shape.NORMAL,
          LengthDistribution.Shape.LOGNORMAL,
          LengthDistribution.Shape.UNIFORM
        }) {
      int[] v = draws(LengthDistribution.of(shape, 512, 128), 40_000, Integer.MAX_VALUE);
      assertEquals(512, mean(v), 512 * 0.01, shape + " mean");
      assertEquals(128, stdev(v), 128 * 0.02, shape + " stdev");
      assertTrue(Arrays.stream(v).allMatch(x -> x >= 1), shape.id());
    }
    int[] lognormal =
        draws(
            LengthDistribution.of(LengthDistribution.Shape.LOGNORMAL, 512, 128),
            40_000,
            Integer.MAX_VALUE);
    int[] sorted = lognormal.clone();
    Arrays.sort(sorted);
    assertTrue(sorted[sorted.length / 2] < 512, "a lognormal's median is below its mean");
  }

  @Test
  void drawsAreClippedToOneAndToTheCap() {
    int[] v = draws(LengthDistribution.of(LengthDistribution.Shape.NORMAL, 10, 50), 10_000, 40);
    assertEquals(1, Arrays.stream(v).min().getAsInt());
    assertEquals(40, Arrays.stream(v).max().getAsInt());
    assertEquals(40, LengthDistribution.of(LengthDistribution.Shape.NORMAL, 10, 50).max(40));
  }

  @Test
  void vllmsRangeRatioIsItsUniformRangeAndAFixedLengthDrawsNothing() {
    LengthDistribution r = LengthDistribution.ofRangeRatio(100, 0.25);
    assertEquals(LengthDistribution.Shape.UNIFORM, r.shape());
    assertEquals(75, r.low());
    assertEquals(125, r.high());
    int[] v = draws(r, 5_000, 1);
    assertEquals(75, Arrays.stream(v).min().getAsInt(), "a range is not clipped to the cap");
    assertEquals(125, Arrays.stream(v).max().getAsInt());
    assertEquals(125, r.max(10));
    LengthDistribution fixed = LengthDistribution.ofRangeRatio(100, 0);
    assertTrue(fixed.isFixed());
    Random a = new Random(3);
    assertEquals(100, fixed.draw(a, 10));
    assertEquals(new Random(3).nextInt(), a.nextInt(), "a fixed length takes no random number");
    assertEquals(
        "normal, mean 512, stdev 128",
        LengthDistribution.of(LengthDistribution.Shape.NORMAL, 512, 128).describe());
    assertTrue(LengthDistribution.of(LengthDistribution.Shape.NORMAL, 512, 0).isFixed());
  }
}
