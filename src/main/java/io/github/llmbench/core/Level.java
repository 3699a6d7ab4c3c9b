package io.github.llmbench.core;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stretch of load whose requests are measured together, named by its tag in records, Gatling's
 * stats and {@code summary.json}: {@code c128} (closed model, 128 in flight), {@code r2.5} (open
 * model, 2.5 requests/s), {@code r1-8} (a ramp, {@link Ramp}), {@code trace} (a trace replayed at
 * its times), {@code warmup}. A capacity search's probes are closed or open levels.
 */
public sealed interface Level
    permits Level.Closed, Level.Open, Level.Ramped, Level.Trace, Level.Warmup {

  Level WARMUP = new Warmup();
  Level TRACE = new Trace();

  /** The tag: {@code c128}, {@code r2.5}, {@code trace}, {@code warmup}. */
  String tag();

  /** Whether its requests are measured (all but the warmup). */
  default boolean measured() {
    return !(this instanceof Warmup);
  }

  static Closed closed(int conc) {
    return new Closed(conc);
  }

  static Open open(double rate) {
    return new Open(rate);
  }

  /** The level tagged {@code tag}, or empty when it is none of the four forms. */
  static Optional<Level> parse(String tag) {
    if (tag == null) {
      return Optional.empty();
    }
    if (tag.equals(WARMUP.tag())) {
      return Optional.of(WARMUP);
    }
    if (tag.equals(TRACE.tag())) {
      return Optional.of(TRACE);
    }
    Matcher c = Closed.TAG.matcher(tag);
    if (c.matches()) {
      return Optional.of(new Closed(Integer.parseInt(c.group(1))));
    }
    Optional<Ramp> ramp = Ramp.parseTag(tag);
    if (ramp.isPresent()) {
      return Optional.of(new Ramped(ramp.get()));
    }
    Matcher r = Open.TAG.matcher(tag);
    if (r.matches()) {
      double rate = Double.parseDouble(r.group(1));
      return rate > 0 && Double.isFinite(rate) ? Optional.of(new Open(rate)) : Optional.empty();
    }
    return Optional.empty();
  }

  /** The accepted tags, for error messages. */
  static String accepted() {
    return "cN (closed model at concurrency N), rR (open model at R requests/s), rA-B or cA-B"
        + " (a ramp from A to B, exp for an exponential one), trace or warmup";
  }

  /** A number as one would type it: {@code 16}, not {@code 16.0}; {@code 2.5} as is. */
  static String plainNumber(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** The closed model: {@code conc} requests in flight, each user sending its next as one ends. */
  record Closed(int conc) implements Level {
    static final Pattern TAG = Pattern.compile("c([1-9][0-9]{0,8})");

    public Closed {
      if (conc < 1) {
        throw new IllegalArgumentException("concurrency must be at least 1, not " + conc);
      }
    }

    @Override
    public String tag() {
      return "c" + conc;
    }

    @Override
    public String toString() {
      return tag();
    }
  }

  /** The open model: requests arriving at {@code rate} per second whatever the server does. */
  record Open(double rate) implements Level {
    static final Pattern TAG = Pattern.compile("r([0-9]+(?:\\.[0-9]+)?(?:E-?[0-9]+)?)");

    public Open {
      if (!(rate > 0) || !Double.isFinite(rate)) {
        throw new IllegalArgumentException(
            String.format(Locale.ROOT, "rate must be above 0, not %s", rate));
      }
    }

    @Override
    public String tag() {
      return "r" + plainNumber(rate);
    }

    @Override
    public String toString() {
      return tag();
    }
  }

  /**
   * A ramp: the open model's rate or the closed model's concurrency going from one load to another
   * over the level ({@code -Dramp}).
   */
  record Ramped(Ramp ramp) implements Level {
    @Override
    public String tag() {
      return ramp.tag();
    }

    @Override
    public String toString() {
      return tag();
    }
  }

  /** A trace replay: each request sent at its time in the trace. */
  record Trace() implements Level {
    @Override
    public String tag() {
      return "trace";
    }

    @Override
    public String toString() {
      return tag();
    }
  }

  /** The warmup before the measured levels, its records kept apart. */
  record Warmup() implements Level {
    @Override
    public String tag() {
      return "warmup";
    }

    @Override
    public String toString() {
      return tag();
    }
  }
}
