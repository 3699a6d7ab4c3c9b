package io.github.llmbench.analysis;

import java.util.Locale;
import java.util.OptionalInt;

/**
 * What a relative gate means: a two-point test on the log ratio {@code d} (candidate against
 * baseline, oriented so that positive is worse: {@code log(B/A)} for a latency, {@code log(A/B)}
 * for a throughput). Pure.
 *
 * <ul>
 *   <li>H0, no change ({@code d = 0}), must PASS: false alarm at most {@code alpha}.
 *   <li>H1, worse by the threshold ({@code d = delta}, {@code log 1.10} for {@code +10%}), must not
 *       PASS: it PASSes with probability at most {@code 1 - power}, and FAILs with at least {@code
 *       power} only where the noise is decisive (elsewhere the rest is INCONCLUSIVE).
 * </ul>
 *
 * With a standard error {@code se} on {@code df} degrees of freedom and {@code q_a = t_{1-alpha,
 * df}}, {@code q_b = t_{power, df}}: the data are <b>decisive</b> when {@code (q_a + q_b) se <=
 * delta}, and then FAIL iff {@code d > c = delta q_a / (q_a + q_b)}, which holds both error rates;
 * otherwise FAIL when {@code d > q_a se} (the false alarm is held first), PASS when {@code d <
 * delta - q_b se}, else INCONCLUSIVE. The smallest regression caught with that power is {@code
 * exp((q_a + q_b) se) - 1}.
 *
 * <p>A gate that asks for an improvement ({@code delta <= 0}: {@code -5%} on a latency) has no "no
 * change" to pass; it keeps the one-sided-bounds rule: FAIL when {@code d - q_a se > delta}, PASS
 * when {@code d + q_a se <= delta}.
 *
 * @param rates the false alarm and the power asked
 * @param delta the regression to catch on the log scale, oriented worse ({@code log 1.10} for a
 *     latency's {@code +10%}, {@code -log 0.90} for a throughput's {@code -10%})
 */
public record GateDesign(ErrorRates rates, double delta) {

  /**
   * The two error rates a gate is judged at.
   *
   * @param alpha the false alarm: the chance that no change FAILs, in (0, 0.5)
   * @param power one minus the most a change of the threshold may PASS, in (0.5, 1)
   */
  public record ErrorRates(double alpha, double power) {
    public ErrorRates {
      if (!(alpha > 0.0 && alpha < 0.5)) {
        throw new IllegalArgumentException("a false alarm rate must be in (0, 0.5): " + alpha);
      }
      if (!(power > 0.5 && power < 1.0)) {
        throw new IllegalArgumentException("a power must be in (0.5, 1): " + power);
      }
    }

    /** The rates of a gate at confidence {@code c} ({@code alpha = 1 - c}) and that power. */
    public static ErrorRates of(double confidence, double power) {
      return new ErrorRates(1.0 - confidence, power);
    }
  }

  public GateDesign {
    if (!Double.isFinite(delta)) {
      throw new IllegalArgumentException("a gate's threshold must be finite: " + delta);
    }
  }

  /**
   * The design of {@code gate.X=threshold} (0.10 for {@code +10%}): {@code delta = log(1 +
   * threshold)} for a figure where lower is better, its negative where higher is.
   */
  public static GateDesign of(ErrorRates rates, double threshold, boolean higherIsBetter) {
    if (!(threshold > -1.0) || Double.isInfinite(threshold)) {
      throw new IllegalArgumentException("a relative threshold must be above -100%: " + threshold);
    }
    double log = Math.log1p(threshold);
    return new GateDesign(rates, higherIsBetter ? -log : log);
  }

  /** How a log ratio was judged, with what the noise allowed. */
  public record Outcome(
      GateVerdict verdict,
      double logRatioWorse,
      double se,
      double df,
      boolean decisive,
      double failAbove,
      double passBelow,
      double smallestCaught) {}

  /**
   * What the design guarantees, in the words every gate line, plan line, A/B line and page use:
   * {@code false alarm 5%, a +10.0% change passes at most 10%}. Not "power 90% at the threshold": a
   * change of the threshold FAILs with the power only where the noise is decisive, and otherwise
   * may be INCONCLUSIVE; that it PASSes at most {@code 1 - power} holds whatever the noise. A gate
   * that asks for an improvement ({@code delta <= 0}) is judged on one-sided bounds, where the
   * power plays no part.
   *
   * @param higherIsBetter whether the gate's figure is a throughput (its threshold written as a
   *     fall: {@code -10.0%})
   */
  public String describeRates(boolean higherIsBetter) {
    String threshold = change(delta, higherIsBetter);
    String falseAlarm = "false alarm " + GateJudgement.Family.pct(rates.alpha());
    if (delta <= 0.0) {
      return falseAlarm + " at the threshold (" + threshold + ": an improvement asked, no power)";
    }
    return falseAlarm
        + ", a "
        + threshold
        + " change passes at most "
        + GateJudgement.Family.pct(1.0 - rates.power());
  }

