package io.github.llmbench.compare;

import io.github.llmbench.analysis.Comparison;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Verdicts;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Several runs side by side, level by level: pure (no I/O), over read {@code summary.json}s. The
 * first run is the baseline; each other run's value of each metric is given with its ratio to the
 * baseline's and whether it is better or worse (higher throughput, lower latency, fewer failures is
 * better).
 *
 * <p>Levels: the union of every run's {@code levels} (a summary without {@code levels}, as older
 * single-level ones, is one level from its top-level fields, named {@code c<max_concurrency>} or
 * {@code all}); {@code warmup} is left out. Ladder order: levels with a concurrency (their {@code
 * max_concurrency}, else the N of a name {@code cN}) by concurrency, then the others in the order
 * they were first met.
 *
 * <p>A value is missing (null, never zero) when the run has no such level, the field is absent,
 * null, not a finite number, or (steady-state throughput) the level never reached its steady state.
 * A ratio is missing when either value is, or the baseline is 0 and the value is not (two zeros:
 * 1).
 *
 * @param history where each pair's run-to-run noise may come from ({@link CompareHistory#NONE}
 *     without {@code --history})
 */
public record RunComparison(
    List<ComparedRun> runs, List<ComparedLevel> levels, CompareHistory history) {

  /** A run's relative change within this of the baseline counts as the same, not coloured. */
  public static final double SAME_WITHIN = 0.01;

  /** Which way is better. */
  public enum Direction {
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER
  }

  /** A value against the baseline's. */
  public enum Verdict {
    BETTER,
    WORSE,
    SAME
  }

  /**
   * A compared figure.
   *
   * @param key its name in the comparison ({@code p99_tpot_ms}: vLLM's field where it has one)
   * @param label as shown
   * @param unit as shown ({@code ms}, {@code tok/s}, ...)
   * @param read its value in a level; null or not finite when the level does not have it
   * @param samples its field in a level's {@link LevelSamples}, null for a figure without an
   *     interval (the failed count)
   * @param history its name in a history ({@code tpot.mean}, as gates name it), null for a figure
   *     judged without one
   */
  public record Figure(
      String key,
      String label,
      String unit,
      Direction direction,
      Function<LevelSummary, Double> read,
      String samples,
      String history) {

    static Figure latency(Metric metric, Statistic stat) {
      LatencyFigure f = new LatencyFigure(metric, stat);
      return new Figure(
          f.summaryField(),
          f.label(),
          "ms",
          Direction.LOWER_IS_BETTER,
          l -> l.figures().latency(f),
          f.summaryField(),
          new GateMetric.Latency(f).key());
    }
  }

  public static final Figure REQUEST_THROUGHPUT =
      new Figure(
          "request_throughput",
          "Request throughput",
          "req/s",
          Direction.HIGHER_IS_BETTER,
          l -> l.figures().requestThroughput(),
          null,
          null);

  public static final Figure OUTPUT_THROUGHPUT =
      new Figure(
          "output_throughput",
          "Output token throughput",
          "tok/s",
          Direction.HIGHER_IS_BETTER,
          l -> l.figures().outputThroughput(),
          LevelSamples.OUTPUT_THROUGHPUT,
          GateMetric.OUTPUT_THROUGHPUT.key());

  /** Shown as a whole number (its unit is empty: a count). */
  public static final Figure FAILED =
      new Figure(
          "failed",
          "Failed requests",
          "",
          Direction.LOWER_IS_BETTER,
          l -> (double) l.figures().failed(),
          null,
          null);

  public static final Figure STEADY_OUTPUT_THROUGHPUT =
      new Figure(
          "steady_output_throughput",
          "Steady-state output throughput",
          "tok/s",
          Direction.HIGHER_IS_BETTER,
          LevelSummary::steadyOutputThroughput,
          LevelSamples.STEADY_OUTPUT_THROUGHPUT,
          GateMetric.STEADY_OUTPUT_THROUGHPUT.key());

  /** The compared figures, in the order shown. */
  public static final List<Figure> METRICS =
      List.of(
          REQUEST_THROUGHPUT,
          OUTPUT_THROUGHPUT,
          Figure.latency(Metric.TTFT, Statistic.MEAN),
          Figure.latency(Metric.TTFT, Statistic.MEDIAN),
          Figure.latency(Metric.TTFT, Statistic.P99),
          Figure.latency(Metric.TPOT, Statistic.MEAN),
          Figure.latency(Metric.TPOT, Statistic.P99),
          Figure.latency(Metric.ITL, Statistic.MEAN),
          Figure.latency(Metric.ITL, Statistic.P99),
          Figure.latency(Metric.E2EL, Statistic.MEAN),
          Figure.latency(Metric.E2EL, Statistic.P99),
          FAILED,
          STEADY_OUTPUT_THROUGHPUT);

  /** One run to compare: its label and its {@code summary.json}. */
  public record Input(String label, Summary summary) {}

  /**
   * A run's label and metadata (null where the summary has none).
   *
   * @param levels the run's own levels, in its order
   */
  public record ComparedRun(
      String label,
      String model,
      String baseUrl,
      String dataset,
      String date,
      String seed,
      List<String> levels) {}

  /** The confidence of a comparison's interval. */
  public static final double CONFIDENCE = 0.95;

  /**
   * One run's value of one metric at one level.
   *
   * @param value null when missing
   * @param ratio value / the baseline's value; null when it cannot be computed
   * @param verdict against the baseline; null when either value is missing: from {@code test} when
   *     there is one ({@link Verdict#SAME} for no detectable difference), else within {@link
   *     #SAME_WITHIN}
   * @param test the ratio of the two runs' figures (geometric means across trials) with its
   *     interval and what it could detect; null where a side has no trials, and for the baseline's
   *     own cell
   * @param noVerdict why a figure both runs have a spread for gets no verdict (a side ran one
   *     trial: its within-run interval says nothing of run-to-run noise, and no history gave the
   *     noise), null otherwise; the verdict is then null and the ratio still shown
   * @param noise the noise {@code test} was judged with when a history gave it, null when the
   *     trials did (or there is no test)
   */
  public record Cell(
      Double value, Double ratio, Verdict verdict, Comparison test, String noVerdict, Noise noise) {
    public Cell(Double value, Double ratio, Verdict verdict) {
      this(value, ratio, verdict, null, null, null);
    }
  }

  /** Why two single runs get no verdict. */
  public static final String ONE_RUN_A_SIDE =
      "one run a side: run-to-run noise unknown; -Dtrials=N, or --history DIR of runs kept with"
          + " -Dhistory";

  /** One metric at one level: a cell per run, the baseline's first. */
  public record Row(Figure figure, List<Cell> cells) {}

  /**
   * One level across the runs.
   *
   * @param concurrency null when unknown (e.g. an open-model level)
   * @param present per run, whether it has the level
   */
  public record ComparedLevel(
      String name, Integer concurrency, List<Boolean> present, List<Row> rows) {

    /**
     * Whether a title should state the concurrency: its name is not the closed-model level of it
     * (as {@code c8} is).
     */
    public boolean concurrencyNotInName() {
      return concurrency != null && !name.equals(Level.closed(concurrency).tag());
    }

    /** The row of a metric key. */
    public Row row(String key) {
      for (Row r : rows) {
        if (r.figure().key().equals(key)) {
          return r;
        }
      }
      throw new IllegalArgumentException("no metric " + key);
    }
  }

  public RunComparison {
    runs = List.copyOf(runs);
    levels = List.copyOf(levels);
    Objects.requireNonNull(history, "history");
  }

  /** The level of that name, or null. */
  public ComparedLevel level(String name) {
    for (ComparedLevel l : levels) {
      if (l.name().equals(name)) {
        return l;
      }
    }
    return null;
  }

  /** Compares the runs; the first is the baseline; no history. */
  public static RunComparison of(List<Input> inputs) {
    return of(inputs, CompareHistory.NONE);
  }

  /**
   * Compares the runs; the first is the baseline. Each other run's figures are judged with the
   * noise the history gives the pair where it gives one, else as without a history.
   */
  public static RunComparison of(List<Input> inputs, CompareHistory history) {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("no runs to compare");
    }
    List<ComparedRun> infos = new ArrayList<>();
    List<Map<String, LevelSummary>> levelsByRun = new ArrayList<>();
    // union of levels, first met first; concurrency from the first run that tells it
    Map<String, Integer> order = new LinkedHashMap<>();
    Map<String, Integer> concurrency = new LinkedHashMap<>();
    for (Input in : inputs) {
      Map<String, LevelSummary> levels = in.summary().measuredLevels();
      levelsByRun.add(levels);
      RunInfo run = in.summary().run();
      infos.add(
          new ComparedRun(
              in.label(),
              run.modelId(),
              run.baseUrl(),
              run.dataset(),
              run.date(),
              run.seed() == null ? null : run.seed().toString(),
              List.copyOf(levels.keySet())));
      levels.forEach(
          (name, level) -> {
            order.putIfAbsent(name, order.size());
            if (!concurrency.containsKey(name) || concurrency.get(name) == null) {
              concurrency.put(name, concurrencyOf(name, level));
            }
          });
    }
    List<String> names = new ArrayList<>(order.keySet());
    names.sort(
        Comparator.comparing((String n) -> concurrency.get(n) == null)
            .thenComparing(n -> concurrency.get(n) == null ? 0 : concurrency.get(n))
            .thenComparing(order::get));

    List<ComparedLevel> levels = new ArrayList<>();
    for (String name : names) {
      List<Boolean> present = new ArrayList<>();
      for (Map<String, LevelSummary> l : levelsByRun) {
        present.add(l.containsKey(name));
      }
      List<Row> rows = new ArrayList<>();
      for (Figure m : METRICS) {
        List<Cell> cells = new ArrayList<>();
        Double base = value(levelsByRun.get(0).get(name), m);
        TrialValues baseSamples = samples(levelsByRun.get(0).get(name), m);
        for (int i = 0; i < levelsByRun.size(); i++) {
          LevelSummary l = levelsByRun.get(i).get(name);
          CompareHistory.PairNoise noise =
              i == 0 || m.history() == null
                  ? new CompareHistory.NoHistory()
                  : history.noise(i, name, m.history());
          cells.add(cell(m, base, baseSamples, value(l, m), i == 0 ? null : samples(l, m), noise));
        }
        rows.add(new Row(m, List.copyOf(cells)));
      }
      levels.add(
          new ComparedLevel(name, concurrency.get(name), List.copyOf(present), List.copyOf(rows)));
    }
    return new RunComparison(infos, levels, history);
  }

  /**
   * One run's cell of a figure: its value, its ratio to the baseline's and the verdict: from the
   * history's noise where it gives the pair one (single runs or trials alike), else from the
   * trials' interval where both sides have trials, none (and why) where a side ran once and has
   * only a within-run interval, else within {@link #SAME_WITHIN}.
   *
   * @param mine the run's samples of the figure; null for the baseline's own cell or none
   * @param noise what the history gives this figure of the pair
   */
  private static Cell cell(
      Figure m,
      Double base,
      TrialValues baseSamples,
      Double v,
      TrialValues mine,
      CompareHistory.PairNoise noise) {
    boolean comparable = v != null && base != null && mine != null && baseSamples != null;
    if (comparable && noise instanceof CompareHistory.Learned learned) {
      Comparison test =
          Verdicts.compare(
              baseSamples,
              mine,
              m.direction() == Direction.HIGHER_IS_BETTER,
              CONFIDENCE,
              learned.noise());
      return new Cell(v, ratio(v, base), verdictOf(test), test, null, learned.noise());
    }
    Comparison test =
        v == null || base == null || mine == null || baseSamples == null
            ? null
            : Verdicts.compare(
                baseSamples, mine, m.direction() == Direction.HIGHER_IS_BETTER, CONFIDENCE);
    if (test != null && test.ratio().basis() == Interval.Basis.NONE) {
      test = null;
    }
    if (test != null && test.ratio().basis() != Interval.Basis.TRIALS) {
      // a one-trial side: its interval is over its own requests, blind to run-to-run noise
      String why = noVerdict(baseSamples.n(), mine.n());
      if (noise instanceof CompareHistory.Unavailable u) {
        why = why.substring(0, why.indexOf(';')) + "; " + u.why();
      }
      return new Cell(v, ratio(v, base), null, null, why, null);
    }
    Verdict verdict = test == null ? verdict(v, base, m.direction()) : verdictOf(test);
    return new Cell(v, ratio(v, base), verdict, test, null, null);
  }

  private static Verdict verdictOf(Comparison test) {
    return switch (test.change()) {
      case WORSE -> Verdict.WORSE;
      case BETTER -> Verdict.BETTER;
      case NO_DETECTABLE_DIFFERENCE -> Verdict.SAME;
    };
  }

  /**
   * Why a one-trial side gets no verdict: one run a side, or two different bases; what would give
   * the noise after the first {@code ;}.
   */
  static String noVerdict(int baselineTrials, int trials) {
    if (baselineTrials == 1 && trials == 1) {
      return ONE_RUN_A_SIDE;
    }
    return "the bases differ: "
        + baselineTrials
        + (baselineTrials == 1 ? " trial" : " trials")
        + " against "
        + trials
        + ", one side's run-to-run noise unknown; the same -Dtrials=N on both, or --history DIR";
  }

  private static Integer concurrencyOf(String name, LevelSummary level) {
    Integer c = level.figures().maxConcurrency();
    if (c != null && c > 0) {
      return c;
    }
    return Level.parse(name).orElse(null) instanceof Level.Closed closed
        ? Integer.valueOf(closed.conc())
        : null;
  }

  private static TrialValues samples(LevelSummary level, Figure m) {
    return level == null || m.samples() == null ? null : level.samples().get(m.samples());
  }

  /** The figure's value in a level; null when missing (see the class comment). */
  static Double value(LevelSummary level, Figure m) {
    if (level == null) {
      return null;
    }
    Double v = m.read().apply(level);
    return v != null && Double.isFinite(v) ? v : null;
  }

  static Double ratio(Double value, Double base) {
    if (value == null || base == null) {
      return null;
    }
    if (base == 0.0) {
      return value == 0.0 ? 1.0 : null;
    }
    return value / base;
  }

  static Verdict verdict(Double value, Double base, Direction d) {
    if (value == null || base == null) {
      return null;
    }
    double diff = value - base;
    double scale = Math.max(Math.abs(base), Math.abs(value));
    if (diff == 0.0
        || (base != 0.0 && Math.abs(diff) <= SAME_WITHIN * Math.abs(base))
        || scale == 0.0) {
      return Verdict.SAME;
    }
    boolean higher = diff > 0;
    return higher == (d == Direction.HIGHER_IS_BETTER) ? Verdict.BETTER : Verdict.WORSE;
  }
}
