package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A weighted mix of models: the shares as asked, the same pick for the same seed and request. */
class ModelMixTest {

  @Test
  void eachModelGetsItsShareOfTheRequests() {
    ModelMix mix = new ModelMix(List.of("a", "b", "c"), List.of(0.7, 0.2, 0.1), 42);
    Map<String, Integer> counts = new HashMap<>();
    int n = 20_000;
    for (long i = 0; i < n; i++) {
      counts.merge(mix.pick(i), 1, Integer::sum);
    }
    assertEquals(0.7, counts.get("a") / (double) n, 0.015);
    assertEquals(0.2, counts.get("b") / (double) n, 0.015);
    assertEquals(0.1, counts.get("c") / (double) n, 0.015);
  }

  @Test
  void theSeedAndTheRequestDecideThePick() {
    ModelMix one = new ModelMix(List.of("a", "b"), List.of(0.5, 0.5), 7);
    ModelMix again = new ModelMix(List.of("a", "b"), List.of(0.5, 0.5), 7);
    ModelMix other = new ModelMix(List.of("a", "b"), List.of(0.5, 0.5), 8);
    int differ = 0;
    for (long i = 0; i < 200; i++) {
      assertEquals(one.pick(i), again.pick(i));
      differ += one.pick(i).equals(other.pick(i)) ? 0 : 1;
    }
    assertEquals(100, differ, 30, "another seed picks otherwise about half the time");
    assertEquals("x", new ModelMix(List.of("x"), List.of(1.0), 1).pick(5));
    assertThrows(
        IllegalArgumentException.class, () -> new ModelMix(List.of("a", "b"), List.of(1.0), 1));
  }
}
