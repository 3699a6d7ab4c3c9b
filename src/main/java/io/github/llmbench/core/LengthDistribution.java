package io.github.llmbench.core;

import java.util.Locale;
import java.util.Random;

/**
 * How the random dataset draws a request's length in tokens: one fixed length, vLLM's uniform range
 * ({@code -Drange.ratio}), or a normal or lognormal distribution of a mean and a standard deviation
 * ({@code -Dinput.stdev}, {@code -Dlength.dist}), as AIPerf, GuideLLM and inference-perf draw them.
 * Every draw is a whole number from 1 up to the cap it is given (the tokens the server's context
 * leaves).
 *
 * @param low the smallest length a uniform range draws (the mean otherwise)
 * @param high the largest length a uniform range draws (the mean otherwise)
 */
public record LengthDistribution(Shape shape, int mean, double stdev, int low, int high) {

  /** The distribution's family. */
  public enum Shape {
    FIXED("fixed"),
    UNIFORM("uniform"),
    NORMAL("normal"),
    LOGNORMAL("lognormal");

    private final String id;

    Shape(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }
  }

  private static final double SQRT3 = Math.sqrt(3);

  public LengthDistribution {
    if (mean < 1 || stdev < 0 || low < 1 || high < low) {
      throw new IllegalArgumentException(
          "length distribution: mean " + mean + ", stdev " + stdev + ", " + low + ".." + high);
    }
  }

  /** Every request {@code len} tokens. */
  public static LengthDistribution fixed(int len) {
    return new LengthDistribution(Shape.FIXED, len, 0, len, len);
  }

  /**
   * vLLM's random dataset: uniform over [len x (1 - r), len x (1 + r)], at least 1; {@code r = 0}
   * is the fixed length.
   */
  public static LengthDistribution ofRangeRatio(int len, double r) {
    if (r == 0) {
      return fixed(len);
    }
    int low = Math.max(1, (int) Math.floor(len * (1 - r)));
    int high = Math.max(low, (int) Math.ceil(len * (1 + r)));
    double width = high - low + 1;
    return new LengthDistribution(
        Shape.UNIFORM, len, Math.sqrt((width * width - 1) / 12), low, high);
  }

  /**
   * A distribution of {@code shape} with this mean and standard deviation; a uniform one spans mean
   * ± sqrt(3) x stdev (which has that deviation).
   */
  public static LengthDistribution of(Shape shape, int mean, double stdev) {
    return switch (shape) {
      case FIXED -> fixed(mean);
      case UNIFORM -> {
        int low = Math.max(1, (int) Math.round(mean - SQRT3 * stdev));
        int high = Math.max(low, (int) Math.round(mean + SQRT3 * stdev));
        yield new LengthDistribution(Shape.UNIFORM, mean, stdev, low, high);
      }
      case NORMAL, LOGNORMAL ->
          stdev == 0 ? fixed(mean) : new LengthDistribution(shape, mean, stdev, mean, mean);
    };
  }

  /** Whether every request has the same length. */
  public boolean isFixed() {
    return shape == Shape.FIXED;
  }

  /** Whether its draws have no upper bound but the cap they are given (normal, lognormal). */
  public boolean unbounded() {
    return shape == Shape.NORMAL || shape == Shape.LOGNORMAL;
  }

  /** The largest length it draws: the range's top, or {@code cap} where it has none. */
  public int max(int cap) {
    return unbounded() ? Math.max(1, cap) : high;
  }

  /**
   * One length: a whole number from 1 to {@code cap} (a bounded distribution ignores the cap: its
   * longest request is checked against the context before the load instead). A fixed length draws
   * nothing from {@code rnd}, so the requests of fixed-length runs stay as they were.
   */
  public int draw(Random rnd, int cap) {
    return switch (shape) {
      case FIXED -> mean;
      case UNIFORM -> low + rnd.nextInt(high - low + 1);
      case NORMAL -> clip(Math.round(mean + stdev * rnd.nextGaussian()), cap);
      case LOGNORMAL -> {
        // the underlying normal's parameters for this mean and deviation
        double sigma2 = Math.log(1 + (stdev * stdev) / ((double) mean * mean));
        double mu = Math.log(mean) - sigma2 / 2;
        yield clip(Math.round(Math.exp(mu + Math.sqrt(sigma2) * rnd.nextGaussian())), cap);
      }
    };
  }

  private static int clip(long v, int cap) {
    return (int) Math.max(1, Math.min(v, Math.max(1, cap)));
  }

  /** As the start line and the report say it, e.g. {@code normal, mean 512, stdev 128}. */
  public String describe() {
    return switch (shape) {
      case FIXED -> Integer.toString(mean);
      case UNIFORM ->
          String.format(
              Locale.ROOT, "uniform %d..%d (mean %d, stdev %.1f)", low, high, mean, stdev);
      case NORMAL, LOGNORMAL ->
          String.format(
              Locale.ROOT, "%s, mean %d, stdev %s", shape.id, mean, Level.plainNumber(stdev));
    };
  }
}
