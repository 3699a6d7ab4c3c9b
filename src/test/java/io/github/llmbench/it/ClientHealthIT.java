package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ClientSamplesFile;
import io.github.llmbench.summary.ClientFigures;
import io.github.llmbench.summary.DeliveredFigures;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that starves its own event loop (busy work before each request) is found out by its
 * probe: the Client block's guard names the level and the lag, {@code summary.json} says "client
 * bottleneck", and a gate on the lag fails.
 */
class ClientHealthIT {

  @Test
  void aStarvedClientRaisesTheGuardAndFailsItsGate(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
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
    String console = run.console();
    assertTrue(console.contains("event-loop lag p99 (ms)"), "the Client block: " + console);
    assertTrue(
        console.contains("! the client was the bottleneck at c4: event-loop lag p99 "), console);
    ClientFigures client = TestReports.summary(run.runDir()).levels().get("c4").client();
    assertEquals("client bottleneck", client.verdict());
    assertTrue(client.level().loopLagP99Ms() > 5, client.toString());
    assertTrue(client.level().probes() > 50, client.toString());
    // the busy work sits between a user's requests: fewer than 4 in flight on average
    DeliveredFigures d = TestReports.summary(run.runDir()).levels().get("c4").deliveredLoad();
    assertEquals("closed", d.model());
    assertEquals(4.0, d.asked(), 0.0);
    assertTrue(d.delivered() < 3.9 && d.delivered() > 1, d.toString());
    assertTrue(Files.isRegularFile(run.llm("client.jsonl")));
    assertTrue(ClientSamplesFile.read(run.llm("client.jsonl").getParent()).size() >= 3);
    assertTrue(
        console.matches("(?s).*FAIL c4\\s+client\\.lag\\.p99\\s+limit <= 5\\.00 ms.*"), console);
    assertTrue(
        Files.readString(run.llm("gates.xml")).contains("client.lag.p99"), "in gates.xml too");
  }
}
