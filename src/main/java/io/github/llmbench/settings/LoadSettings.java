package io.github.llmbench.settings;

import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The load-shape group of settings ({@code -Dhelp}'s "Load shape"), read as the load itself: one
 * closed-model level per entry of {@code levels} (or one open-model phase when {@code rate} is
 * set), each stopped after {@code durationSeconds} or, when {@code prompts} is not empty, after
 * exactly {@code prompts.get(i)} requests; an optional warmup before them.
 */
public record LoadSettings(
    List<Integer> levels,
    boolean ladder,
    List<Integer> prompts,
    int durationSeconds,
    int warmupPrompts,
    int warmupConc,
    OptionalDouble rate,
    double burstiness,
    OptionalInt maxConc,
    int trials,
    int trialsCooldownSeconds,
    Optional<Ramp> ramp,
    List<ImageStep> imageLadder) {

  private static final String HEADING = SettingsTable.LOAD;
  private static final Parser<String> TEXT = Parser.text();

  static final int CONC_LIMIT = 100_000;

  /** The most seconds of {@code -Dduration}, and of any level's or trace replay's expected time. */
  public static final int MAX_SECONDS = 7 * 24 * 3600;

  /** The most trials of a level ({@code -Dtrials}). */
  static final int MAX_TRIALS = 100;

  public static final Setting<Integer> CONC =
      Setting.of(
          HEADING,
          "conc",
          16,
          "a whole number from 1 to " + CONC_LIMIT,
          "one closed-model level: this many requests in flight",
          Parser.positiveInt(CONC_LIMIT));
  public static final Setting<List<Integer>> LADDER =
      Setting.without(
          HEADING,
          "ladder",
          "none",
          "whole numbers separated by commas, e.g. 8,16,32",
          "several closed-model levels, each drained before the next",
          Parser.intList(CONC_LIMIT));
  public static final Setting<Integer> DURATION =
      Setting.of(
          HEADING,
          "duration",
          60,
          "a whole number of seconds from 1",
          "how long each level (or rate probe) keeps starting requests",
          Parser.positiveInt(MAX_SECONDS));
  public static final Setting<List<Integer>> PROMPTS =
      Setting.without(
          HEADING,
          "prompts",
          "none",
          "a whole number, or one per ladder level",
          "instead of duration: exactly this many requests per level",
          Parser.intList(Integer.MAX_VALUE));
  public static final Setting<Integer> WARMUP_PROMPTS =
      Setting.of(
          HEADING,
          "warmup.prompts",
          0,
          "a whole number from 0",
          "requests sent before the measured levels, left out of every summary",
          Parser.nonNegativeInt(Integer.MAX_VALUE));
  public static final Setting<Integer> WARMUP_CONC =
      Setting.without(
          HEADING,
          "warmup.conc",
          "the first level / 4",
          "a whole number from 1",
          "concurrency of the warmup",
          Parser.positiveInt(CONC_LIMIT));
  public static final Setting<Integer> TRIALS =
      Setting.of(
          HEADING,
          "trials",
          1,
          "a whole number from 1 to " + MAX_TRIALS,
          "times each measured level runs, back to back: its figures get confidence intervals"
              + " across the trials",
          Parser.positiveInt(MAX_TRIALS));
  public static final Setting<Integer> TRIALS_COOLDOWN =
      Setting.of(
          HEADING,
          "trials.cooldown",
          0,
          "a whole number of seconds from 0",
          "idle time between two trials of a level (a server's queues and clocks settle)",
          Parser.nonNegativeInt(MAX_SECONDS));
  public static final Setting<Double> RATE =
      Setting.without(
          HEADING,
          "rate",
          "none",
          "a number of requests per second above 0",
          "open model: arrivals at this rate (level r<rate>)",
          Parser.positiveDouble());
  public static final Setting<Double> BURSTINESS =
      Setting.of(
          HEADING,
          "burstiness",
          1.0,
          "a number above 0 (1 = Poisson)",
          "open model: gamma shape of the arrival gaps, as vLLM's",
          Parser.positiveDouble());
  public static final Setting<Integer> MAX_CONC =
      Setting.without(
          HEADING,
          "max.conc",
          "none",
          "a whole number from 1",
          "open model: at most this many requests in flight",
          Parser.positiveInt(CONC_LIMIT));
  public static final Setting<String> RAMP =
      Setting.without(
          HEADING,
          "ramp",
          "none",
          "linear or exponential",
          "the load grows over the level's duration: from ramp.start to ramp.end requests/s (open"
              + " model, vLLM's --ramp-up-strategy) or over ramp.conc (closed model)",
          Parser.word(
              List.of("linear", "exponential"),
              "linear (the same step each second) or exponential (the same factor each second)"));
  public static final Setting<Double> RAMP_START =
      Setting.without(
          HEADING,
          "ramp.start",
          "none",
          "a number of requests per second from 0",
          "open-model ramp: the rate at the level's start (level r<start>-<end>)",
          Parser.number(v -> v >= 0, "a number of requests per second from 0"));
  public static final Setting<Double> RAMP_END =
      Setting.without(
          HEADING,
          "ramp.end",
          "none",
          "a number of requests per second above 0",
          "open-model ramp: the rate at the level's end",
          Parser.positiveDouble());
  public static final Setting<String> RAMP_CONC =
      Setting.without(
          HEADING,
          "ramp.conc",
          "none",
          "C0:C1, whole numbers from 1, e.g. 1:64",
          "closed-model ramp: requests in flight from C0 at the level's start to C1 at its end"
              + " (level c<C0>-<C1>), linear unless -Dramp=exponential",
          TEXT);

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(
          CONC,
          LADDER,
          DURATION,
          PROMPTS,
          WARMUP_PROMPTS,
          WARMUP_CONC,
          TRIALS,
          TRIALS_COOLDOWN,
          RATE,
          BURSTINESS,
          MAX_CONC,
          RAMP,
          RAMP_START,
          RAMP_END,
          RAMP_CONC);

  public LoadSettings {
    levels = List.copyOf(levels);
    prompts = List.copyOf(prompts);
    imageLadder = List.copyOf(imageLadder);
  }

  /** Whether requests arrive whatever the server does: at a rate, or at a ramp's rate. */
  public boolean open() {
    return rate.isPresent() || ramp.filter(r -> r.kind() == Ramp.Kind.RATE).isPresent();
  }

  /** Requests of phase {@code i}, or empty when the phase stops after the duration. */
  public OptionalInt promptsOf(int i) {
    return prompts.isEmpty() ? OptionalInt.empty() : OptionalInt.of(prompts.get(i));
  }

  /** {@code -Dconc}: the closed-model level (a ladder's first level). */
  public int conc() {
    return levels.get(0);
  }

  /** Reads the group's settings and refuses a bad value, or a bad pair within the group. */
  static LoadSettings read(SettingReader r, Images images) {
    int conc = r.get(CONC);
    int duration = r.get(DURATION);
    Optional<List<Integer>> ladder = r.optional(LADDER);
    OptionalDouble rate = r.optional(RATE).stream().mapToDouble(Double::doubleValue).findFirst();
    if (ladder.isPresent() && rate.isPresent()) {
      throw new SettingsException(
          "-Dladder and -Drate cannot be combined: a ladder is closed-model (fixed concurrency), a rate is open-model");
    }
    if (r.isSet(CONC) && (ladder.isPresent() || rate.isPresent())) {
      throw new SettingsException(
          "-Dconc cannot be combined with -D"
              + (ladder.isPresent() ? "ladder" : "rate")
              + ": -Dconc=N is the one-level case of -Dladder=N; with -Drate use -Dmax.conc");
    }
    Optional<Ramp> ramp = readRamp(r, ladder.isPresent() || rate.isPresent());
    List<Integer> levels =
        ladder.orElse(
            List.of(
                ramp.filter(x -> x.kind() == Ramp.Kind.CONCURRENCY)
                    .map(x -> (int) x.peak())
                    .orElse(conc)));
    List<Integer> prompts = r.optional(PROMPTS).orElse(List.of());
    List<ImageStep> imageLadder = images.steps();
    int imageSteps = Math.max(1, imageLadder.size());
    int phases = rate.isPresent() || ramp.isPresent() ? imageSteps : levels.size() * imageSteps;
    if (ramp.filter(x -> x.kind() == Ramp.Kind.CONCURRENCY).isPresent() && !prompts.isEmpty()) {
      throw new SettingsException(
          "-Dramp.conc ramps over -Dduration: drop -Dprompts (a count of requests has no time to"
              + " ramp over)");
    }
    if (prompts.size() > 1 && prompts.size() != phases) {
      throw SettingsException.invalid(
          "prompts",
          r.raw(PROMPTS).get(),
          "one number, or one per ladder level (" + phases + " numbers)");
    }
    if (prompts.size() == 1 && phases > 1) {
      prompts = Collections.nCopies(phases, prompts.get(0));
    }
    checkOpenTime(r, rate, ramp, prompts);
    int warmupPrompts = r.get(WARMUP_PROMPTS);
    int warmupConc = r.optional(WARMUP_CONC).orElse(Math.max(1, levels.get(0) / 4));
    double burstiness = r.get(BURSTINESS);
    OptionalInt maxConc = r.optional(MAX_CONC).stream().mapToInt(Integer::intValue).findFirst();
    int trials = r.get(TRIALS);
    if (r.isSet(TRIALS_COOLDOWN) && trials == 1) {
      throw new SettingsException(
          "-Dtrials.cooldown applies between trials: add -Dtrials=N (2 or more)");
    }
    return new LoadSettings(
        levels,
        ladder.isPresent(),
        prompts,
        duration,
        warmupPrompts,
        warmupConc,
        rate,
        burstiness,
        maxConc,
        trials,
        r.get(TRIALS_COOLDOWN),
        ramp,
        imageLadder);
  }

  /**
   * An open model that sends a count of requests takes that count over its rate: refused where a
   * level would take longer than {@code -Dduration} may ({@value #MAX_SECONDS} s), as a rate of
   * 1e-9 requests/s would send 100 requests over three thousand years.
   */
  private static void checkOpenTime(
      SettingReader r, OptionalDouble rate, Optional<Ramp> ramp, List<Integer> prompts) {
    Optional<Ramp> rateRamp = ramp.filter(x -> x.kind() == Ramp.Kind.RATE);
    if (prompts.isEmpty() || (rate.isEmpty() && rateRamp.isEmpty())) {
      return;
    }
    int most = Collections.max(prompts);
    // a ramp's mean rate: the arrivals it expects over a unit of its length
    double perSecond = rate.isPresent() ? rate.getAsDouble() : rateRamp.get().cumulative(1, 1);
    double seconds = most / perSecond;
    if (seconds <= MAX_SECONDS) {
      return;
    }
    String accepted =
        String.format(
            Locale.ROOT,
            "a rate that sends -Dprompts=%d within %d s, -Dduration's limit: from %.3g requests/s"
                + " (at this one they would take %.3g s)",
            most,
            MAX_SECONDS,
            most / (double) MAX_SECONDS,
            seconds);
    if (rate.isPresent()) {
      throw SettingsException.invalid(RATE.name(), r.raw(RATE).get(), accepted);
    }
    throw new SettingsException(
        "Invalid -D"
            + RAMP_START.name()
            + "="
            + r.raw(RAMP_START).get()
            + " and -D"
            + RAMP_END.name()
            + "="
            + r.raw(RAMP_END).get()
            + ": expected a mean "
            + accepted);
  }

  /**
   * {@code -Dramp} with {@code -Dramp.start}/{@code -Dramp.end} (an open-model rate ramp) or with
   * {@code -Dramp.conc} (a closed-model one, linear when {@code -Dramp} is not given).
   *
   * @param fixedLoad whether {@code -Dladder} or {@code -Drate} was given
   */
  private static Optional<Ramp> readRamp(SettingReader r, boolean fixedLoad) {
    Optional<String> shapeName = r.optional(RAMP);
    Optional<Double> start = r.optional(RAMP_START);
    Optional<Double> end = r.optional(RAMP_END);
    Optional<String> conc = r.optional(RAMP_CONC);
    if (shapeName.isEmpty() && conc.isEmpty()) {
      if (start.isPresent() || end.isPresent()) {
        throw new SettingsException(
            "-D"
                + (start.isPresent() ? "ramp.start" : "ramp.end")
                + " belongs to a rate ramp: add -Dramp=linear or -Dramp=exponential");
      }
      return Optional.empty();
    }
    if (fixedLoad || r.isSet(CONC)) {
      throw new SettingsException(
          "-Dramp cannot be combined with -Dconc, -Dladder or -Drate: the ramp is the level's load"
              + " (-Dramp.start/-Dramp.end for a rate, -Dramp.conc=C0:C1 for a concurrency)");
    }
    Ramp.Shape shape =
        shapeName
            .map(n -> n.equals("exponential") ? Ramp.Shape.EXPONENTIAL : Ramp.Shape.LINEAR)
            .orElse(Ramp.Shape.LINEAR);
    if (conc.isPresent()) {
      if (start.isPresent() || end.isPresent()) {
        throw new SettingsException(
            "-Dramp.conc ramps a concurrency, -Dramp.start/-Dramp.end a rate: give one of them");
      }
      String accepted = "C0:C1, whole numbers from 1 to " + CONC_LIMIT + " that differ, e.g. 1:64";
      String[] parts = conc.get().split(":", -1);
      try {
        int c0 = Parser.asciiInt(parts[0].trim());
        int c1 = Parser.asciiInt(parts[1].trim());
        if (parts.length != 2
            || c0 < 1
            || c1 < 1
            || c0 > CONC_LIMIT
            || c1 > CONC_LIMIT
            || c0 == c1) {
          throw new NumberFormatException();
        }
        return Optional.of(new Ramp(shape, Ramp.Kind.CONCURRENCY, c0, c1));
      } catch (RuntimeException e) {
        throw SettingsException.invalid("ramp.conc", conc.get(), accepted);
      }
    }
    if (start.isEmpty() || end.isEmpty()) {
      throw new SettingsException(
          "-Dramp="
              + shapeName.get()
              + " needs -Dramp.start=R0 and -Dramp.end=R1 (requests/s), or -Dramp.conc=C0:C1");
    }
    if (shape == Ramp.Shape.EXPONENTIAL && start.get() == 0) {
      throw SettingsException.invalid(
          "ramp.start", "0", "a rate above 0: an exponential ramp grows by a factor");
    }
    if (start.get().equals(end.get())) {
      throw new SettingsException(
          "-Dramp.start and -Dramp.end are both "
              + Level.plainNumber(start.get())
              + ": a constant rate is -Drate="
              + Level.plainNumber(start.get()));
    }
    return Optional.of(new Ramp(shape, Ramp.Kind.RATE, start.get(), end.get()));
  }
}
