package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ClientSamplesFile;
import io.github.llmbench.summary.ClientFigures;
import io.github.llmbench.summary.DeliveredFigures;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that starves its own event loop (busy work before each request) is found out by its
 * probe: the Client block's guard names the level and the lag, {@code summary.json} says the client
 * limited what it measured, and a gate on the lag fails. One run for the class.
 *
 * <p>Whether the guard says "bottleneck" (the loop late from its own work) or "delayed" (its thread
 * waiting for a core) follows the loop's share of a core while it spun, which a busy 2-core machine
 * takes from it: either is the probe finding the client out; which one figures give is {@code
 * ClientHealthTest}'s, on written samples.
 */
class ClientHealthIT {
  private static final List<String> LIMITED = List.of("client bottleneck", "client delayed");

  @TempDir static Path results;

  private static GatlingRun.Result run;
  private static ClientFigures client;
  private static LevelSummary level;

  @BeforeAll
  static void runAStarvedClient() throws Exception {
    run =
        GatlingRun.run(
            StarvedClientSimulation.class,
            results,
            Map.of(
                "conc", "4",
                "duration", "4",
                "it.spin.ms", "60",
                "input.len", "32",
                "output.len", "8",
                "gate.client.lag.p99", "5"));
    level = TestReports.summary(run.runDir()).levels().get("c4");
    client = level.client();
  }

  @Test
  void theClientBlockRaisesTheGuardAtTheLevel() {
    String console = run.console();
    assertTrue(console.contains("event-loop lag p99 (ms)"), "the Client block: " + console);
    assertTrue(
        console.contains("! the client was the bottleneck at c4: event-loop lag p99 ")
            || console.contains("! the client's event loops ran late at c4: lag p99 "),
        console);
  }

  @Test
  void theSummarySaysTheClientLimitedWhatItMeasured() {
    assertTrue(LIMITED.contains(client.verdict()), client.toString());
    // the loops are held 60 ms before each request: their tasks wait that long
    assertTrue(client.level().loopLagP99Ms() > 5, client.toString());
    assertTrue(client.level().probes() > 50, client.toString());
  }

  @Test
  void aGateOnTheLagFails() throws Exception {
    assertTrue(
        run.console().matches("(?s).*FAIL c4\\s+client\\.lag\\.p99\\s+limit <= 5\\.00 ms.*"),
        run.console());
    assertTrue(
        Files.readString(run.llm("gates.xml")).contains("client.lag.p99"), "in gates.xml too");
  }

  @Test
  void theBusyWorkBetweenRequestsLowersTheDeliveredLoad() {
    // the busy work sits between a user's requests: fewer than 4 in flight on average
    DeliveredFigures d = level.deliveredLoad();
    assertEquals("closed", d.model());
    assertEquals(4.0, d.asked(), 0.0);
    assertTrue(d.delivered() < 3.9 && d.delivered() > 1, d.toString());
  }

  @Test
  void theSamplesAreWrittenToClientJsonl() throws Exception {
    assertTrue(Files.isRegularFile(run.llm("client.jsonl")));
    assertTrue(ClientSamplesFile.read(run.llm("client.jsonl").getParent()).size() >= 3);
  }
}
