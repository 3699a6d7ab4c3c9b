package io.github.llmbench.run;

import io.github.llmbench.analysis.GateDesign;
import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.GateVerdict;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Noise;
import io.github.llmbench.analysis.SequentialTest;
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.summary.AbFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One relative gate of an interleaved A/B run, judged pair by pair: each pair's log ratio of the
 * gate's figure, oriented so that positive is B worse ({@code log(B/A)} for a latency, {@code
 * log(A/B)} for a throughput), fed to the sequential test; its looks and decision.
 */
final class AbGateTrack {
  private final Gate gate;
  private final SequentialTest test;
  private final double confidence;
  private final GateJudgement.Family family;

  /** The test's unit, as its lines name it: {@code pair} or {@code block}. */
  private final String unit;

  /** What the units' processes are, said on the gate's noise line; empty for none. */
  private final String processes;

  private final List<Double> logRatios = new ArrayList<>();
  private final List<SequentialTest.Look> looks = new ArrayList<>();
  private final List<double[]> figures = new ArrayList<>();

  /**
   * @param confidence the gate's own, {@code 1 - alpha} (after a family-wise correction)
   * @param family the relative gates judged on the units together
   * @param gate a relative gate whose limit lies on the worse side ({@code +10%} on a latency,
   *     {@code -5%} on a throughput)
   * @param units the test's unit (a pair, or a block of pairs on fresh servers), before the first
   *     look and at most
   * @param processes what the units' processes are, for the gate's noise line ({@link
   *     AbSettings.Servers#processes})
   */
  AbGateTrack(
      Gate gate,
      double confidence,
      double power,
      AbSettings.Units units,
      String processes,
      GateJudgement.Family family) {
    this.unit = units.name();
    this.processes = processes;
    int minUnits = units.min();
    int maxUnits = units.max();
    this.gate = gate;
    this.confidence = confidence;
    this.family = family;
    this.test =
        SequentialTest.of(
            new SequentialTest.Design(1 - confidence, power, threshold(gate), minUnits, maxUnits));
  }

  /** The regression the gate must catch, as a ratio worse - 1: 0.10 for +10%, 0.0526 for -5%. */
  static double threshold(Gate g) {
    double f = 1 + g.limit().value() / 100;
    return g.upperBound() ? f - 1 : 1 / f - 1;
  }

  Gate gate() {
    return gate;
  }

  /** Whether the test has decided (FAIL, PASS, or INCONCLUSIVE at its most pairs). */
  boolean decided() {
    return !looks.isEmpty()
        && looks.get(looks.size() - 1).decision() != SequentialTest.Decision.CONTINUE;
  }

  /**
   * Adds a pair's figures (A's and B's) and looks; a pair where either side has no figure (no
   * request completed) is left out, and the look stays the one before. Nothing once decided.
   *
   * @return the look after this pair, or null when the pair was left out or the test had decided
   */
  SequentialTest.Look add(double a, double b) {
    if (decided() || !(a > 0) || !(b > 0)) {
      return null;
    }
    figures.add(new double[] {a, b});
    logRatios.add(gate.upperBound() ? Math.log(b / a) : Math.log(a / b));
    SequentialTest.Look look = test.look(logRatios.stream().mapToDouble(d -> d).toArray());
    looks.add(look);
    return look;
  }

  /** The decision so far: a test still going on when the pairs ran out is inconclusive. */
  SequentialTest.Decision decision() {
    if (looks.isEmpty()) {
      return SequentialTest.Decision.INCONCLUSIVE;
    }
    SequentialTest.Decision d = looks.get(looks.size() - 1).decision();
    return d == SequentialTest.Decision.CONTINUE ? SequentialTest.Decision.INCONCLUSIVE : d;
  }

  /** The ratio the figures show: B/A for a latency, A/B for a throughput. */
  String orientation() {
    return gate.upperBound() ? "B/A" : "A/B";
  }

  AbFigures.GateTrack figures() {
    SequentialTest.Look last = looks.isEmpty() ? null : looks.get(looks.size() - 1);
    SequentialTest.Design d = test.design();
    return new AbFigures.GateTrack(
        gate.name(),
        d.threshold(),
        orientation(),
        d.alpha(),
        d.power(),
        logRatios,
        looks.stream()
            .map(
                l ->
                    new AbFigures.Look(
                        l.pairs(),
                        AbFigures.finite(l.ratio()),
                        AbFigures.finite(l.failAt()),
                        AbFigures.finite(l.passAt()),
                        l.decision().name()))
            .toList(),
        decision().name(),
        last == null ? null : AbFigures.finite(last.ratio()),
        last == null || !last.interval().isKnown() ? null : AbFigures.finite(last.interval().low()),
        last == null || !last.interval().isKnown()
            ? null
            : AbFigures.finite(last.interval().high()),
        logRatios.size());
  }