  /**
   * {@code ; smallest regression caught with power 90%: +12.3%}, or nothing for a gate that asks
   * for an improvement: it has no power to state ({@link #describeRates} says so).
   *
   * @param smallestLog the design's smallest regression caught with its power, a log ratio worse
   */
  public String powerClause(double smallestLog, boolean higherIsBetter) {
    if (delta <= 0.0) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; smallest regression caught with power %.0f%%: %s",
        100 * rates.power(),
        change(smallestLog, higherIsBetter));
  }

  /** {@code t_{1-alpha, df}} (the normal quantile for infinite df). */
  public double qAlpha(double df) {
    return LogScale.quantile(1.0 - rates.alpha(), df);
  }

  /** {@code t_{power, df}}. */
  public double qPower(double df) {
    return LogScale.quantile(rates.power(), df);
  }

  /** Whether a test with this error can hold both rates: {@code (q_a + q_b) se <= delta}. */
  public boolean decisive(double se, double df) {
    return delta > 0.0 && (qAlpha(df) + qPower(df)) * se <= delta + TIE;
  }

  /**
   * The smallest regression (log scale, oriented worse) that FAILs with the power asked at this
   * error: {@code (q_a + q_b) se}.
   */
  public double smallestCaughtLog(double se, double df) {
    return (qAlpha(df) + qPower(df)) * se;
  }

  /** Rounding-level differences on the log scale (an estimate exactly at a line) do not count. */
  private static final double TIE = 1e-12;

  /** Judges the log ratio {@code d} (oriented worse) with standard error {@code se}. */
  public Outcome judge(double d, double se, double df) {
    if (!(se >= 0.0) || !(df > 0.0) || Double.isNaN(d)) {
      throw new IllegalArgumentException("se must be 0 or more, df above 0: " + se + ", " + df);
    }
    double qa = qAlpha(df);
    double qb = qPower(df);
    double smallest = (qa + qb) * se;
    if (!(delta > 0.0)) {
      double failAbove = delta + qa * se;
      double passBelow = delta - qa * se;
      GateVerdict v =
          d > failAbove + TIE
              ? GateVerdict.FAIL
              : d <= passBelow + TIE ? GateVerdict.PASS : GateVerdict.INCONCLUSIVE;
      return new Outcome(v, d, se, df, false, failAbove, passBelow, smallest);
    }
    if (smallest <= delta + TIE) {
      double c = delta * qa / (qa + qb);
      GateVerdict v = d > c + TIE ? GateVerdict.FAIL : GateVerdict.PASS;
      return new Outcome(v, d, se, df, true, c, c, smallest);
    }
    double failAbove = qa * se;
    double passBelow = delta - qb * se;
    GateVerdict v =
        d > failAbove + TIE
            ? GateVerdict.FAIL
            : d < passBelow - TIE ? GateVerdict.PASS : GateVerdict.INCONCLUSIVE;
    return new Outcome(v, d, se, df, false, failAbove, passBelow, smallest);
  }

  /**
   * The trials a side (from 2 to {@code most}) at which this noise makes the test decisive, for
   * planning: its run-level variance does not shrink with trials, so it may never be; the degrees
   * of freedom are the noise's own, or {@code 2(n - 1)} for noise measured on the runs' own trials
   * (which a plan of n trials a side would measure again).
   */
  public OptionalInt trialsToDecide(Noise noise, int most) {
    if (!(delta > 0.0)) {
      return OptionalInt.empty();
    }
    for (int n = 2; n <= most; n++) {
      double df = noise.source() == Noise.Source.OWN_TRIALS ? 2.0 * (n - 1) : noise.df();
      // a plan for the next comparison: one run of n trials against one stored run of n
      if (decisive(noise.seOfLogRatio(n, n), df)) {
        return OptionalInt.of(n);
      }
    }
    return OptionalInt.empty();
  }

  /** The smallest change caught, as a relative change of the figure: {@code +23.0%} or -18.7%. */
  public static String change(double logWorse, boolean higherIsBetter) {
    double rel = higherIsBetter ? Math.exp(-logWorse) - 1 : Math.exp(logWorse) - 1;
    return String.format(Locale.ROOT, "%+.1f%%", 100 * rel);
  }
}
