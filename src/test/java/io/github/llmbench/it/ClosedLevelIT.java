package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.PacedServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed level stopped by time, seen from the server: its users send one request after another
 * (each user's next as its last one ends), and the paced server's own log of {@code x-request-id}s
 * says what arrived. One run for the class.
 */
class ClosedLevelIT {
  private static final int CONC = 4;

  @TempDir static Path results;

  private static PacedServer server;
  private static List<RequestRecord> records;
  private static List<PacedServer.StreamRecord> received;

  @BeforeAll
  static void runFourUsersForThreeSeconds() throws Exception {
    server = PacedServer.start(PacedServer.Pacing.ofMillis(10, 5, 20), 0, 1);
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url", server.baseUrl(),
                "conc", String.valueOf(CONC),
                "duration", "3",
                "input.len", "16",
                "output.len", "20"));
    assertEquals(0, run.exitCode(), run.console());
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
    received = server.takeRecords();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void eachRequestArrivedExactlyOnceAndEachArrivalIsARecord() {
    List<String> ids = received.stream().map(PacedServer.StreamRecord::id).toList();
    Set<String> distinct = Set.copyOf(ids);
    assertEquals(ids.size(), distinct.size(), "each x-request-id arrived exactly once");
    assertEquals(
        records.stream().map(RequestRecord::id).collect(Collectors.toSet()),
        distinct,
        "the server saw the records' requests, no other");
    assertTrue(records.size() > 2 * CONC, "users sent several each: " + records.size());
  }

  @Test
  void theServerNeverHadMoreThanTheLevelsUsersAtOnce() {
    // each stream from its arrival to its last chunk: a user's next request arrives after that
    List<long[]> edges = new ArrayList<>();
    for (PacedServer.StreamRecord s : received) {
      long[] sent = s.sentNanos();
      edges.add(new long[] {s.receivedNanos(), 1});
      edges.add(new long[] {sent.length == 0 ? s.receivedNanos() : sent[sent.length - 1], -1});
    }
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    int peak = 0;
    for (long[] e : edges) {
      now += (int) e[1];
      peak = Math.max(peak, now);
    }
    assertEquals(CONC, peak, "streams open at the server at once");
  }
}
