package io.github.llmbench.settings;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The performance gates' group of settings ({@code -Dhelp}'s "Report, gates and capacity search",
 * second part): the gates as typed, which the gates package parses before any load.
 *
 * @param exitOnFailure whether a broken gate ends the JVM with status 2 once Gatling's report is
 *     written ({@code -Dllmbench.exit.on.gates=false} for runs embedded in a longer-lived JVM, such
 *     as tests)
 */
public record GateSettings(GateEntries entries, boolean exitOnFailure) {

  private static final String HEADING = SettingsTable.REPORT;
  private static final Parser<String> TEXT = Parser.text();

  /**
   * The limit of the gate every run has unless one on {@code failed.pct} is given (the gates
   * package adds it): at most 1% of a level's requests may fail.
   */
  public static final double DEFAULT_FAILED_PCT = 1;

  /** {@code gate.power}: the chance a relative gate must FAIL a change of its threshold. */
  public static final String POWER_KEY = "power";

  /** The default of {@link #POWER_KEY}. */
  public static final double DEFAULT_POWER = 0.9;

  /** {@code gate.family}: how a run of many gates x levels holds its family-wise false alarm. */
  public static final String FAMILY_KEY = "family";

  /** {@code gate.family=bonferroni}: each of k gates x levels judged at false alarm alpha / k. */
  public static final String BONFERRONI = "bonferroni";

  /**
   * {@code gate.power}'s value: a number in (0.5, 1).
   *
   * @param name the setting as given, for the message ({@code -Dgate.power})
   * @throws IllegalArgumentException one line naming it, its value and what is accepted
   */
  public static double power(String value, String name) {
    try {
      double p = Double.parseDouble(value.trim());
      if (p > 0.5 && p < 1) {
        return p;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException(
        "Invalid gate "
            + name
            + "="
            + value
            + ": expected a number above 0.5 and below 1, e.g. "
            + Level.plainNumber(DEFAULT_POWER));
  }

  /**
   * {@code gate.family}'s value: whether each gate is judged at alpha / k ({@value #BONFERRONI}) or
   * at alpha ({@code none}).
   */
  public static boolean bonferroni(String value, String name) {
    String v = value.trim();
    if (v.equals(BONFERRONI) || v.equals("none")) {
      return v.equals(BONFERRONI);
    }
    throw new IllegalArgumentException(
        "Invalid gate " + name + "=" + value + ": expected " + BONFERRONI + " or none");
  }

  /**
   * {@code -Dgate.goodput}'s form in the help, over the metrics the objectives take; TTFO's key is
   * the gates' (settings may not use them), so RunGatesTest holds this to GoodputSpec's form.
   */
  static final String GOODPUT_PLACEHOLDER =
      Metric.PER_REQUEST.stream().map(m -> m.key() + ":MS").collect(Collectors.joining(" "))
          + " ttfo:MS task:MS";

  public static final Setting<String> GATE =
      Setting.without(
          HEADING,
          "gate.",
          SloFigure.FAILED_PCT.key() + " <= " + Level.plainNumber(DEFAULT_FAILED_PCT),
          "-Dgate.[LEVEL.]METRIC=LIMIT (e.g. gate."
              + new LatencyFigure(Metric.TPOT, Statistic.P99).key()
              + "=50, gate.c64."
              + SloFigure.FAILED_PCT.key()
              + "=1, +10%), gate.goodput="
              + GOODPUT_PLACEHOLDER,
          "a performance gate: the run fails (exit 2) when it breaks; how gates judge:"
              + " gate.confidence=0.95 (false alarm 1 - it), gate."
              + POWER_KEY
              + "="
              + Level.plainNumber(DEFAULT_POWER)
              + " (a relative gate's chance to fail a change of its threshold), gate."
              + FAMILY_KEY
              + "="
              + BONFERRONI
              + " (each of k gates x levels at false alarm alpha / k), gate.inconclusive=pass|fail",
          TEXT);
  public static final Setting<String> GATES =
      Setting.without(
          HEADING, "gates", "none", "a gates file, JSON or properties", "gates from a file", TEXT);
  public static final Setting<String> BASELINE =
      Setting.without(
          HEADING,
          "baseline",
          "none",
          "a run folder, or its llm/summary.json",
          "the run that relative gates (+10%) refer to",
          TEXT);

  /**
   * {@code gate.run.noise}: the run-to-run noise a stored-baseline gate is judged with where no
   * history gives one, as a log standard deviation of a run's figure beyond its trials' spread.
   * Without it (or history) a gate's trials cannot see how far two runs differ, and its error rates
   * are unknown; a number the kit did not measure, so every gate line names it as declared.
   */
  public static final Setting<Double> GATE_RUN_NOISE =
      Setting.without(
          HEADING,
          "gate.run.noise",
          "none (unknown: relative gates say their error rates are unknown, unless -Dhistory"
              + " gives it)",
          "a log standard deviation above 0 and below 1, e.g. 0.07 (about 7% from run to run)",
          "the run-to-run noise of a relative gate against -Dbaseline, as measured on this"
              + " testbed: how far a run's figure strays beyond its trials' spread",
          Parser.number(
              v -> v > 0 && v < 1,
              "a log standard deviation above 0 and below 1, e.g. 0.07 (about 7% from run to"
                  + " run)"));

  /** Only {@code false} turns it off: any other value keeps the default. */
  public static final Setting<Boolean> EXIT_ON_GATES =
      Setting.of(
          HEADING,
          "llmbench.exit.on.gates",
          true,
          "true or false",
          "false: a broken gate is reported, the command still succeeds",
          (name, raw) -> !"false".equalsIgnoreCase(raw));

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(GATE, GATES, BASELINE, GATE_RUN_NOISE, EXIT_ON_GATES);

  /** Reads the group's settings: the {@code -Dgate.*} family as given. */
  static GateSettings read(SettingReader r) {
    Map<String, String> entries = new TreeMap<>();
    r.properties()
        .forEach(
            (k, v) -> {
              // a gate.* name registered as a setting of its own (gate.history, gate.run.noise)
              // is no gate on a level
              if (k.startsWith(GATE.name())
                  && SettingsTable.get(k).filter(st -> !st.family()).isEmpty()) {
                entries.put(k.substring(GATE.name().length()), v);
              }
            });
    return new GateSettings(
        new GateEntries(
            entries, r.optional(GATES), r.optional(BASELINE), r.optional(GATE_RUN_NOISE)),
        r.get(EXIT_ON_GATES));
  }

  /**
   * The performance gates as typed: the {@code -Dgate.*} entries (without {@code gate.}), the
   * {@code -Dgates} file and the {@code -Dbaseline} run, as given, and the run-to-run noise
   * declared ({@code -Dgate.run.noise}, checked). The gates package reads the file and the baseline
   * and parses the gates, before any load.
   */
  public record GateEntries(
      Map<String, String> entries,
      Optional<String> file,
      Optional<String> baseline,
      Optional<Double> runNoise) {
    public GateEntries {
      entries = Collections.unmodifiableMap(new TreeMap<>(entries));
    }
  }
}
