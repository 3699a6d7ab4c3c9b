package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Verdicts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks gates against each level's figures, and against a baseline run's figures for relative
 * limits: limit = baseline x (1 + pct / 100), so {@code tpot.p99=+10%} allows 10% slower and {@code
 * output_throughput.min=-5%} 5% less throughput. Pure: no I/O.
 */
public final class GateCheck {
  private GateCheck() {}

  /** Where a capacity search's gate ({@code capacity.min}) is checked: the search, not a level. */
  public static final String SEARCH_LEVEL = "search";

  /**
   * Checks each gate where it applies, with the runs' own trials as noise ({@link GateNoise#NONE}).
   */
  public static List<GateResult> check(GateSet gates, RunFigures run, RunFigures baseline) {
    return check(gates, run, baseline, GateNoise.NONE);
  }

  /**
   * Checks each gate where it applies: at its level when it names one; a capacity gate at the
   * search ({@value #SEARCH_LEVEL}); any other at every measured level. The gates x levels judged
   * on an interval are one family: each is judged at false alarm alpha, or alpha / k under {@code
   * -Dgate.family=bonferroni}, and each judgement says the family's size.
   *
   * @param run this run's figures
   * @param baseline the baseline run's figures ({@link RunFigures#NONE} without a baseline)
   * @param noise the noise known for a relative gate beyond the runs' own trials (history)
   */
  public static List<GateResult> check(
      GateSet gates, RunFigures run, RunFigures baseline, GateNoise noise) {
    List<String> measured = List.copyOf(run.levels().keySet());
    List<Gate> gateOf = new ArrayList<>();
    List<String> whereOf = new ArrayList<>();
    for (Gate g : gates.gates()) {
      List<String> applies =
          g.level() != null
              ? List.of(g.level().tag())
              : g.metric() == GateMetric.CAPACITY ? List.of(SEARCH_LEVEL) : measured;
      for (String where : applies) {
        gateOf.add(g);
        whereOf.add(where);
      }
    }
    GateSet.Judging judging = gates.judging();
    double alpha = 1.0 - judging.confidence();
    // the family: every gate x level judged on an interval at a false alarm it holds
    boolean[] member = new boolean[gateOf.size()];
    int size = 0;
    for (int i = 0; i < gateOf.size(); i++) {
      String where = whereOf.get(i);
      Gate g = gateOf.get(i);
      member[i] =
          judgeable(g, run.level(where), baseline.level(where), noise.of(where, g.metric()));
      size += member[i] ? 1 : 0;
    }
    GateJudgement.Family family =
        new GateJudgement.Family(Math.max(size, 1), alpha, judging.bonferroni());
    List<GateResult> results = new ArrayList<>();
    for (int i = 0; i < gateOf.size(); i++) {
      Gate g = gateOf.get(i);
      String where = whereOf.get(i);
      double figure = run.figure(g.metric(), where);
      double limit = g.limitAt(baseline.figure(g.metric(), where));
      boolean pass =
          !Double.isNaN(figure)
              && !Double.isNaN(limit)
              && (g.upperBound() ? figure <= limit : figure >= limit);
      // outside the family (an uncalibrated relative gate) a gate is judged at alpha itself:
      // dividing a false alarm it does not know by k would hold nothing
      GateJudgement j =
          judge(
              g,
              run.level(where),
              baseline.level(where),
              judging,
              member[i] ? 1.0 - family.perGate() : judging.confidence(),
              noise.of(where, g.metric()));
      if (j != null) {
        if (member[i]) {
          j = j.withFamily(family);
        }
        pass =
            j.verdict() == GateVerdict.PASS
                || (j.verdict() == GateVerdict.INCONCLUSIVE && judging.inconclusivePasses());
      }
      results.add(new GateResult(g, where, limit, figure, pass, j));
    }
    return results;
  }

  /** Whether a judgement counts in the family: its false alarm is known. */
  private static boolean inFamily(GateJudgement j) {
    return j.relative().map(GateJudgement.Relative::errorRatesKnown).orElse(true);
  }

  /**
   * The gates block's line on the relative gates x levels judged without a run-to-run noise: their
   * verdicts are uncalibrated, their error rates unknown and not in the family-wise figure; empty
   * when there are none.
   */
  public static Optional<String> uncalibratedLine(List<GateResult> results) {
    long n =
        results.stream().map(GateResult::judgement).filter(j -> j != null && !inFamily(j)).count();
    if (n == 0) {
      return Optional.empty();
    }
    return Optional.of(
        "Uncalibrated: "
            + n
            + " relative gate"
            + (n == 1 ? "" : "s")
            + " x levels judged without run-to-run noise, their error rates unknown and not"
            + " counted in a family-wise figure: "
            + Noise.RUN_NOISE_UNKNOWN
            + "; "
            + Noise.RUN_NOISE_NEEDED);
  }

