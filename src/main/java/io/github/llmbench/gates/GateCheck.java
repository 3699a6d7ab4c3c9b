package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Verdicts;
import java.util.ArrayList;
import java.util.List;

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
   * Checks each gate where it applies: at its level when it names one; a capacity gate at the
   * search ({@value #SEARCH_LEVEL}); any other at every measured level.
   *
   * @param run this run's figures
   * @param baseline the baseline run's figures ({@link RunFigures#NONE} without a baseline)
   */
  public static List<GateResult> check(GateSet gates, RunFigures run, RunFigures baseline) {
    List<GateResult> results = new ArrayList<>();
    List<String> measured = List.copyOf(run.levels().keySet());
    for (Gate g : gates.gates()) {
      List<String> applies =
          g.level() != null
              ? List.of(g.level().tag())
              : g.metric() == GateMetric.CAPACITY ? List.of(SEARCH_LEVEL) : measured;
      for (String where : applies) {
        double figure = run.figure(g.metric(), where);
        double limit = g.limitAt(baseline.figure(g.metric(), where));
        boolean pass =
            !Double.isNaN(figure)
                && !Double.isNaN(limit)
                && (g.upperBound() ? figure <= limit : figure >= limit);
        GateJudgement j = judge(g, run.level(where), baseline.level(where), gates.judging());
        if (j != null) {
          pass =
              j.verdict() == GateVerdict.PASS
                  || (j.verdict() == GateVerdict.INCONCLUSIVE
                      && gates.judging().inconclusivePasses());
        }
        results.add(new GateResult(g, where, limit, figure, pass, j));
      }
    }
    return results;
  }

  /**
   * The verdict on the figure's interval: a relative gate on the ratio to the baseline's, an
   * absolute one on the figure's; null where either side has no spread to judge (a figure without
   * samples, one value without a within-run interval) or the interval is open on a side, which is
   * then judged on its value.
   */
  static GateJudgement judge(
      Gate g, LevelFigures run, LevelFigures baseline, GateSet.Judging judging) {
    TrialValues mine = run.samples().get(g.metric());
    if (mine == null) {
      return null;
    }
    GateJudgement j;
    if (g.limit().relative()) {
      TrialValues theirs = baseline.samples().get(g.metric());
      if (theirs == null || !(g.limit().value() > -100)) {
        return null;
      }
      j =
          Verdicts.relativeGate(
              theirs, mine, g.limit().value() / 100, !g.upperBound(), judging.confidence());
    } else {
      j = Verdicts.absoluteGate(mine, g.limit().value(), !g.upperBound(), judging.confidence());
    }
    // no bound on a side (a P99 over fewer requests than its interval needs: 368 at 95%): the
    // interval cannot pass nor clear it, so the value decides, as before intervals
    boolean open = !Double.isFinite(j.bounds().low()) || !Double.isFinite(j.bounds().high());
    return j.bounds().basis() == Interval.Basis.NONE || open ? null : j;
  }
}
