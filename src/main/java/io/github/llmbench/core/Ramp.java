package io.github.llmbench.core;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A load that grows (or shrinks) over one level instead of holding still: an open model's arrival
 * rate ({@code -Dramp.start}/{@code -Dramp.end}, vLLM's {@code --ramp-up-start-rps}/{@code
 * --ramp-up-end-rps}) or a closed model's concurrency ({@code -Dramp.conc=C0:C1}, AIPerf's
 * concurrency ramp), linear or exponential in time ({@code -Dramp}).
 *
 * @param from the load at the level's start: requests/s, or requests in flight
 * @param to the load at its end
 */
public record Ramp(Shape shape, Kind kind, double from, double to) {

  /** How the load goes from {@code from} to {@code to}. */
  public enum Shape {
    /** By the same amount each second. */
    LINEAR("linear", ""),
    /** By the same factor each second (vLLM's {@code exponential}). */
    EXPONENTIAL("exponential", "exp");

    private final String id;
    private final String tagSuffix;

    Shape(String id, String tagSuffix) {
      this.id = id;
      this.tagSuffix = tagSuffix;
    }

    public String id() {
      return id;
    }
  }

  /** What grows. */
  public enum Kind {
    /** The open model's arrival rate, requests/s. */
    RATE("r", "req/s"),
    /** The closed model's requests in flight. */
    CONCURRENCY("c", "in flight");

    private final String tagPrefix;
    private final String unit;

    Kind(String tagPrefix, String unit) {
      this.tagPrefix = tagPrefix;
      this.unit = unit;
    }

    /** The unit its loads are in, for output: {@code req/s}, {@code in flight}. */
    public String unit() {
      return unit;
    }
  }

  private static final Pattern TAG =
      Pattern.compile(
          "([rc])([0-9]+(?:\\.[0-9]+)?(?:E-?[0-9]+)?)-([0-9]+(?:\\.[0-9]+)?(?:E-?[0-9]+)?)(exp)?");

  public Ramp {
    if (!(from >= 0) || !(to > 0) || !Double.isFinite(from) || !Double.isFinite(to)) {
      throw new IllegalArgumentException(
          String.format(Locale.ROOT, "a ramp needs from >= 0 and to > 0, not %s and %s", from, to));
    }
    if (from == to) {
      throw new IllegalArgumentException("a ramp from " + from + " to itself is a constant load");
    }
    if (shape == Shape.EXPONENTIAL && from == 0) {
      throw new IllegalArgumentException("an exponential ramp cannot start at 0");
    }
    if (kind == Kind.CONCURRENCY && (from != Math.rint(from) || to != Math.rint(to))) {
      throw new IllegalArgumentException(
          "a concurrency ramp goes between whole numbers, not " + from + " and " + to);
    }
  }

  /**
   * The level's tag: {@code r1-8} (rate from 1 to 8 requests/s, linear), {@code r1-8exp}
   * (exponential), {@code c4-64} (concurrency from 4 to 64).
   */
  public String tag() {
    return kind.tagPrefix + Level.plainNumber(from) + "-" + Level.plainNumber(to) + shape.tagSuffix;
  }

  /** The ramp tagged {@code tag}, or empty when it is no ramp's tag. */
  static Optional<Ramp> parseTag(String tag) {
    Matcher m = TAG.matcher(tag);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Ramp(
              m.group(4) == null ? Shape.LINEAR : Shape.EXPONENTIAL,
              m.group(1).equals("r") ? Kind.RATE : Kind.CONCURRENCY,
              Double.parseDouble(m.group(2)),
              Double.parseDouble(m.group(3))));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The load at {@code progress} through the ramp (0 at its start, 1 at its end). */
  public double at(double progress) {
    double p = Math.min(1, Math.max(0, progress));
    return shape == Shape.LINEAR ? from + (to - from) * p : from * Math.pow(to / from, p);
  }

  /** The highest load it reaches. */
  public double peak() {
    return Math.max(from, to);
  }

  /**
   * The expected arrivals from its start to {@code t} of {@code durationSeconds} (the integral of
   * the rate, for a rate ramp).
   */
  public double cumulative(double t, double durationSeconds) {
    double d = durationSeconds;
    if (shape == Shape.LINEAR) {
      return from * t + (to - from) * t * t / (2 * d);
    }
    double lnK = Math.log(to / from);
    return from * d * (Math.exp(lnK * t / d) - 1) / lnK;
  }

  /**
   * The time at which {@link #cumulative} reaches {@code arrivals} (the inverse), so a renewal
   * process of unit rate in arrivals maps onto the ramp's time: time-rescaling, which turns a
   * Poisson process into one of the ramp's changing rate. Beyond the level's end when the ramp
   * expects fewer arrivals.
   */
  public double timeOf(double arrivals, double durationSeconds) {
    if (arrivals <= 0) {
      return 0;
    }
    double d = durationSeconds;
    if (shape == Shape.LINEAR) {
      double a = (to - from) / (2 * d);
      double disc = from * from + 4 * a * arrivals;
      if (disc < 0) { // a falling ramp that never expects this many arrivals
        return Double.POSITIVE_INFINITY;
      }
      // the root of a t^2 + from t - arrivals = 0 in the form that stays exact as a nears 0
      return 2 * arrivals / (from + Math.sqrt(disc));
    }
    double lnK = Math.log(to / from);
    double inner = 1 + arrivals * lnK / (from * d);
    return inner <= 0 ? Double.POSITIVE_INFINITY : d * Math.log(inner) / lnK;
  }

  /** How it reads in output: {@code linear 1 to 8 req/s}. */
  public String describe() {
    return shape.id
        + " "
        + Level.plainNumber(from)
        + " to "
        + Level.plainNumber(to)
        + " "
        + kind.unit;
  }

  @Override
  public String toString() {
    return tag();
  }
}
