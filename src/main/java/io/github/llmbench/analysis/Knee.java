package io.github.llmbench.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Reads a concurrency ladder: the knee, the level of highest power, the saturation level and an
 * over-saturation verdict, each with one sentence saying why. Pure.
 *
 * <p><b>Knee</b>: a continuous two-segment (hinge) least-squares fit of output throughput against
 * concurrency, {@code y = a + b x + c max(0, x - k)}, on both axes scaled to [0, 1], with the break
 * k searched continuously between the second and the second-to-last level (so each segment holds at
 * least two levels). GuideLLM's {@code knee.py} fits two independent lines that break at a measured
 * level and needs 5 levels; the hinge keeps the curve continuous, places the break between levels
 * and works from {@value #MIN_KNEE_LEVELS} levels. The break is accepted, with the same spirit as
 * GuideLLM's thresholds, when the rising slope is positive, the tail slope is at most {@value
 * #MAX_TAIL_SLOPE_RATIO} of it, the fit removes at least {@value #MIN_FIT_IMPROVEMENT} of a single
 * line's squared error, and the knee level (the first level at or above the break) reaches at least
 * {@value #MIN_THROUGHPUT_FRACTION} of the peak throughput (a level within {@value
 * #BREAK_TOLERANCE} below the break counts as at it).
 *
 * <p><b>Power</b> (Kleinrock): output throughput / mean E2EL; its maximum is where adding load
 * stops paying for the latency it costs. <b>Saturation</b>: the level of highest output throughput.
 * <b>Over-saturation</b>: a level above the saturation level whose throughput is more than {@value
 * #OVER_SATURATION_LOSS} below the peak, or a level whose TTFT grows without bound inside its
 * steady window ({@link TtftTrend}).
 */
public final class Knee {

  public static final int MIN_KNEE_LEVELS = 4;

  /** The throughput basis of a ladder whose every level has a steady window: its output tok/s. */
  public static final String STEADY_BASIS = "steady_state";

  /** The throughput basis otherwise: each level's whole output tok/s. */
  public static final String WHOLE_LEVEL_BASIS = "whole_level";

  public static final double MAX_TAIL_SLOPE_RATIO = 0.25;
  public static final double MIN_FIT_IMPROVEMENT = 0.5;
  public static final double MIN_THROUGHPUT_FRACTION = 0.85;
  public static final double OVER_SATURATION_LOSS = 0.05;

  /** A level within 5% below the fitted break counts as at it (a break at 65 gives c64). */
  public static final double BREAK_TOLERANCE = 0.05;

  private static final int GRID = 64;
  private static final double EPS = 1e-12;

  private Knee() {}

  /**
   * One level of the ladder.
   *
   * @param level level name, e.g. {@code c64}
   * @param concurrency configured concurrency
   * @param outputThroughput output tok/s (see {@link Result#basis()})
   * @param meanTpotMs mean TPOT
   * @param p99TtftMs P99 TTFT
   * @param meanE2elMs mean E2EL
   * @param ttftTrend TTFT growth inside the level; null when unknown
   */
  public record Point(
      String level,
      int concurrency,
      double outputThroughput,
      double meanTpotMs,
      double p99TtftMs,
      double meanE2elMs,
      TtftTrend ttftTrend) {

    /** Output throughput / mean E2EL in seconds; 0 when E2EL is 0. */
    public double power() {
      return meanE2elMs > 0 ? outputThroughput / (meanE2elMs / 1000.0) : 0.0;
    }
  }

  /**
   * The hinge fit, in the units of the data.
   *
   * @param breakConcurrency k
   * @param preSlope tok/s per added request before k
   * @param tailSlope tok/s per added request after k
   * @param fitImprovement 1 - hinge SSE / line SSE
   * @param slopeRatio tail / pre slope
   */
  public record Fit(
      double breakConcurrency,
      double preSlope,
      double tailSlope,
      double fitImprovement,
      double slopeRatio) {}

  /**
   * The verdicts.
   *
   * @param points the levels, by concurrency
   * @param basis what the throughput is: {@code steady_state} or {@code whole_level}
   * @param fit the best hinge fit, null when none could be made
   * @param kneeLevel the knee level, null when none
   * @param kneeVerdict why
   * @param powerLevel highest power level, null with fewer than 2 levels
   * @param powerVerdict why
   * @param saturationLevel highest throughput level, null with fewer than 2 levels
   * @param saturationVerdict why
   * @param overSaturated whether any level is over-saturated
   * @param overSaturatedLevels those levels
   * @param overSaturationVerdict why
   */
  public record Result(
      List<Point> points,
      String basis,
      Fit fit,
      String kneeLevel,
      String kneeVerdict,
      String powerLevel,
      String powerVerdict,
      String saturationLevel,
      String saturationVerdict,
      boolean overSaturated,
      List<String> overSaturatedLevels,
      String overSaturationVerdict) {

    public Result {
      points = List.copyOf(points);
      overSaturatedLevels = List.copyOf(overSaturatedLevels);
    }

    /** The four verdict sentences, in order: knee, power, saturation, over-saturation. */
    public List<String> verdicts() {
      return List.of(kneeVerdict, powerVerdict, saturationVerdict, overSaturationVerdict);
    }
  }

  /** Analyses the ladder (points in any order; sorted by concurrency). */
  public static Result analyse(List<Point> ladder, String basis) {
    List<Point> pts = new ArrayList<>(ladder);
    pts.sort(Comparator.comparingInt(Point::concurrency).thenComparing(Point::level));
    Point peak = peak(pts);
    Verdict saturation = Verdict.saturation(pts, peak);
    Verdict power = Verdict.power(pts);
    OverSaturation over = OverSaturation.of(pts, peak);
    KneeCall knee = KneeCall.of(pts, peak);
    return new Result(
        pts,
        basis,
        knee.fit(),
        knee.level(),
        knee.sentence(),
        power.level(),
        power.sentence(),
        saturation.level(),
        saturation.sentence(),
        !over.levels().isEmpty(),
        over.levels(),
        over.sentence());
  }

  /** The first level of highest output throughput; null for an empty ladder. */
  private static Point peak(List<Point> pts) {
    Point peak = null;
    for (Point p : pts) {
      if (peak == null || p.outputThroughput() > peak.outputThroughput()) {
        peak = p;
      }
    }
    return peak;
  }

  /**
   * A level the ladder singles out and the sentence saying why.
   *
   * @param level the level, null when none
   * @param sentence why
   */
  private record Verdict(String level, String sentence) {

    /** Saturation: the peak level. */
    static Verdict saturation(List<Point> pts, Point peak) {
      int n = pts.size();
      if (n < 2) {
        return new Verdict(null, tooFew("a saturation level", n, 2));
      }
      boolean top = peak == pts.get(n - 1);
      return new Verdict(
          peak.level(),
          String.format(
              Locale.ROOT,
              "Saturation at %s: its %s tok/s is the highest output throughput of the ladder%s.",
              peak.level(),
              f0(peak.outputThroughput()),
              top
                  ? ", and it is the highest level tested, so the true saturation point may lie"
                      + " beyond it"
                  : ""));
    }

    /** Power: the first level of highest output throughput / mean E2EL. */
    static Verdict power(List<Point> pts) {
      int n = pts.size();
      if (n < 2) {
        return new Verdict(null, tooFew("the level of highest power", n, 2));
      }
      Point best = pts.get(0);
      for (Point p : pts) {
        if (p.power() > best.power()) {
          best = p;
        }
      }
      boolean top = best == pts.get(n - 1);
      return new Verdict(
          best.level(),
          String.format(
              Locale.ROOT,
              "Highest power (output throughput / mean E2EL) at %s: %s tok/s at %s s mean E2EL; %s.",
              best.level(),
              f0(best.outputThroughput()),
              f2(best.meanE2elMs() / 1000.0),
              top
                  ? "it is the highest level tested, so latency has not yet outgrown throughput"
                  : "beyond it latency grows faster than throughput"));
    }
  }

  /**
   * One level's sign of over-saturation.
   *
   * @param level the level
   * @param reason what it shows, one clause
   */
  private record OverSaturationSign(String level, String reason) {

    /** The levels above the peak that lose more than {@link #OVER_SATURATION_LOSS} of it. */
    static List<OverSaturationSign> lossesPastPeak(List<Point> pts, Point peak) {
      List<OverSaturationSign> signs = new ArrayList<>();
      if (pts.size() < 2) {
        return signs;
      }
      for (int i = pts.indexOf(peak) + 1; i < pts.size(); i++) {
        Point p = pts.get(i);
        double loss =
            peak.outputThroughput() > 0
                ? 1.0 - p.outputThroughput() / peak.outputThroughput()
                : 0.0;
        if (loss > OVER_SATURATION_LOSS) {
          signs.add(
              new OverSaturationSign(
                  p.level(),
                  String.format(
                      Locale.ROOT,
                      "%s loses %s%% of the peak throughput of %s" + " (%s vs %s tok/s)",
                      p.level(),
                      f0(loss * 100),
                      peak.level(),
                      f0(p.outputThroughput()),
                      f0(peak.outputThroughput()))));
        }
      }
      return signs;
    }

    /** The levels whose TTFT grows without bound inside their steady window. */
    static List<OverSaturationSign> unboundedTtft(List<Point> pts) {
      List<OverSaturationSign> signs = new ArrayList<>();
      for (Point p : pts) {
        if (p.ttftTrend() != null && p.ttftTrend().growing()) {
          signs.add(
              new OverSaturationSign(
                  p.level(),
                  String.format(
                      Locale.ROOT,
                      "%s's TTFT grows without bound inside the level (+%s ms over its steady"
                          + " window, %s ms/s)",
                      p.level(),
                      f0(p.ttftTrend().riseMs()),
                      f1(p.ttftTrend().slopeMsPerS()))));
        }
      }
      return signs;
    }
  }

  /**
   * The over-saturation verdict.
   *
   * @param levels the over-saturated levels, each once, throughput losses first
   * @param sentence why
   */
  private record OverSaturation(List<String> levels, String sentence) {

    static OverSaturation of(List<Point> pts, Point peak) {
      List<OverSaturationSign> signs =
          new ArrayList<>(OverSaturationSign.lossesPastPeak(pts, peak));
      signs.addAll(OverSaturationSign.unboundedTtft(pts));
      List<String> levels = new ArrayList<>();
      List<String> reasons = new ArrayList<>();
      for (OverSaturationSign s : signs) {
        if (!levels.contains(s.level())) {
          levels.add(s.level());
        }
        reasons.add(s.reason());
      }
      if (!levels.isEmpty()) {
        return new OverSaturation(levels, "Over-saturated: " + String.join("; ", reasons) + ".");
      }
      return new OverSaturation(levels, noneSentence(pts, peak));
    }

    private static String noneSentence(List<Point> pts, Point peak) {
      int n = pts.size();
      if (n < 2) {
        return "No TTFT growth inside the level, but "
            + tooFewLower("a throughput loss" + " past the peak", n, 2);
      }
      if (peak == pts.get(n - 1)) {
        return "No over-saturation seen: TTFT stayed bounded in every level, but the peak is"
            + " the highest level tested, so a loss past it cannot show.";
      }
      return String.format(
          Locale.ROOT,
          "No over-saturation: no level above %s lost more"
              + " than %s%% of its peak throughput and TTFT stayed bounded in every level.",
          peak.level(),
          f0(OVER_SATURATION_LOSS * 100));
    }
  }

  /**
   * The knee verdict.
   *
   * @param fit the best hinge fit, null when none could be made
   * @param level the knee level, null when none
   * @param sentence why
   */
  private record KneeCall(Fit fit, String level, String sentence) {

    static KneeCall of(List<Point> pts, Point peak) {
      int n = pts.size();
      if (n < MIN_KNEE_LEVELS) {
        return new KneeCall(
            null,
            null,
            String.format(
                Locale.ROOT,
                "Too few levels to fit a knee: %d level%s, at least %d" + " needed.",
                n,
                n == 1 ? "" : "s",
                MIN_KNEE_LEVELS));
      }
      HingeFit h = bestHinge(pts);
      if (h == null) {
        return new KneeCall(
            null, null, "No knee: the throughput curve has no usable range (all levels equal).");
      }
      return judged(h, atBreak(pts, h.fit()), peak);
    }

    /** The first level at or just below the fitted break. */
    private static Point atBreak(List<Point> pts, Fit fit) {
      for (Point p : pts) {
        if (p.concurrency() >= fit.breakConcurrency() * (1 - BREAK_TOLERANCE) - 1e-9) {
          return p;
        }
      }
      return null;
    }

    /** Accepts the break at {@code kp}, or says which threshold it misses. */
    private static KneeCall judged(HingeFit h, Point kp, Point peak) {
      Fit fit = h.fit();
      double fraction =
          peak.outputThroughput() > 0 ? kp.outputThroughput() / peak.outputThroughput() : 0;
      if (h.lineSse() <= EPS) {
        return new KneeCall(
            fit,
            null,
            "No knee yet: throughput follows a straight line over every level;"
                + " add higher levels.");
      }
      if (fit.preSlope() <= 0) {
        return new KneeCall(fit, null, "No knee: throughput does not rise at the low levels.");
      }
      if (fit.slopeRatio() > MAX_TAIL_SLOPE_RATIO) {
        return new KneeCall(
            fit,
            null,
            String.format(
                Locale.ROOT,
                "No knee yet: throughput still rises after"
                    + " the best break (C≈%s: %s tok/s per request after, %s%% of the %s before);"
                    + " add higher levels.",
                f0(fit.breakConcurrency()),
                f1(fit.tailSlope()),
                f0(fit.slopeRatio() * 100),
                f1(fit.preSlope())));
      }
      if (fit.fitImprovement() < MIN_FIT_IMPROVEMENT) {
        return new KneeCall(
            fit,
            null,
            String.format(
                Locale.ROOT,
                "No knee: two segments fit barely better than"
                    + " one line (%s%% less squared error; %s%% needed).",
                f0(fit.fitImprovement() * 100),
                f0(MIN_FIT_IMPROVEMENT * 100)));
      }
      if (fraction < MIN_THROUGHPUT_FRACTION) {
        return new KneeCall(
            fit,
            null,
            String.format(
                Locale.ROOT,
                "No knee: the flattening at C≈%s comes at %s,"
                    + " only %s%% of the peak throughput (%s%% needed).",
                f0(fit.breakConcurrency()),
                kp.level(),
                f0(fraction * 100),
                f0(MIN_THROUGHPUT_FRACTION * 100)));
      }
      return new KneeCall(
          fit,
          kp.level(),
          String.format(
              Locale.ROOT,
              "Knee at %s (segments break at C≈%s):"
                  + " throughput rises %s tok/s per added request before it and %s after, and"
                  + " %s already gives %s%% of the peak.",
              kp.level(),
              f0(fit.breakConcurrency()),
              f1(fit.preSlope()),
              f1(fit.tailSlope()),
              kp.level(),
              f0(fraction * 100)));
    }
  }

  private record HingeFit(Fit fit, double lineSse) {}

  /** The continuous hinge fit of least squared error, null when x or y has no range. */
  private static HingeFit bestHinge(List<Point> pts) {
    int n = pts.size();
    double[] xs = new double[n];
    double[] ys = new double[n];
    double xmin = Double.MAX_VALUE;
    double xmax = -Double.MAX_VALUE;
    double ymin = Double.MAX_VALUE;
    double ymax = -Double.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      xs[i] = pts.get(i).concurrency();
      ys[i] = pts.get(i).outputThroughput();
      xmin = Math.min(xmin, xs[i]);
      xmax = Math.max(xmax, xs[i]);
      ymin = Math.min(ymin, ys[i]);
      ymax = Math.max(ymax, ys[i]);
    }
    if (xmax - xmin <= EPS || ymax - ymin <= EPS) {
      return null;
    }
    double[] nx = new double[n];
    double[] ny = new double[n];
    for (int i = 0; i < n; i++) {
      nx[i] = (xs[i] - xmin) / (xmax - xmin);
      ny[i] = (ys[i] - ymin) / (ymax - ymin);
    }
    double lineSse = LinearFit.of(nx, ny).sse();
    double bestSse = Double.MAX_VALUE;
    double[] best = null;
    for (int i = 1; i <= n - 3; i++) {
      for (int s = 0; s <= GRID; s++) {
        double k = nx[i] + (nx[i + 1] - nx[i]) * s / GRID;
        double[] abc = hinge(nx, ny, k);
        if (abc == null) {
          continue;
        }
        double sse = 0;
        for (int j = 0; j < n; j++) {
          double e = ny[j] - (abc[0] + abc[1] * nx[j] + abc[2] * Math.max(0, nx[j] - k));
          sse += e * e;
        }
        if (sse < bestSse - EPS) {
          bestSse = sse;
          best = new double[] {abc[0], abc[1], abc[2], k};
        }
      }
    }
    if (best == null) {
      return null;
    }
    double scale = (ymax - ymin) / (xmax - xmin);
    double pre = best[1];
    double tail = best[1] + best[2];
    double improvement = lineSse > EPS ? 1.0 - bestSse / lineSse : 0.0;
    double ratio = pre > EPS ? tail / pre : Double.POSITIVE_INFINITY;
    Fit fit =
        new Fit(xmin + best[3] * (xmax - xmin), pre * scale, tail * scale, improvement, ratio);
    return new HingeFit(fit, lineSse);
  }

  /** Least squares of y = a + b x + c max(0, x - k); null when singular. */
  private static double[] hinge(double[] x, double[] y, double k) {
    double[][] m = new double[3][4];
    for (int j = 0; j < x.length; j++) {
      double[] row = {1.0, x[j], Math.max(0, x[j] - k)};
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
          m[r][c] += row[r] * row[c];
        }
        m[r][3] += row[r] * y[j];
      }
    }
    // Gaussian elimination with partial pivoting
    for (int col = 0; col < 3; col++) {
      int piv = col;
      for (int r = col + 1; r < 3; r++) {
        if (Math.abs(m[r][col]) > Math.abs(m[piv][col])) {
          piv = r;
        }
      }
      if (Math.abs(m[piv][col]) < 1e-12) {
        return null;
      }
      double[] tmp = m[col];
      m[col] = m[piv];
      m[piv] = tmp;
      for (int r = 0; r < 3; r++) {
        if (r != col) {
          double f = m[r][col] / m[col][col];
          for (int c = col; c < 4; c++) {
            m[r][c] -= f * m[col][c];
          }
        }
      }
    }
    return new double[] {m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2]};
  }

  private static String tooFew(String what, int n, int needed) {
    return String.format(
        Locale.ROOT,
        "Too few levels to tell %s: %d level%s, at least %d" + " needed.",
        what,
        n,
        n == 1 ? "" : "s",
        needed);
  }

  private static String tooFewLower(String what, int n, int needed) {
    return String.format(
        Locale.ROOT,
        "too few levels to tell %s: %d level%s, at least %d" + " needed.",
        what,
        n,
        n == 1 ? "" : "s",
        needed);
  }

  private static String f0(double v) {
    return String.format(Locale.ROOT, "%.0f", v);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
