package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateDesign;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.analysis.Verdicts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the relative gates can decide, said before any load: per gate and level, from the run-to-run
 * noise known then (history, or declared by {@code -Dgate.run.noise}), whether the planned trials
 * hold both error rates at the threshold, and the smallest regression they would catch with the
 * power asked; without one, in one line, that its error rates are unknown and what would give them.
 * A plan, not a promise: the run's own trials measure the noise again. Pure.
 */
final class GatePlan {
  private GatePlan() {}

  /** One gate at one level, as planned. */
  private record Planned(Gate gate, String level) {}

  static List<String> lines(RunGates gates, int plannedTrials) {
    List<Planned> planned = new ArrayList<>();
    for (Gate g : gates.set().gates()) {
      if (!g.limit().relative()) {
        continue;
      }
      List<String> levels =
          g.level() != null
              ? List.of(g.level().tag())
              : List.copyOf(gates.baselineFigures().levels().keySet());
      levels.forEach(l -> planned.add(new Planned(g, l)));
    }
    GateSet.Judging judging = gates.set().judging();
    double alpha = 1 - judging.confidence();
    int family = familySize(gates, planned, plannedTrials);
    double perGate = judging.bonferroni() ? alpha / Math.max(family, 1) : alpha;
    List<String> out = new ArrayList<>();
    for (Planned p : planned) {
      out.add(line(gates, p, plannedTrials, judging.rates(1 - perGate)));
    }
    return out;
  }

  /**
   * The family the check will judge in, as far as it is known before the load, by the check's own
   * rule ({@link GateCheck#counted}): the planned relative gates x levels whose baseline has the
   * figure's trials and whose noise knows the run-to-run spread, and, with trials, every absolute
   * gate x level. A one-trial run's absolute gates on a mean's within-run interval join it after
   * the load only, so a plan of one trial may count fewer.
   */
  private static int familySize(RunGates gates, List<Planned> planned, int plannedTrials) {
    int size = 0;
    for (Gate g : gates.set().gates()) {
      if (!g.limit().relative() && g.metric() != GateMetric.CAPACITY) {
        boolean counted =
            GateCheck.counted(g, new GateCheck.Evidence(plannedTrials, false, false, false));
        size += counted ? (g.level() != null ? 1 : gates.baselineFigures().levels().size()) : 0;
      }
    }
    for (Planned p : planned) {
      boolean samples =
          gates.baselineFigures().level(p.level()).samples().get(p.gate().metric()) != null;
      boolean knows = GateCheck.knowsRunNoise(gates.noise().of(p.level(), p.gate().metric()));
      size +=
          GateCheck.counted(p.gate(), new GateCheck.Evidence(plannedTrials, false, samples, knows))
              ? 1
              : 0;
    }
    return size;
  }

  /** The noise known before the load, at the plan's trial counts, and where it came from. */
  private record Known(Noise noise, String from) {}

  /**
   * The noise known before the load: a run-to-run noise (history's, or one declared, its trial part
   * the baseline's own trials' spread), else the baseline's own trials' spread (two or more, blind
   * to run-to-run noise: {@link Noise.Source#knowsRunNoise}), with the degrees of freedom the gate
   * will have; empty for a one-trial baseline without a run-to-run noise.
   */
  private static Optional<Known> known(TrialValues base, int nb, Optional<Noise> runNoise) {
    int na = base.n();
    // the baseline's trials' spread, on the degrees of freedom the gate will have with this run's
    Optional<Noise> baseTrials =
        Noise.ofTrials(List.of(base))
            .map(
                t ->
                    new Noise(
                        t.source(), 0, t.trialVariance(), nb >= 2 ? na + nb - 2 : na - 1, 1, na));
    if (runNoise.isPresent()) {
      Noise n = runNoise.get().atRuns(baseTrials, na, nb);
      return Optional.of(new Known(n, n.describe()));
    }
    return baseTrials.map(
        t ->
            new Known(
                t,
                String.format(
                    Locale.ROOT, "the baseline's own %d trials, log sd %.3f", na, t.trialSd())));
  }

