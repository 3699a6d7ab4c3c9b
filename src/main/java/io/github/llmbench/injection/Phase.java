package io.github.llmbench.injection;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * One stretch of load, drained fully before the next one starts: a closed-model level, an
 * open-model level, a ramp, a trace replay or the warmup, each with only what it has. An injector
 * of several runs its share of a level (concurrency, rate, prompts) under the whole level's {@link
 * Level}, so the injectors' records merge into one level.
 */
public sealed interface Phase
    permits Phase.Closed, Phase.Open, Phase.Ramped, Phase.Trace, Phase.Warmup {

  /** The level its records are tagged with. */
  Level level();

  /** The workload profile it sends, or null for any. */
  String profile();

  /** The exact number of requests it sends, or empty when it stops after a duration. */
  OptionalInt prompts();

  /** Whether the level's summary can be printed once this phase has drained. */
  boolean lastOfLevel();

  /** Which run of its level this phase is ({@code -Dtrials}). */
  default Trial trial() {
    return Trial.ONLY;
  }

  /**
   * One of the back-to-back runs of a level ({@code -Dtrials}), each with its own records and
   * figures, so the level's figures get an interval across them.
   *
   * @param number from 1
   * @param count the level's trials
   * @param cooldownSeconds idle time before this trial when it is not the first
   */
  record Trial(int number, int count, int cooldownSeconds) {
    /** A level that runs once. */
    public static final Trial ONLY = new Trial(1, 1, 0);

    public Trial {
      if (number < 1 || number > count || cooldownSeconds < 0) {
        throw new IllegalArgumentException(
            "trial " + number + " of " + count + ", cool-down " + cooldownSeconds + " s");
      }
    }

    /** Whether its level runs more than once. */
    public boolean repeated() {
      return count > 1;
    }

    /** The idle time before it: a cool-down between two trials, none before the first. */
    public int pauseBeforeSeconds() {
      return number > 1 ? cooldownSeconds : 0;
    }
  }

  /**
   * The value for this phase's kind, from the function of that kind: Java 17 has no switch over a
   * sealed type's cases, and this one makes each caller handle every kind.
   */
  <T> T match(
      Function<Closed, T> closed,
      Function<Open, T> open,
      Function<Ramped, T> ramped,
      Function<Trace, T> trace,
      Function<Warmup, T> warmup);

  /** A name unique within the run, for Gatling's scenario. */
  default String scenarioName() {
    return level().tag()
        + (profile() == null ? "" : " " + profile())
        + (trial().repeated() ? " trial " + trial().number() : "");
  }

  /**
   * The closed model: {@code conc} users each sending their next request as one ends.
   *
   * @param conc this injector's requests in flight
   * @param prompts the exact number of requests, or empty to stop after {@code durationSeconds}
   */
  record Closed(
      Level.Closed level,
      String profile,
      int conc,
      OptionalInt prompts,
      int durationSeconds,
      boolean lastOfLevel,
      Trial trial)
      implements Phase {
    public Closed {
      if (conc < 1) {
        throw new IllegalArgumentException(
            "a closed-model phase needs at least 1 request in flight, not " + conc);
      }
    }

    /** A level that runs once. */
    public Closed(
        Level.Closed level,
        String profile,
        int conc,
        OptionalInt prompts,
        int durationSeconds,
        boolean lastOfLevel) {
      this(level, profile, conc, prompts, durationSeconds, lastOfLevel, Trial.ONLY);
    }

    @Override
    public <T> T match(
        Function<Closed, T> closed,
        Function<Open, T> open,
        Function<Ramped, T> ramped,
        Function<Trace, T> trace,
        Function<Warmup, T> warmup) {
      return closed.apply(this);
    }
  }

  /**
   * The open model: requests arriving at {@code rate} per second with gamma-distributed gaps,
   * whatever the server does.
   *
   * @param rate this injector's requests per second (its share of the level's)
   * @param burstiness the gamma shape of the gaps (1 = Poisson)
   * @param maxConc this injector's cap on requests in flight ({@code max.conc}), or empty for none
   * @param prompts the exact number of requests, or empty to stop after {@code durationSeconds}
   */
  record Open(
      Level.Open level,
      String profile,
      double rate,
      double burstiness,
      OptionalInt maxConc,
      OptionalInt prompts,
      int durationSeconds,
      boolean lastOfLevel,
      Trial trial)
      implements Phase {
    /** A level that runs once. */
    public Open(
        Level.Open level,
        String profile,
        double rate,
        double burstiness,
        OptionalInt maxConc,
        OptionalInt prompts,
        int durationSeconds,
        boolean lastOfLevel) {
      this(
          level,
          profile,
          rate,
          burstiness,
          maxConc,
          prompts,
          durationSeconds,
          lastOfLevel,
          Trial.ONLY);
    }

    public Open {
      if (!(rate > 0) || !(burstiness > 0)) {
        throw new IllegalArgumentException(
            "an open-model phase needs a rate and a burstiness above 0, not "
                + rate
                + " and "
                + burstiness);
      }
      if (maxConc.isPresent() && maxConc.getAsInt() < 1) {
        throw new IllegalArgumentException(
            "a cap on requests in flight must be at least 1, not " + maxConc.getAsInt());
      }
    }

    @Override
    public <T> T match(
        Function<Closed, T> closed,
        Function<Open, T> open,
        Function<Ramped, T> ramped,
        Function<Trace, T> trace,
        Function<Warmup, T> warmup) {
      return open.apply(this);
    }
  }

  /**
   * A ramp over the level's duration: the open model's arrival rate going from the ramp's start to
   * its end (gamma gaps of {@code burstiness}, time-rescaled to the changing rate; with {@code
   * prompts}, vLLM's ramp by request instead), or the closed model's requests in flight.
   *
   * @param ramp this injector's share of the level's ramp
   * @param burstiness a rate ramp's gamma shape of the gaps (1 = Poisson); 1 for a concurrency ramp
   * @param maxConc a rate ramp's cap on requests in flight, or empty for none
   * @param prompts a rate ramp's exact number of requests, or empty to stop after {@code
   *     durationSeconds}; always empty for a concurrency ramp
   */
  record Ramped(
      Level.Ramped level,
      String profile,
      Ramp ramp,
      double burstiness,
      OptionalInt maxConc,
      OptionalInt prompts,
      int durationSeconds,
      boolean lastOfLevel,
      Trial trial)
      implements Phase {
    public Ramped {
      if (!(burstiness > 0) || durationSeconds < 1) {
        throw new IllegalArgumentException(
            "a ramp needs a burstiness above 0 and a duration, not "
                + burstiness
                + " and "
                + durationSeconds);
      }
      if (ramp.kind() == Ramp.Kind.CONCURRENCY && (prompts.isPresent() || maxConc.isPresent())) {
        throw new IllegalArgumentException("a concurrency ramp runs for its duration, uncapped");
      }
    }

    /** Whether it ramps the open model's rate (else the closed model's concurrency). */
    public boolean rate() {
      return ramp.kind() == Ramp.Kind.RATE;
    }

    @Override
    public <T> T match(
        Function<Closed, T> closed,
        Function<Open, T> open,
        Function<Ramped, T> ramped,
        Function<Trace, T> trace,
        Function<Warmup, T> warmup) {
      return ramped.apply(this);
    }
  }

  /**
   * A trace replay: one request sent at each of the trace's times, the whole trace one level.
   *
   * @param sendTimes each request's send time, in s from the replay's start, in order
   */
  record Trace(List<Double> sendTimes) implements Phase {
    public Trace {
      if (sendTimes.isEmpty()) {
        throw new IllegalArgumentException("a trace replay needs at least one request");
      }
      sendTimes = List.copyOf(sendTimes);
    }

    @Override
    public Level level() {
      return Level.TRACE;
    }

    @Override
    public String profile() {
      return null;
    }

    @Override
    public OptionalInt prompts() {
      return OptionalInt.of(sendTimes.size());
    }

    @Override
    public boolean lastOfLevel() {
      return true;
    }

    /** From the start to the last send, in whole seconds. */
    public int durationSeconds() {
      return (int) Math.ceil(sendTimes.get(sendTimes.size() - 1));
    }

    @Override
    public <T> T match(
        Function<Closed, T> closed,
        Function<Open, T> open,
        Function<Ramped, T> ramped,
        Function<Trace, T> trace,
        Function<Warmup, T> warmup) {
      return trace.apply(this);
    }
  }

  /**
   * The warmup: {@code promptCount} requests, {@code conc} at a time, of their own prompts; its
   * records are left out of every figure.
   */
  record Warmup(int conc, int promptCount) implements Phase {
    public Warmup {
      if (conc < 1 || promptCount < 1) {
        throw new IllegalArgumentException(
            "a warmup needs at least 1 request and 1 in flight, not "
                + promptCount
                + " and "
                + conc);
      }
    }

    @Override
    public Level level() {
      return Level.WARMUP;
    }

    @Override
    public String profile() {
      return null;
    }

    @Override
    public OptionalInt prompts() {
      return OptionalInt.of(promptCount);
    }

    @Override
    public boolean lastOfLevel() {
      return true;
    }

    @Override
    public <T> T match(
        Function<Closed, T> closed,
        Function<Open, T> open,
        Function<Ramped, T> ramped,
        Function<Trace, T> trace,
        Function<Warmup, T> warmup) {
      return warmup.apply(this);
    }
  }
}
