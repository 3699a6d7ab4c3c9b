package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CusumTest {
  static final double SHIFT = Math.log(1.10);

  /**
   * 40 runs' logs: AR(1) with lag-1 {@code rho} and marginal sd {@code sd}, a step at {@code at}.
   */
  static double[] series(SplittableRandom r, int n, double sd, double rho, int at, double step) {
    double[] y = new double[n];
    double e = sd * r.nextGaussian();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        e = rho * e + sd * Math.sqrt(1 - rho * rho) * r.nextGaussian();
      }
      y[i] = e + (at >= 0 && i >= at ? step : 0);
    }
    return y;
  }

  /** The first run (0-based) with an alarm, or -1. */
  static int firstAlarm(double[] y) {
    List<Cusum.State> states = Cusum.replay(y, SHIFT);
    for (int i = 0; i < states.size(); i++) {
      if (states.get(i) instanceof Cusum.Alarm) {
        return i;
      }
    }
    return -1;
  }

  /** Share of 40-run series without a step that raise an alarm anywhere. */
  static double falseAlarms(double sd, double rho, int series, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int flagged = 0;
    for (int s = 0; s < series; s++) {
      if (firstAlarm(series(r, 40, sd, rho, -1, 0)) >= 0) {
        flagged++;
      }
    }
    return (double) flagged / series;
  }

  /** Share of series with +10% at run 20 (0-based) flagged at runs 20..29, and none before. */
  static double caughtWithinTen(double sd, double rho, int series, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int caught = 0;
    for (int s = 0; s < series; s++) {
      int at = firstAlarm(series(r, 40, sd, rho, 20, SHIFT));
      if (at >= 20 && at < 30) {
        caught++;
      }
    }
    return (double) caught / series;
  }

  @Test
  void theLimitHoldsSiegmundsRunLength() {
    // Montgomery: k 0.5, h 5 gives a one-sided in-control run length of 938.2 (Siegmund)
    assertEquals(938.2, Cusum.averageRunLength(-0.5, 5), 0.1);
    double h = Cusum.limitFor(0.5, 1000);
    assertEquals(1000, Cusum.averageRunLength(-0.5, h), 1e-6);
    assertTrue(Cusum.averageRunLength(0.5, h) < 15, "a step of 2k is caught fast");
  }

  @Test
  void independentRunsWithoutAStepRarelyRaiseAnAlarm() {
    // 40 runs, judged from the 16th: at most about 1 series in 10 flagged (issue 58's target)
    double rate = falseAlarms(0.05, 0, 600, 11);
    assertTrue(rate < 0.10, "false alarms per 40-run series: " + rate);
  }

  @Test
  void autocorrelatedRunsAreJudgedOnTheirResiduals() {
    // lag-1 0.5: a CUSUM on the raw runs would flag most such series; on the residuals few
    double rate = falseAlarms(0.05, 0.5, 600, 12);
    assertTrue(rate < 0.20, "false alarms per 40-run series at lag-1 0.5: " + rate);
  }

  @Test
  void aStepOfTheThresholdIsCaughtWithinTenRuns() {
    double rate = caughtWithinTen(0.05, 0, 600, 13);
    assertTrue(rate > 0.85, "+10% at log sd 0.05 caught within 10 runs: " + rate);
  }

  @Test
  void theChangeIsDatedAndANewLevelThatHoldsBecomesTheReference() {
    double[] y = new double[45];
    for (int i = 0; i < y.length; i++) {
      y[i] = 0.01 * Math.sin(i * 1.7) + (i >= 20 ? 0.2 : 0);
    }
    List<Cusum.State> states = Cusum.replay(y, SHIFT);
    Cusum.Alarm a = assertInstanceOf(Cusum.Alarm.class, states.get(20));
    assertEquals(20, a.start());
    assertEquals(20, a.flagged());
    assertEquals(0.2, a.change(), 0.02);
    assertEquals(Cusum.MIN_REFERENCE - 1, a.untilReference());
    assertInstanceOf(Cusum.Alarm.class, states.get(20 + Cusum.MIN_REFERENCE - 1));
    Cusum.State after = states.get(20 + Cusum.MIN_REFERENCE);
    Cusum.InControl in = assertInstanceOf(Cusum.InControl.class, after);
    assertEquals(20, in.reference().from(), "the new level is the reference");
  }

  @Test
  void aChangeThatWentBackStaysOutOfTheReference() {
    double[] y = new double[40];
    for (int i = 0; i < y.length; i++) {
      y[i] = 0.01 * Math.sin(i * 1.7) + (i >= 20 && i < 23 ? 0.2 : 0);
    }
    List<Cusum.State> states = Cusum.replay(y, SHIFT);
    assertInstanceOf(Cusum.Alarm.class, states.get(22));
    Cusum.InControl in = assertInstanceOf(Cusum.InControl.class, states.get(39));
    // the newest 30 of runs 1-39 without runs 21-23 (and the runs the chart took to come back
    // down, which the floor on the spread makes one more: the chart is above 0 until run 24)
    assertEquals(Cusum.MAX_REFERENCE, in.reference().runs(), in.reference().toString());
    int leftOut = (in.reference().to() - in.reference().from() + 1) - in.reference().runs();
    assertEquals(4, leftOut, in.reference().toString());
    assertTrue(in.reference().sd() < 0.02, in.reference().toString());
    assertEquals(0, in.reference().mean(), 0.005, "no regressed run in the mean");
  }

  @Test
  void identicalRunsStillCatchAChange() {
    double[] y = new double[20];
    y[19] = Math.log(10); // a throughput ten times lower, after 19 identical runs
    Cusum.Alarm a = assertInstanceOf(Cusum.Alarm.class, Cusum.last(y, SHIFT));
    assertEquals(19, a.start());
    assertTrue(Double.isFinite(a.limits().inControlRuns()), a.toString());
  }

  @Test
  void tooFewRunsAreNotJudged() {
    Cusum.State s = Cusum.last(new double[] {0, 0.01, 0.02}, SHIFT);
    assertEquals(new Cusum.TooFew(2), s);
  }

  /** The figures docs/history.md quotes: run with -Dcusum.print=true. */
  @Test
  void print() {
    if (!Boolean.getBoolean("cusum.print")) {
      return;
    }
    for (double rho : new double[] {0, 0.3, 0.5}) {
      for (double sd : new double[] {0.03, 0.05, 0.07}) {
        System.out.printf(
            "lag-1 %.1f log sd %.2f: series of 40 flagged without a step %.3f; +10%% at run 21"
                + " caught by run 30 %.3f%n",
            rho, sd, falseAlarms(sd, rho, 2000, 1), caughtWithinTen(sd, rho, 2000, 2));
      }
    }
  }
}
