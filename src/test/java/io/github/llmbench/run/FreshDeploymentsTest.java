package io.github.llmbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.summary.AbFigures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The servers of an A/B run in blocks, started by the kit: block 1's before the load, each later
 * block's after both old ones have stopped, on the same ports; a server that does not start is said
 * in one line, and nothing is left running.
 */
class FreshDeploymentsTest {
  private static final String SIM = "simulator --model sim-tiny --gpu rtx4090";

  private static BenchSettings settings(String a, String b) {
    return BenchSettings.from(
        Map.of("serve.cmd", a, "candidate.serve.cmd", b, "gate.tpot.mean", "+10%"),
        Map.<String, String>of()::get);
  }

  private static FreshDeployments of(BenchSettings s) {
    return (FreshDeployments) AbServers.of(s.ab().orElseThrow().servers());
  }

  @Test
  void eachBlockGetsTwoNewProcessesOnTheSamePortsAndTheOldOnesAreGone() {
    BenchSettings s = settings(SIM, SIM);
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
    FreshDeployments servers = of(s);
    try (Target target = servers.target(s, out)) {
      servers.beforeUnit(2, out).join();
      List<AbFigures.Block> blocks = servers.blocks();
      assertEquals(2, blocks.size(), console.toString(StandardCharsets.UTF_8));
      AbFigures.Block first = blocks.get(0);
      AbFigures.Block second = blocks.get(1);
      assertNotEquals(first.pidA(), second.pidA());
      assertNotEquals(first.pidB(), second.pidB());
      for (long pid : List.of(first.pidA(), first.pidB())) {
        assertFalse(alive(pid), "block 1's process " + pid + " stopped before block 2");
      }
      assertTrue(alive(second.pidA()) && alive(second.pidB()), "block 2's serve");
      // the requests' URLs were fixed before the load: block 2 answers where block 1 did
      assertTrue(target.api().ready(java.time.Duration.ofSeconds(5)), "A on its port again");
      assertTrue(
          console.toString(StandardCharsets.UTF_8).contains("A/B block 2: fresh servers, A pid "));
      target.close();
      assertFalse(alive(second.pidA()) || alive(second.pidB()), "closed with the target");
    }
  }

  @Test
  void aServerThatDoesNotStartIsOneLineAndLeavesNothingRunning() {
    BenchSettings s = settings(SIM, "sh -c 'exit 3' {port}");
    FreshDeployments servers = of(s);
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    TargetException e = assertThrows(TargetException.class, () -> servers.target(s, quiet));
    assertTrue(
        e.getMessage().contains("the server exited with code 3 before it was ready"),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(servers.blocks().isEmpty());
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
