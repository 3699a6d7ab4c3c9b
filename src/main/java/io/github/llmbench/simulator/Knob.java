package io.github.llmbench.simulator;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * One of the simulator's knobs ({@link SimKnobs}): its names, its reader, its default, its help,
 * how it sets a {@link SimulatorConfig} and how a run's settings lines show it. Built by name
 * ({@link #property} or {@link #flagOnly}, then {@link Builder}); compared by identity, as the
 * table's constants are.
 *
 * @param <T> its value's type
 */
public final class Knob<T> {
  private final String name;
  private final boolean property;
  private final List<String> flags;
  private final Reader<T> reader;
  private final T defaultValue;
  private final String defaultWords;
  private final String accepted;
  private final String meaning;
  private final Supplier<String> usage;
  private final BiFunction<SimulatorConfig, T, SimulatorConfig> sets;
  private final boolean own;
  private final Line<T> line;

  private Knob(Builder<T> b) {
    this.name = b.name;
    this.property = b.property;
    this.flags = List.copyOf(b.flags);
    this.reader = b.reader;
    this.defaultValue = b.defaultValue;
    this.defaultWords = b.defaultWords != null ? b.defaultWords : shown(b.defaultValue);
    this.accepted = Objects.requireNonNull(b.accepted, "help");
    this.meaning = Objects.requireNonNull(b.meaning, "help");
    this.usage = b.usage != null ? b.usage : () -> defaultWords;
    this.own = b.sets == null;
    this.sets = own ? (c, v) -> c.withValue(this, v) : b.sets;
    this.line = b.line;
    if (!property && flags.isEmpty()) {
      throw new IllegalArgumentException(name + ": a knob neither the kit nor the CLI sets");
    }
  }

  /** A knob the kit sets as {@code -Dsim.<name>} (and the CLI too, given {@link Builder#flags}). */
  static <T> Builder<T> property(String name, Reader<T> reader, T defaultValue) {
    return new Builder<>(name, true, reader, defaultValue);
  }

  /** A knob of the standalone simulator alone: the kit sets it itself, or not at all. */
  static <T> Builder<T> flagOnly(String name, Reader<T> reader, T defaultValue) {
    return new Builder<>(name, false, reader, defaultValue);
  }

  /** The kit's {@code -Dsim.<name>}; empty for a flag of the standalone simulator alone. */
  public Optional<String> property() {
    return property ? Optional.of(SimKnobs.PREFIX + name) : Optional.empty();
  }

  /** The standalone simulator's flags, the usage's first; empty where only the kit sets it. */
  public List<String> flags() {
    return flags;
  }

  public Reader<T> reader() {
    return reader;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** The default as the help words it ({@code 1}, not {@code 1.0}; {@code none}). */
  public String defaultWords() {
    return defaultWords;
  }

  /** What it accepts, as the help words it. */
  public String accepted() {
    return accepted;
  }

  public String meaning() {
    return meaning;
  }

  /** The value the usage line shows after the flag: the default, or the choices or a name. */
  public String usage() {
    return usage.get();
  }

  /** How a run's settings lines show it. */
  public Line<T> line() {
    return line;
  }

  /**
   * Whether a config keeps a value of its own under it; the others set part of another's value
   * ({@code --spec-acceptance} the speculation's).
   */
  boolean own() {
    return own;
  }

  /** {@code config} with this knob set to {@code value}. */
  SimulatorConfig appliedTo(SimulatorConfig config, T value) {
    return sets.apply(config, Objects.requireNonNull(value, name));
  }

  /** Whether {@code value} is the default (numbers by value: {@code -0.0} is {@code 0}). */
  public boolean isDefault(T value) {
    return value instanceof Double d
        ? d.doubleValue() == ((Double) defaultValue).doubleValue()
        : value.equals(defaultValue);
  }

  @Override
  public String toString() {
    return property ? SimKnobs.PREFIX + name : flags.get(0);
  }

  private static String shown(Object value) {
    if (value instanceof Double d) {
      return SimKnobs.plain(d);
    }
    return value instanceof Dialect d ? d.id() : String.valueOf(value);
  }

  /** Reads a knob's text (the kit's trimmed, the CLI's as given), or refuses it. */
  @FunctionalInterface
  public interface Reader<T> {
    /**
     * @throws Refused when the text is no value of the knob
     */
    T read(String text);
  }

  /** A knob's text refused; {@link #accepted()} says what the knob takes. */
  public static final class Refused extends IllegalArgumentException {
    private final String accepted;

    Refused(String accepted) {
      super("expected " + accepted);
      this.accepted = accepted;
    }

    public String accepted() {
      return accepted;
    }
  }

  /**
   * Where a run's settings lines ({@code summary.json}'s {@code settings}, in this order) show a
   * {@code -Dsim.*} knob.
   */
  public enum Part {
    /** No line. */
    NONE,
    /** What the simulator plays: the model, the GPU, the server's dialect. */
    SERVER,
    /** A part of the one {@code sim.engine} line: its label and value. */
    ENGINE,
    /** A change to the engine: faults, step times, chunks, speculation, disaggregation. */
    CHANGES,
    /** What the answers carry besides their tokens: thinking. */
    ANSWERS
  }

  /** The words of a knob's line: its value, and the run's seed where the value draws from it. */
  @FunctionalInterface
  public interface Words<T> {
    String of(T value, long seed);
  }

  /**
   * How a run's settings lines show a knob.
   *
   * @param part where (an {@link Part#ENGINE} part's words are its label)
   * @param always whether the line is there at the default too
   * @param keyed whether a history's key holds the line: it changes the server measured (noise and
   *     a slowdown do not: a key that held them would start a new series where a regression shows)
   */
  public record Line<T>(Part part, boolean always, boolean keyed, Words<T> words) {

    static <T> Line<T> none() {
      return new Line<>(Part.NONE, false, false, (v, seed) -> "");
    }

    /** What the simulator plays, always shown. */
    static <T> Line<T> always(Words<T> words) {
      return new Line<>(Part.SERVER, true, true, words);
    }

    /** What the simulator plays, shown when not the default. */
    static <T> Line<T> server(Words<T> words) {
      return new Line<>(Part.SERVER, false, true, words);
    }

    /** A part of {@code sim.engine}: {@code label value}. */
    static <T> Line<T> engine(String label) {
      return new Line<>(Part.ENGINE, true, true, (v, seed) -> label + " " + v);
    }

    /** A change to the engine, shown when set. */
    static <T> Line<T> change(Words<T> words) {
      return new Line<>(Part.CHANGES, false, true, words);
    }

    /** A change to the step times alone (noise, a slowdown), shown when set; no history key. */
    static <T> Line<T> stepTimes(Words<T> words) {
      return new Line<>(Part.CHANGES, false, false, words);
    }

    /** What the answers carry, shown when set. */
    static <T> Line<T> answers(Words<T> words) {
      return new Line<>(Part.ANSWERS, false, true, words);
    }
  }

  /** A knob's parts, given by name. */
  static final class Builder<T> {
    private final String name;
    private final boolean property;
    private final Reader<T> reader;
    private final T defaultValue;
    private List<String> flags = List.of();
    private String defaultWords;
    private String accepted;
    private String meaning;
    private Supplier<String> usage;
    private BiFunction<SimulatorConfig, T, SimulatorConfig> sets;
    private Line<T> line = Line.none();

    private Builder(String name, boolean property, Reader<T> reader, T defaultValue) {
      this.name = name;
      this.property = property;
      this.reader = reader;
      this.defaultValue = Objects.requireNonNull(defaultValue, name);
    }

    /** The standalone simulator's flags, the usage's first (vLLM's names where vLLM has it). */
    Builder<T> flags(String... flags) {
      this.flags = List.of(flags);
      return this;
    }

    /** The default as the help words it, where its value's text does not say it. */
    Builder<T> defaultWords(String words) {
      this.defaultWords = words;
      return this;
    }

    /** What it accepts and what it means, as the help words them. */
    Builder<T> help(String accepted, String meaning) {
      this.accepted = accepted;
      this.meaning = meaning;
      return this;
    }

    /** What the usage shows after the flag, where not the default. */
    Builder<T> usage(Supplier<String> usage) {
      this.usage = usage;
      return this;
    }

    /** Sets part of another knob's value instead of a value of its own. */
    Builder<T> sets(BiFunction<SimulatorConfig, T, SimulatorConfig> sets) {
      this.sets = sets;
      return this;
    }

    Builder<T> line(Line<T> line) {
      this.line = line;
      return this;
    }

    Knob<T> build() {
      return new Knob<>(this);
    }
  }
}
