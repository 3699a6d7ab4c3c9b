package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.simulator.VllmSimulator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The server's side of a run: every request the client recorded reached it, and only once. */
public final class ReceivedOnce {
  private ReceivedOnce() {}

  /** Fails unless {@code sim} received each of {@code records}' ids exactly once, and no other. */
  public static void assertEachReceivedOnce(List<RequestRecord> records, VllmSimulator sim) {
    Map<String, Long> received =
        sim.received().stream()
            .collect(
                Collectors.groupingBy(VllmSimulator.Received::requestId, Collectors.counting()));
    assertEquals(
        records.stream().map(RequestRecord::id).collect(Collectors.toSet()), received.keySet());
    assertTrue(
        received.values().stream().allMatch(n -> n == 1),
        "a request reached the server twice: " + received);
  }
}
