package io.github.llmbench.core;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stretch of load whose requests are measured together, named by its tag in records, Gatling's
 * stats and {@code summary.json}: {@code c128} (closed model, 128 in flight), {@code r2.5} (open
 * model, 2.5 requests/s), {@code r1-8} (a ramp, {@link Ramp}), {@code trace} (a trace replayed at
 * its times), {@code warmup}. A capacity search's probes are closed or open levels. A ladder over
 * {@code -Dimages} makes one closed or open level per image count, tagged {@code c8-img2}; a ladder
 * over {@code -Dimage.size} one per size, tagged {@code c8-img2-512x512} ({@link ImageStep}).
 */
public sealed interface Level
    permits Level.Closed, Level.Open, Level.Ramped, Level.Trace, Level.Warmup {

  Level WARMUP = new Warmup();
  Level TRACE = new Trace();

  /** The tag: {@code c128}, {@code r2.5}, {@code trace}, {@code warmup}. */
  String tag();

  /**
   * The images each of its requests carries when the run is a ladder over images' count or size,
   * else empty (the run's requests then carry the same images throughout, if any).
   */
  default Optional<ImageStep> images() {
    return Optional.empty();
  }

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

  /** A level of a ladder over images: {@code level}'s load, {@code images} per request. */
  static Level withImages(Level level, ImageStep images) {
    if (level instanceof Closed c) {
      return new Closed(c.conc(), Optional.of(images));
    }
    if (level instanceof Open o) {
      return new Open(o.rate(), Optional.of(images));
    }
    throw new IllegalArgumentException(
        "only closed and open levels step over images, not " + level);
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
      Optional<ImageStep> images = ImageStep.fromGroups(c, 2);
      return c.group(2) != null && images.isEmpty()
          ? Optional.empty()
          : Optional.of(new Closed(Integer.parseInt(c.group(1)), images));
    }
    Optional<Ramp> ramp = Ramp.parseTag(tag);
    if (ramp.isPresent()) {
      return Optional.of(new Ramped(ramp.get()));
    }
    Matcher r = Open.TAG.matcher(tag);
    if (r.matches()) {
      double rate = Double.parseDouble(r.group(1));
      Optional<ImageStep> images = ImageStep.fromGroups(r, 2);
      return rate > 0 && Double.isFinite(rate) && (r.group(2) == null || images.isPresent())
          ? Optional.of(new Open(rate, images))
          : Optional.empty();
    }
    return Optional.empty();
  }

  /** The accepted tags, for error messages. */
  static String accepted() {
    return "cN (closed model at concurrency N), rR (open model at R requests/s), either with"
        + " -imgK (K images per request) or -imgK-WxH (of W by H pixels), rA-B or cA-B (a ramp"
        + " from A to B, exp for an exponential one), trace or warmup";
  }

  private static String imagesSuffix(Optional<ImageStep> images) {
    return images.map(i -> "-" + i.tag()).orElse("");
  }

  /** A number as one would type it: {@code 16}, not {@code 16.0}; {@code 2.5} as is. */
  static String plainNumber(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /**
   * The closed model: {@code conc} requests in flight, each user sending its next as one ends.
   *
   * @param images the images per request of an image ladder's level, else empty
   */
  record Closed(int conc, Optional<ImageStep> images) implements Level {
    static final Pattern TAG = Pattern.compile("c([1-9][0-9]{0,8})(?:-" + ImageStep.TAG + ")?");

    public Closed {
      if (conc < 1) {
        throw new IllegalArgumentException("concurrency must be at least 1, not " + conc);
      }
    }

    public Closed(int conc) {
      this(conc, Optional.empty());
    }

    @Override
    public String tag() {
      return "c" + conc + imagesSuffix(images);
    }

    @Override
    public String toString() {
      return tag();
    }
  }

  /**
   * The open model: requests arriving at {@code rate} per second whatever the server does.
   *
   * @param images the images per request of an image ladder's level, else empty
   */
  record Open(double rate, Optional<ImageStep> images) implements Level {
    static final Pattern TAG =
        Pattern.compile("r([0-9]+(?:\\.[0-9]+)?(?:E-?[0-9]+)?)(?:-" + ImageStep.TAG + ")?");

    public Open {
      if (!(rate > 0) || !Double.isFinite(rate)) {
        throw new IllegalArgumentException(
            String.format(Locale.ROOT, "rate must be above 0, not %s", rate));
      }
    }

    public Open(double rate) {
      this(rate, Optional.empty());
    }

    @Override
    public String tag() {
      return "r" + plainNumber(rate) + imagesSuffix(images);
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
