package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityProbesTest {

  @Test
  void aRateProbeSendsAtThePlainOpenModelsArrivalTimes() {
    double[] times = CapacityProbes.sendTimes(8, 1.0, 10, 1000, 42);
    List<Double> gaps = Arrivals.gaps(8, 1.0, 0, 10, 42);
    assertEquals(gaps.size(), times.length, "every arrival of the duration");
    double t = 0;
    for (int k = 0; k < times.length; k++) {
      t += gaps.get(k);
      assertEquals(t, times[k], 1e-12);
    }
    assertTrue(times[times.length - 1] < 10);
    assertArrayEquals(
        times, CapacityProbes.sendTimes(8, 1.0, 10, 1000, 42), "the same seed, the same times");
    assertEquals(5, CapacityProbes.sendTimes(8, 1.0, 10, 5, 42).length, "at most the users made");
  }

  @Test
  void aRateProbeHasUsersForTheHighestRatesArrivals() {
    int users = CapacityProbes.maxRequests(50, 20, 1.0); // 1000 expected, sd ~32
    assertTrue(users >= 1000 + 6 * Math.sqrt(1000) && users < 1300, "users " + users);
    assertTrue(
        CapacityProbes.maxRequests(50, 20, 0.25) > users, "burstier gaps spread the count more");
    for (long seed = 0; seed < 200; seed++) {
      assertTrue(
          Arrivals.gaps(50, 0.25, 0, 20, seed).size() <= CapacityProbes.maxRequests(50, 20, 0.25),
          "seed " + seed);
    }
  }

  @Test
  void slotsCoverTheGrowthAndTheBisection() {
    assertEquals(
        7 + 6,
        CapacityProbes.slots(1, 64, 0.1)); // 1..64: 7 probes; [c, 2c] to 10%: 4 halvings, 2 spare
    assertEquals(9 + 6, CapacityProbes.slots(0.5, 100, 0.1)); // 0.5, 1, ..., 64, then 100
  }
}
