package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