  /**
   * The gate's result for the gates' lines and {@code gates.xml}: A's figure (geometric mean over
   * the pairs) as the baseline, B's as the measured one, the decision as the verdict and the ratio
   * B/A with its interval as the judgement.
   *
   * @param inconclusivePasses whether an inconclusive gate lets the run pass
   */
  GateResult result(String level, boolean inconclusivePasses) {
    double a = geometricMean(0);
    double b = geometricMean(1);
    GateVerdict verdict = GateVerdict.valueOf(decision().name());
    boolean pass =
        verdict == GateVerdict.PASS || (verdict == GateVerdict.INCONCLUSIVE && inconclusivePasses);
    SequentialTest.Look last = looks.isEmpty() ? null : looks.get(looks.size() - 1);
    // a judgement always, so an undecided gate reads INCONCLUSIVE (none before the first look)
    Interval bounds =
        last == null
            ? Interval.none(Double.NaN, 2 * confidence - 1)
            : last.interval().isKnown()
                ? ratioBa(last.interval())
                : Interval.none(b / a, 2 * confidence - 1);
    GateJudgement judgement =
        new GateJudgement(
            verdict,
            bounds,
            1 + gate.limit().value() / 100,
            confidence,
            Optional.of(relative(verdict, last)),
            family);
    return new GateResult(gate, level, gate.limitAt(a), b, pass, judgement);
  }

  /**
   * How the pairs judged the gate, in the gates' terms: its two error rates, the pairs' noise, the
   * last look's lines, and the smallest regression the design catches with the power asked at its
   * most pairs, at the pairs' spread (the line says so: the spread is the one estimate in it).
   */
  private GateJudgement.Relative relative(GateVerdict verdict, SequentialTest.Look last) {
    SequentialTest.Design d = test.design();
    GateDesign design =
        GateDesign.of(
            GateDesign.ErrorRates.of(confidence, d.power()),
            gate.limit().value() / 100,
            !gate.upperBound());
    int n = logRatios.size();
    double mean = logRatios.stream().mapToDouble(x -> x).average().orElse(Double.NaN);
    double se = n < 2 ? Double.NaN : sd(mean) / Math.sqrt(n);
    Optional<GateDesign.Outcome> outcome =
        last == null || !(se >= 0)
            ? Optional.empty()
            : Optional.of(
                new GateDesign.Outcome(
                    verdict,
                    mean,
                    se,
                    n - 1,
                    true, // a sequential test decides by its boundaries, not by a fixed sample
                    Math.log(last.failAt()),
                    Math.log(last.passAt()),
                    test.smallestCaughtLog(sd(mean))));
    String noise =
        String.format(
            Locale.ROOT,
            "interleaved pairs, %d %ss, sd of a %s's log ratio %.3f (a group-sequential test"
                + " of at most %d %ss; its smallest regression caught is the design's at %d"
                + " %ss, at that sd)"
                + (processes.isEmpty() ? "" : "; " + processes)
                + "; the ratio is the one "
                + SequentialTest.STOPPING_LOOK_RATIO,
            n,
            unit,
            unit,
            n < 2 ? Double.NaN : sd(mean),
            d.maxPairs(),
            unit,
            d.maxPairs(),
            unit);
    return new GateJudgement.Relative(
        design, !gate.upperBound(), outcome, Noise.Source.PAIRS, noise, OptionalInt.empty());
  }

  private double sd(double mean) {
    double ss = 0;
    for (double d : logRatios) {
      ss += (d - mean) * (d - mean);
    }
    return Math.sqrt(ss / (logRatios.size() - 1));
  }

  /** The interval as a ratio B/A (a throughput's A/B turned over). */
  private Interval ratioBa(Interval worse) {
    if (gate.upperBound()) {
      return worse;
    }
    return new Interval(
        1 / worse.estimate(), 1 / worse.high(), 1 / worse.low(), worse.confidence(), worse.basis());
  }

  private double geometricMean(int side) {
    if (figures.isEmpty()) {
      return Double.NaN;
    }
    double sum = 0;
    for (double[] f : figures) {
      sum += Math.log(f[side]);
    }
    return Math.exp(sum / figures.size());
  }
}
