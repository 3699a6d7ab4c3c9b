package io.github.llmbench.analysis;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a gate judged on an interval found.
 *
 * @param verdict pass, fail or inconclusive
 * @param bounds the figure (absolute gate) or the ratio B/A (relative gate) with the two one-sided
 *     bounds at the gate's {@code confidence}: together a two-sided interval at {@code 2 *
 *     confidence - 1} (0.90 for a 0.95 gate), which is what {@code bounds.confidence()} says; a
 *     relative gate judged on its value (one run a side) has none ({@link Interval.Basis#NONE})
 * @param limit the limit the bounds were held against: the figure's limit, or 1 + threshold for a
 *     relative gate
 * @param confidence the gate's own confidence, {@code 1 - alpha} (after a family-wise correction)
 * @param relative for a relative gate, its two-point design, what the noise allowed and where the
 *     noise came from; empty for an absolute gate (one-sided bounds)
 * @param family the gates judged together in the run, for the family-wise false alarm
 */
public record GateJudgement(
    GateVerdict verdict,
    Interval bounds,
    double limit,
    double confidence,
    Optional<Relative> relative,
    Family family) {

  /** An absolute gate's judgement, alone in its family until the gates say otherwise. */
  public static GateJudgement absolute(
      GateVerdict verdict, Interval bounds, double limit, double confidence) {
    return new GateJudgement(
        verdict, bounds, limit, confidence, Optional.empty(), Family.alone(1 - confidence));
  }

  /** This judgement counted in a family of gates. */
  public GateJudgement withFamily(Family f) {
    return new GateJudgement(verdict, bounds, limit, confidence, relative, f);
  }

  /**
   * How a relative gate was judged ({@link GateDesign}).
   *
   * @param design the two error rates and the regression to catch
   * @param higherIsBetter whether a higher figure is better (a throughput)
   * @param outcome the test on the log ratio; empty when the gate was judged on the ratio's value
   *     (one run a side and no known noise)
   * @param source where the noise came from: whether it knows how far two runs differ ({@link
   *     Noise.Source#knowsRunNoise}), and so whether the design's error rates hold
   * @param noise what the line says of the noise ({@link Noise#describe()}, or {@code the runs' own
   *     trials, 5 and 5 trials})
   * @param trialsToDecide the trials a side at which the same noise makes the test decisive (both
   *     error rates held at the threshold): the planning figure; empty when none up to the cap
   *     would, or without a run-to-run noise
   */
  public record Relative(
      GateDesign design,
      boolean higherIsBetter,
      Optional<GateDesign.Outcome> outcome,
      Noise.Source source,
      String noise,
      OptionalInt trialsToDecide) {

    /**
     * Whether the false alarm and the power the design asks hold for this verdict: only with a
     * noise that knows how far two runs differ (a sequential test before its first look too).
     */
    public boolean errorRatesKnown() {
      return source.knowsRunNoise();
    }

    /**
     * {@code judged at false alarm 5%, a +10.0% change passes at most 10%; noise: ...; smallest
     * regression caught with power 90%: +23.1%, decisive from 12 trials a side}; without a run
     * noise, what the verdict cannot know and what it needs, and no error rate.
     */
    public String describe() {
      if (outcome.isEmpty() && source.knowsRunNoise()) {
        // a sequential test before its first look: nothing judged yet
        return "noise: " + noise;
      }
      if (!errorRatesKnown()) {
        return "error rates unknown: "
            + Noise.RUN_NOISE_UNKNOWN
            + "; this verdict is uncalibrated (noise: "
            + noise
            + "); "
            + Noise.RUN_NOISE_NEEDED;
      }
      GateDesign.Outcome o = outcome.get();
      StringBuilder sb =
          new StringBuilder("judged at ")
              .append(design.describeRates(higherIsBetter))
              .append("; noise: ")
              .append(noise)
              .append(design.powerClause(o.smallestCaught(), higherIsBetter));
      if (!o.decisive() && design.delta() > 0) {
        sb.append(
            trialsToDecide.isPresent()
                ? String.format(
                    Locale.ROOT,
                    " (about %d trials a side would give that power at the threshold from"
                        + " the same noise)",
                    trialsToDecide.getAsInt())
                : " (no number of trials a side up to "
                    + Verdicts.MAX_TRIALS_PLANNED
                    + " would give that power at the threshold from the same noise)");
      }
      return sb.toString();
    }
  }

  /**
   * The gates judged together in a run (gates x levels judged on an interval), each at a false
   * alarm of {@code alpha}, or of {@code alpha / size} when the family is controlled ({@code
   * -Dgate.family=bonferroni}).
   *
   * @param size how many gates x levels were judged on an interval
   * @param alpha the false alarm asked ({@code 1 - gate.confidence})
   * @param bonferroni whether each gate was judged at {@code alpha / size}
   */
  public record Family(int size, double alpha, boolean bonferroni) {

    public static Family alone(double alpha) {
      return new Family(1, alpha, false);
    }

    /** The false alarm each gate is judged at. */
    public double perGate() {
      return bonferroni ? alpha / size : alpha;
    }

    /**
     * The chance that at least one gate false-alarms when nothing changed: {@code alpha} under
     * Bonferroni, else {@code 1 - (1 - alpha)^k} for independent gates (at most {@code k alpha}
     * whatever their dependence).
     */
    public double bound() {
      return bonferroni ? alpha : 1 - Math.pow(1 - alpha, size);
    }

    /** The gates block's line on it. */
    public String line() {
      if (bonferroni) {
        return "Family-wise: "
            + size
            + " gates x levels judged on intervals, each at false alarm "
            + pct(perGate())
            + " (Bonferroni, -Dgate.family=bonferroni): family-wise false alarm at most "
            + pct(bound());
      }
      return "Family-wise: "
          + size
          + " gates x levels judged on intervals, each at false alarm "
          + pct(alpha)
          + ": family-wise false alarm "
          + pct(bound())
          + " if independent (1-(1-alpha)^k), at most "
          + pct(Math.min(1.0, size * alpha))
          + " (Bonferroni k*alpha); -Dgate.family=bonferroni holds it at "
          + pct(alpha);
    }

    /** {@code 14.3%}, {@code 5%}, {@code 1.67%}: three significant digits, no trailing zeros. */
    public static String pct(double p) {
      return new BigDecimal(100 * p).round(new MathContext(3)).stripTrailingZeros().toPlainString()
          + "%";
    }
  }
}