  /**
   * The family-wise line of the gates block: how many gates x levels were judged on an interval and
   * the chance that any of them false-alarms; empty when fewer than two were.
   */
  public static Optional<String> familyLine(List<GateResult> results) {
    return results.stream()
        .map(GateResult::judgement)
        .filter(j -> j != null)
        .map(GateJudgement::family)
        .filter(f -> f.size() >= 2)
        .findFirst()
        .map(GateJudgement.Family::line);
  }

  /**
   * Whether a gate at a level will be judged on an interval at a false alarm it holds: a relative
   * one with samples on both sides and a run-to-run noise (history, or declared); an absolute one
   * on trials, or on one run's interval of a mean. A relative gate on the runs' own trials alone is
   * judged, but its false alarm is unknown: dividing it by k would hold nothing, so it is not
   * counted.
   */
  private static boolean judgeable(
      Gate g, LevelFigures run, LevelFigures baseline, Optional<Noise> noise) {
    TrialValues mine = run.samples().get(g.metric());
    if (mine == null) {
      return false;
    }
    return counted(
        g,
        new Evidence(
            mine.n(),
            mine.withinRun() != null,
            baseline.samples().get(g.metric()) != null,
            knowsRunNoise(noise)));
  }

  /**
   * What is known of a gate at a level with figures on this run's side: after the load (the check),
   * or before it (the plan, {@link GatePlan}).
   *
   * @param trials this run's trials of the figure
   * @param withinRunInterval whether a one-trial mean has an interval of its own (known after the
   *     load only)
   * @param baselineSamples whether the baseline has the figure's trials at the level
   * @param knowsRunNoise whether the noise knows how far two runs differ (history, declared)
   */
  record Evidence(
      int trials, boolean withinRunInterval, boolean baselineSamples, boolean knowsRunNoise) {}

  /** The family's rule ({@link #judgeable}), for the check and the plan alike. */
  static boolean counted(Gate g, Evidence e) {
    if (g.limit().relative()) {
      return e.baselineSamples() && e.knowsRunNoise();
    }
    return e.trials() >= 2 || (e.withinRunInterval() && !isPercentile(g.metric()));
  }

  static boolean knowsRunNoise(Optional<Noise> noise) {
    return noise.map(n -> n.source().knowsRunNoise()).orElse(false);
  }

  /**
   * The verdict on the figure's interval: a relative gate by its two-point design ({@link
   * Verdicts#relativeGate}: on the ratio's value, and saying so, with one run a side), an absolute
   * one on the figure's bounds; null where the figure has no samples, or an absolute gate's figure
   * has no interval, an open one (a P99 over fewer requests than its interval needs: 368 at 95%),
   * or is a percentile of a single run (its within-run interval treats the run's requests as
   * independent, which they are not: it is shown, not judged on), which is then judged on its
   * value.
   */
  static GateJudgement judge(
      Gate g,
      LevelFigures run,
      LevelFigures baseline,
      GateSet.Judging judging,
      double confidence,
      Optional<Noise> noise) {
    TrialValues mine = run.samples().get(g.metric());
    if (mine == null) {
      return null;
    }
    if (g.limit().relative()) {
      TrialValues theirs = baseline.samples().get(g.metric());
      if (theirs == null || !(g.limit().value() > -100)) {
        return null;
      }
      return Verdicts.relativeGate(
          theirs, mine, g.limit().value() / 100, !g.upperBound(), judging.rates(confidence), noise);
    }
    if (mine.n() == 1 && isPercentile(g.metric())) {
      return null;
    }
    GateJudgement j = Verdicts.absoluteGate(mine, g.limit().value(), !g.upperBound(), confidence);
    boolean open = !Double.isFinite(j.bounds().low()) || !Double.isFinite(j.bounds().high());
    return j.bounds().basis() == Interval.Basis.NONE || open ? null : j;
  }

  /** Whether a gate names a latency percentile ({@code tpot.p99}). */
  static boolean isPercentile(GateMetric m) {
    return m instanceof GateMetric.Latency l && l.figure().statistic().isPercentile();
  }
}
