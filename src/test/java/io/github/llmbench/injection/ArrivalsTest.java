package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Ramp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Open-model arrivals over 2,000 scheduled gaps: the rate and the burstiness come out as asked. */
class ArrivalsTest {

  private static void check(double rate, double burstiness) {
    List<Double> gaps = Arrivals.gaps(rate, burstiness, 2000, 0, 12345);
    assertEquals(2000, gaps.size());
    double mean = gaps.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double var = gaps.stream().mapToDouble(g -> (g - mean) * (g - mean)).sum() / (gaps.size() - 1);
    double cv = Math.sqrt(var) / mean;
    double measuredRate = 1 / mean;
    assertTrue(
        Math.abs(measuredRate - rate) / rate < 0.10, "rate " + measuredRate + " for " + rate);
    double expectedCv = 1 / Math.sqrt(burstiness);
    assertTrue(
        Math.abs(cv - expectedCv) / expectedCv < 0.10,
        "CV " + cv + ", expected " + expectedCv + " for B=" + burstiness);
  }

  @Test
  void poisson() {
    check(4, 1);
  }

  @Test
  void bursty() {
    check(10, 0.5);
  }

  @Test
  void even() {
    check(2.5, 4);
  }

  @Test
  void durationBound() {
    List<Double> gaps = Arrivals.gaps(5, 1, 0, 100, 7);
    double total = gaps.stream().mapToDouble(Double::doubleValue).sum();
    assertTrue(total < 100);
    assertTrue(gaps.size() > 400 && gaps.size() < 600, "arrivals in 100 s at 5/s: " + gaps.size());
  }

  @Test
  void aLinearRampSendsItsExpectedArrivalsMoreAsTheRateGrows() {
    Ramp ramp = new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 2, 20);
    // over 200 seeds, 20 s: (2 + 20) / 2 x 20 = 220 arrivals, 2x10+18x100/40 = 65 in the first half
    double total = 0;
    double firstHalf = 0;
    int seeds = 200;
    for (long seed = 1; seed <= seeds; seed++) {
      double t = 0;
      for (double gap : Arrivals.ramped(ramp, 1, 0, 20, seed)) {
        assertTrue(gap >= 0, "gap " + gap);
        t += gap;
        total++;
        if (t < 10) {
          firstHalf++;
        }
      }
      assertTrue(t < 20, "every arrival within the ramp: " + t);
    }
    assertEquals(220, total / seeds, 220 * 0.02, "mean arrivals per ramp");
    assertEquals(65, firstHalf / seeds, 65 * 0.04, "mean arrivals in the first half");
  }

  @Test
  void anExponentialRampOfACountSpreadsItOverTheTimeItExpects() {
    Ramp ramp = new Ramp(Ramp.Shape.EXPONENTIAL, Ramp.Kind.RATE, 1, 16);
    List<Double> gaps = Arrivals.ramped(ramp, 2, 500, 0, 7);
    assertEquals(500, gaps.size());
    double d = Arrivals.rampSeconds(ramp, 500, 0);
    assertEquals(500 * Math.log(16) / 15, d, 1e-9, "500 over the mean rate 15 / ln 16");
    double end = gaps.stream().mapToDouble(Double::doubleValue).sum();
    assertEquals(d, end, d * 0.05, "the last arrival near the ramp's end");
    // the last tenth of the gaps at about 1/16 of the first tenth's
    double first =
        gaps.subList(0, 20).stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double last =
        gaps.subList(480, 500).stream().mapToDouble(Double::doubleValue).average().orElse(0);
    assertTrue(first / last > 8 && first / last < 30, first + " / " + last);
  }
}