  /** What a one-trial baseline's gate will do without a run-to-run noise. */
  private static String unplanned(int nb) {
    if (nb == 1) {
      return "one trial a side (the baseline has 1 trial, -Dtrials=1): run-to-run noise unknown,"
          + " so the gate can't be planned and is judged on the ratio's value, its error rates"
          + " unknown; "
          + Noise.RUN_NOISE_NEEDED;
    }
    return String.format(
            Locale.ROOT,
            "the baseline has 1 trial, this run %d: the bases differ, and the gate will take this"
                + " run's trials' spread for both sides; ",
            nb)
        + Noise.RUN_NOISE_UNKNOWN
        + ", so its error rates are unknown; "
        + Noise.RUN_NOISE_NEEDED;
  }

  /**
   * The plan of a gate whose noise is the baseline's own trials' alone: it will be judged, but no
   * error rate or power can be planned.
   */
  private static String uncalibrated(int na, int nb, String from) {
    return String.format(
            Locale.ROOT, "%d trial%s against the baseline's %d: ", nb, nb == 1 ? "" : "s", na)
        + Noise.RUN_NOISE_UNKNOWN
        + ", so the gate will be judged on the trials' test with its error rates unknown (noise: "
        + from
        + "); "
        + Noise.RUN_NOISE_NEEDED;
  }

  private static String line(
      RunGates gates, Planned p, int plannedTrials, GateDesign.ErrorRates rates) {
    Gate g = p.gate();
    String head =
        String.format(
            Locale.ROOT, "%s %s %+.1f%%: ", p.level(), g.metric().key(), g.limit().value());
    String warning = GateResult.warning(g, null).map(w -> "; " + w).orElse("");
    TrialValues base = gates.baselineFigures().level(p.level()).samples().get(g.metric());
    if (base == null) {
      return head
          + "the baseline has no trials' figures of it at this level: judged on its value"
          + warning;
    }
    int na = base.n();
    int nb = plannedTrials;
    Optional<Known> k = known(base, nb, gates.noise().of(p.level(), g.metric()));
    if (k.isEmpty()) {
      return head + unplanned(nb) + warning;
    }
    Noise noise = k.get().noise();
    double df = noise.df();
    String from = k.get().from();
    if (!noise.source().knowsRunNoise()) {
      return head + uncalibrated(na, nb, from) + warning;
    }
    GateDesign design = GateDesign.of(rates, g.limit().value() / 100, !g.upperBound());
    // one baseline run: -Dbaseline is one run's folder, its na trials that run's
    double se = noise.seOfLogRatio(na, nb);
    boolean decisive = design.decisive(se, df);
    StringBuilder sb = new StringBuilder(head);
    sb.append(
        String.format(
            Locale.ROOT,
            "%d trial%s against the baseline's %d %s (%s)%s; noise: %s",
            nb,
            nb == 1 ? "" : "s",
            na,
            // an improvement asked has no power to hold: it is judged, neither can nor cannot
            design.delta() <= 0 ? "judge it" : decisive ? "can decide it" : "cannot decide it",
            design.describeRates(!g.upperBound()),
            design.powerClause(design.smallestCaughtLog(se, df), !g.upperBound()),
            from));
    if (!decisive && design.delta() > 0) {
      OptionalInt n = design.trialsToDecide(noise, Verdicts.MAX_TRIALS_PLANNED);
      sb.append(
          n.isPresent()
              ? String.format(
                  Locale.ROOT,
                  "; about %d trials a side would give that power at the threshold",
                  n.getAsInt())
              : "; no number of trials a side up to "
                  + Verdicts.MAX_TRIALS_PLANNED
                  + " would give that power at the threshold");
    }
    return sb.append(warning).toString();
  }
}
