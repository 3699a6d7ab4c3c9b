package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** A faulty run's failures sorted by how their error text starts: one kind per fault mode. */
public final class FailureKinds {
  private FailureKinds() {}

  /**
   * Fails unless the failed {@code records} fall into exactly the kinds named by {@code prefixes},
   * each at least once, and one of them reads {@code exactly}: the server's own text kept whole.
   */
  public static void assertEachKind(
      List<RequestRecord> records, String exactly, String... prefixes) {
    List<RequestRecord> failed = records.stream().filter(r -> !r.ok()).toList();
    Map<String, Long> kinds =
        failed.stream()
            .collect(Collectors.groupingBy(r -> kind(r.error(), prefixes), Collectors.counting()));
    assertEquals(Set.of(prefixes), kinds.keySet(), kinds.toString());
    assertTrue(failed.stream().anyMatch(r -> r.error().equals(exactly)), exactly + " in " + failed);
  }

  /** The first of {@code prefixes} the error starts with, or the whole error. */
  private static String kind(String error, String... prefixes) {
    return Arrays.stream(prefixes).filter(error::startsWith).findFirst().orElse(error);
  }
}
