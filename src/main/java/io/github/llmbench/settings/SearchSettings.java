package io.github.llmbench.settings;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A search for the capacity at SLO: closed-model concurrency levels ({@code -Dsearch=conc}) or
 * open-model request rates ({@code -Dsearch=rate}) probed from {@code min} up to {@code max}, each
 * for {@code -Dduration} s, until the highest that meets the objectives is bracketed within {@code
 * precision}, or the budget is spent.
 *
 * @param rate whether the probed loads are request rates (open model) rather than concurrencies
 * @param objectives each objective's figure and its upper limit, in the order given, e.g. {@code
 *     ttft.p99 -> 2000}
 */
public record SearchSettings(
    boolean rate,
    Map<SloFigure, Double> objectives,
    double min,
    double max,
    double precision,
    int budgetMinutes)
    implements RunModeSettings {

  private static final String HEADING = SettingsTable.REPORT;
  private static final Parser<String> TEXT = Parser.text();

  /** {@code -Dsearch.max} without a value: the highest concurrency probed, and the highest rate. */
  static final int SEARCH_MAX_CONC = 1024;

  static final double SEARCH_MAX_RATE = 100;

  /**
   * {@code -Dslo}'s example in messages and the settings' help: {@code ttft.p99:2000,tpot.p99:100}.
   */
  static final String SLO_EXAMPLE =
      new LatencyFigure(Metric.TTFT, Statistic.P99).key()
          + ":2000,"
          + new LatencyFigure(Metric.TPOT, Statistic.P99).key()
          + ":100";

  /**
   * The most requests one rate probe may plan ({@code search.max x duration}): each is a Gatling
   * user made at the probe's start.
   */
  static final int MAX_PROBE_REQUESTS = 200_000;

  public static final Setting<String> SEARCH =
      Setting.without(
          HEADING,
          "search",
          "none",
          "conc or rate",
          "search the highest concurrency or request rate meeting -Dslo",
          Parser.word(
              List.of("conc", "rate"),
              "conc (closed-model concurrency) or rate (open-model requests per second)"));
  public static final Setting<String> SLO =
      Setting.without(
          HEADING,
          "slo",
          "none",
          "METRIC:LIMIT,... e.g. " + SLO_EXAMPLE,
          "the capacity search's objectives",
          TEXT);

  /**
   * Read as a rate; a concurrency search reads its text as a whole number ({@link SearchSettings}).
   */
  public static final Setting<Double> SEARCH_MIN =
      Setting.of(
          HEADING,
          "search.min",
          1.0,
          "a number above 0 (whole for conc)",
          "the search's first probe",
          Parser.positiveDouble());

  public static final Setting<Double> SEARCH_MAX =
      Setting.without(
          HEADING,
          "search.max",
          SEARCH_MAX_CONC + " (conc), " + Level.plainNumber(SEARCH_MAX_RATE) + " (rate)",
          "a number above 0 (whole for conc)",
          "the search's highest probe",
          Parser.positiveDouble());
  public static final Setting<Double> SEARCH_PRECISION =
      Setting.of(
          HEADING,
          "search.precision",
          0.1,
          "a number above 0 and below 1",
          "the search ends when its bracket is this close",
          Parser.fraction());
  public static final Setting<Integer> SEARCH_BUDGET =
      Setting.of(
          HEADING,
          "search.budget",
          30,
          "a whole number of minutes from 1",
          "the search's time budget",
          Parser.positiveInt(7 * 24 * 60));

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(SEARCH, SLO, SEARCH_MIN, SEARCH_MAX, SEARCH_PRECISION, SEARCH_BUDGET);

  /** The {@code -Dsearch} value. */
  public String kind() {
    return rate ? "rate" : "conc";
  }

  /**
   * The mode: it chooses the levels itself, in one injector (each injector would search on its
   * own).
   */
  static final RunModeSettings.Kind KIND =
      new RunModeSettings.Kind(
          "a capacity search",
          Optional.of(new SettingsTable.Topic("search", SETTINGS)),
          r -> r.isSet(SEARCH),
          r -> "-Dsearch=" + r.raw(SEARCH).orElse(""),
          List.of(SLO, SEARCH_MIN, SEARCH_MAX, SEARCH_PRECISION, SEARCH_BUDGET),
          "-Dsearch=conc or -Dsearch=rate",
          List.of(
              RunModeSettings.Refusal.of(
                  "chooses the levels itself: drop -Dconc, -Dladder, -Drate, -Dramp, -Dprompts,"
                      + " -Dturns and trace datasets",
                  LoadShape.OPEN,
                  LoadShape.LADDER,
                  LoadShape.RAMP,
                  LoadShape.PROMPTS,
                  LoadShape.TRACE,
                  LoadShape.TURNS,
                  LoadShape.CONC),
              RunModeSettings.Refusal.of(
                  "runs in one injector: with -Dinjector each injector would search on its own;"
                      + " drop -Dinjector",
                  LoadShape.INJECTOR),
              RunModeSettings.Refusal.line(
                  in ->
                      SettingsException.invalid(
                              LoadSettings.TRIALS.name(),
                              in.reader().raw(LoadSettings.TRIALS).orElse(""),
                              "1 here: a capacity search chooses its probes as it runs")
                          .getMessage(),
                  LoadShape.TRIALS)),
          in -> read(in.reader(), in.load().durationSeconds()));

  @Override
  public RunModeSettings.Kind modeKind() {
    return KIND;
  }

  /**
   * Reads the group's settings once the mode is chosen and refuses a bad value, or a bad pair
   * within the group.
   *
   * @param durationSeconds each probe's duration: a rate probe plans {@code search.max} times as
   *     many requests
   */
  static SearchSettings read(SettingReader r, int durationSeconds) {
    String kind = r.optional(SEARCH).orElseThrow();
    boolean rate = kind.equals("rate");
    String flag = "-Dsearch=" + kind;
    Map<SloFigure, Double> objectives = objectives(r, flag);
    Range range = rate ? rateRange(r, durationSeconds) : concRange(r);
    range.check(r);
    double precision = r.get(SEARCH_PRECISION);
    if (precision == 0) {
      throw SettingsException.invalid(
          "search.precision", "0", "a number above 0 and below 1, e.g. 0.1 for 10%");
    }
    int budget = r.get(SEARCH_BUDGET);
    return new SearchSettings(rate, objectives, range.min(), range.max(), precision, budget);
  }

  /**
   * {@code -Dslo}'s objectives, in the order given; {@code flag} names the search that needs them.
   */
  static Map<SloFigure, Double> objectives(SettingReader r, String flag) {
    String accepted =
        "objectives as METRIC:LIMIT separated by commas, e.g. "
            + SLO_EXAMPLE
            + " (METRIC one of "
            + SloFigure.accepted()
            + ")";
    String raw =
        r.optional(SLO)
            .orElseThrow(
                () -> new SettingsException(flag + " needs objectives: -Dslo=" + SLO_EXAMPLE));
    Map<SloFigure, Double> objectives = new LinkedHashMap<>();
    for (String part : raw.split(",")) {
      String[] kv = part.trim().split(":");
      Optional<SloFigure> figure = kv.length == 2 ? SloFigure.parse(kv[0]) : Optional.empty();
      try {
        double limit = figure.isPresent() ? Double.parseDouble(kv[1]) : Double.NaN;
        if (figure.isEmpty() || !(limit >= 0) || Double.isInfinite(limit)) {
          throw new NumberFormatException();
        }
        objectives.put(figure.get(), limit);
      } catch (NumberFormatException e) {
        throw SettingsException.invalid("slo", raw, accepted);
      }
    }
    return objectives;
  }

  /** The lowest and the highest load a search probes. */
  private record Range(double min, double max) {
    void check(SettingReader r) {
      if (max < min) {
        throw new SettingsException(
            "-Dsearch.max="
                + r.raw(SEARCH_MAX).orElse(String.valueOf(max))
                + " is below -Dsearch.min="
                + r.raw(SEARCH_MIN).orElse(String.valueOf(min)));
      }
    }
  }

  /** A rate search's range; its highest probe plans {@code search.max x duration} requests. */
  private static Range rateRange(SettingReader r, int durationSeconds) {
    double min = r.get(SEARCH_MIN);
    double max = r.optional(SEARCH_MAX).orElse(SEARCH_MAX_RATE);
    double planned = max * durationSeconds;
    if (planned > MAX_PROBE_REQUESTS) {
      throw new SettingsException(
          String.format(
              Locale.ROOT,
              "-Dsearch.max=%s x -Dduration=%d plans %.0f requests for one rate probe: at most %d (lower either)",
              r.raw(SEARCH_MAX).orElse(Level.plainNumber(SEARCH_MAX_RATE)),
              durationSeconds,
              planned,
              MAX_PROBE_REQUESTS));
    }
    return new Range(min, max);
  }

  /** A concurrency search's range: the same settings, read as whole numbers. */
  private static Range concRange(SettingReader r) {
    Parser<Integer> level = Parser.positiveInt(LoadSettings.CONC_LIMIT);
    int min =
        r.raw(SEARCH_MIN)
            .map(v -> level.parse(SEARCH_MIN.name(), v))
            .orElse(SEARCH_MIN.typedDefault().orElseThrow().intValue());
    int max = r.raw(SEARCH_MAX).map(v -> level.parse(SEARCH_MAX.name(), v)).orElse(SEARCH_MAX_CONC);
    return new Range(min, max);
  }
}
