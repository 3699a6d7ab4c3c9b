package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CancellingTest {

  private static long cancelled(Cancelling c, String level) {
    return IntStream.rangeClosed(1, 20_000)
        .filter(i -> c.afterNanos("req-" + i, level) != Cancelling.NEVER)
        .count();
  }

  @Test
  void theAskedShareOfMeasuredRequestsIsPickedByTheSeed() {
    Cancelling c = new Cancelling(0.10, 2_000_000_000L, 42);
    assertEquals(2_000, cancelled(c, "c16"), 120, "10% of 20000");
    assertEquals(0, cancelled(c, "warmup"), "the warmup is never cancelled");
    assertEquals(0, cancelled(Cancelling.NONE, "c16"));
    assertEquals(20_000, cancelled(new Cancelling(1, 0, 1), "c16"));
    long same =
        IntStream.rangeClosed(1, 2_000)
            .filter(
                i ->
                    c.afterNanos("req-" + i, "c1")
                        == new Cancelling(0.10, 2_000_000_000L, 42).afterNanos("req-" + i, "c1"))
            .count();
    assertEquals(2_000, same, "a pinned seed cancels the same requests");
    long differ =
        IntStream.rangeClosed(1, 2_000)
            .filter(
                i ->
                    c.afterNanos("req-" + i, "c1")
                        != new Cancelling(0.10, 2_000_000_000L, 43).afterNanos("req-" + i, "c1"))
            .count();
    assertNotEquals(0, differ, "another seed, other requests");
    assertEquals(2_000_000_000L, c.afterNanos(firstCancelled(c), "c1"));
  }

  private static String firstCancelled(Cancelling c) {
    return IntStream.rangeClosed(1, 1000)
        .mapToObj(i -> "req-" + i)
        .filter(id -> c.afterNanos(id, "c1") != Cancelling.NEVER)
        .findFirst()
        .orElseThrow();
  }
}
