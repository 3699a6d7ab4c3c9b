package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.SequentialTest.Decision;
import io.github.llmbench.analysis.SequentialTest.Design;
import io.github.llmbench.analysis.SequentialTest.Look;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SequentialTestTest {

  private static final Design TEN_PERCENT = new Design(0.05, 0.9, 0.10, 3, 20);

  /** The decision of one simulated sequence of pairs, and the pairs it used. */
  private record Outcome(Decision decision, int pairs) {}

  private static Outcome run(SequentialTest test, double trueLogRatio, double sd, Random random) {
    int max = test.design().maxPairs();
    double[] d = new double[max];
    for (int n = 1; n <= max; n++) {
      d[n - 1] = trueLogRatio + sd * random.nextGaussian();
      Look look = test.look(java.util.Arrays.copyOf(d, n));
      if (look.decision().decided()) {
        return new Outcome(look.decision(), n);
      }
    }
    throw new AssertionError("no decision by the most pairs");
  }

  private static List<Outcome> runs(double trueLogRatio, double sd, int count, long seed) {
    SequentialTest test = SequentialTest.of(TEN_PERCENT);
    Random random = new Random(seed);
    List<Outcome> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(run(test, trueLogRatio, sd, random));
    }
    return out;
  }

  private static long count(List<Outcome> outcomes, Decision d) {
    return outcomes.stream().filter(o -> o.decision() == d).count();
  }

  /** Three binomial standard errors above the target rate. */
  private static double ceiling(double rate, int n) {
    return n * rate + 3 * Math.sqrt(n * rate * (1 - rate));
  }

  @Test
  void noChangeFailsAtMostAlphaWhateverTheSpread() {
    for (double sd : new double[] {0.02, 0.1, 0.4}) {
      List<Outcome> o = runs(0.0, sd, 3000, 11);
      long fails = count(o, Decision.FAIL);
      assertTrue(fails <= ceiling(0.05, 3000), "spread " + sd + ": " + fails + " of 3000 failed");
    }
  }

  @Test
  void aRegressionOfTheThresholdPassesAtMostOneMinusPowerWhateverTheSpread() {
    double delta = Math.log(1.10);
    for (double sd : new double[] {0.02, 0.1, 0.4}) {
      List<Outcome> o = runs(delta, sd, 3000, 12);
      long passes = count(o, Decision.PASS);
      assertTrue(passes <= ceiling(0.10, 3000), "spread " + sd + ": " + passes + " of 3000 passed");
    }
  }

  @Test
  void atAPairSpreadNearTheThresholdTheTestDecidesWithinAFewPairs() {
    // a pair spread as large as the regression judged (log sd 0.095 for +10%): llama-server's
    // mean TPOT between interleaved 8-s trials is of that order
    double delta = Math.log(1.10);
    List<Outcome> none = runs(0.0, delta, 2000, 13);
    List<Outcome> slower = runs(delta, delta, 2000, 14);
    assertTrue(
        count(none, Decision.PASS) >= 1800, "no change passed " + count(none, Decision.PASS));
    assertTrue(
        count(slower, Decision.FAIL) >= 1780, "10% slower failed " + count(slower, Decision.FAIL));
    assertTrue(median(none) <= 10, "median pairs at no change: " + median(none));
    assertTrue(median(slower) <= 10, "median pairs at 10% slower: " + median(slower));
    long inconclusive = count(none, Decision.INCONCLUSIVE) + count(slower, Decision.INCONCLUSIVE);
    assertTrue(inconclusive <= 80, "inconclusive: " + inconclusive + " of 4000");
  }

  private static int median(List<Outcome> outcomes) {
    List<Integer> pairs = new ArrayList<>(outcomes.stream().map(Outcome::pairs).toList());
    Collections.sort(pairs);
    return pairs.get(pairs.size() / 2);
  }

  @Test
  void aClearRegressionFailsAtTheFirstLook() {
    SequentialTest test = SequentialTest.of(TEN_PERCENT);
    double d = Math.log(1.30);
    assertEquals(Decision.CONTINUE, test.look(new double[] {d, d + 0.001}).decision());
    Look look = test.look(new double[] {d, d + 0.001, d - 0.001});
    assertEquals(Decision.FAIL, look.decision());
    assertEquals(3, look.pairs());
    assertEquals(1.30, look.ratio(), 0.001);
    assertTrue(look.ratio() > look.failAt(), look.toString());
  }

  @Test
  void aChangeBelowTheThresholdThatTheDataShowsIsJudgedByWhereItLies() {
    SequentialTest test = SequentialTest.of(TEN_PERCENT);
    assertEquals(Decision.PASS, test.look(tight(Math.log(1.02))).decision());
    assertEquals(Decision.FAIL, test.look(tight(Math.log(1.09))).decision());
  }

  private static double[] tight(double d) {
    return new double[] {d, d + 0.0005, d - 0.0005, d + 0.0002};
  }

  @Test
  void noiseTooLargeForTheMostPairsEndsInconclusiveAtTheLastLookOnly() {
    SequentialTest test = SequentialTest.of(new Design(0.05, 0.9, 0.10, 3, 5));
    double[] d = {0.5, -0.5, 0.4, -0.45, 0.05};
    for (int n = 1; n < 5; n++) {
      assertEquals(
          Decision.CONTINUE, test.look(java.util.Arrays.copyOf(d, n)).decision(), "look " + n);
    }
    Look last = test.look(d);
    assertEquals(Decision.INCONCLUSIVE, last.decision());
    assertTrue(last.interval().contains(1.0), last.toString());
  }

  @Test
  void theLinesAreNotDrawnBeforeTheFirstLook() {
    Look look = SequentialTest.of(TEN_PERCENT).look(new double[] {0.1, 0.2});
    assertTrue(Double.isNaN(look.failAt()) && Double.isNaN(look.passAt()), look.toString());
    assertEquals(Decision.CONTINUE, look.decision());
  }

  @Test
  void theBoundariesSpendTheRateOverTheLooks() {
    double[] c = SequentialTest.boundaries(0.05, 3, 20);
    assertTrue(Double.isInfinite(c[0]) && Double.isInfinite(c[1]), "no look before 3 pairs");
    // with 2 df a t statistic is heavy-tailed: the first boundary is far out, then they settle
    assertTrue(c[2] > c[19], c[2] + " then " + c[19]);
    // a single look at 20 pairs with all of alpha would be t_{0.95, 19} = 1.73; spread over 18
    // looks each is stricter
    assertTrue(c[19] > 1.73 && c[19] < 3.5, "last boundary " + c[19]);
    assertEquals(0.05, SequentialTest.spent(0.05, 20, 20), 1e-12);
  }

  @Test
  void aBadPlanOrLookIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Design(0.5, 0.9, 0.1, 3, 20));
    assertThrows(IllegalArgumentException.class, () -> new Design(0.05, 0.4, 0.1, 3, 20));
    assertThrows(IllegalArgumentException.class, () -> new Design(0.05, 0.9, 0.0, 3, 20));
    assertThrows(IllegalArgumentException.class, () -> new Design(0.05, 0.9, 0.1, 2, 20));
    assertThrows(IllegalArgumentException.class, () -> new Design(0.05, 0.9, 0.1, 5, 4));
    SequentialTest test = SequentialTest.of(new Design(0.05, 0.9, 0.1, 3, 4));
    assertThrows(IllegalArgumentException.class, () -> test.look(new double[5]));
    assertThrows(
        IllegalArgumentException.class, () -> test.look(new double[] {0.1, Double.NaN, 0.1}));
  }
}
