package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.LlmBench;
import io.github.llmbench.settings.SettingsTable;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad setting or an unreachable server stops the run, as launched by the Gatling plugin (a forked
 * JVM running Gatling's main), with one line and no stack trace, before any load: Gatling never
 * says its simulation started, and a server that can log what reached it got no request of the
 * load.
 */
class BadInputIT {

  private static GatlingProcess.Outcome gatling(Path results, String... properties)
      throws Exception {
    return GatlingProcess.run(ServingBenchmarkSimulation.class, results, 60, properties);
  }

  @Test
  void badConcurrencyIsOneLine(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "conc=abc");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Invalid -Dconc=abc: expected a whole number from 1 to 100000",
        o.stderr().strip());
    assertFalse(o.stdout().contains("Exception"), o.stdout());
    assertFalse(
        o.stdout()
            .contains("Simulation " + ServingBenchmarkSimulation.class.getName() + " started"));
  }

  @Test
  void anInjectorWithoutASeedStopsBeforeAnyLoad(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "injector=0/2", "conc=4", "duration=3");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Invalid -Dinjector=0/2 without -Dseed: injectors split one run's"
            + " requests by its seed, so give every injector the same one, e.g. -Dseed=42",
        o.stderr().strip());
    assertFalse(o.stdout().contains("started"), o.stdout());
  }

  @Test
  void aTraceLineWithoutTimestampIsOneLineBeforeAnyLoad(@TempDir Path results) throws Exception {
    Path trace = results.resolve("trace.jsonl");
    Files.writeString(
        trace,
        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 3}\n{\"input_length\": 10, \"output_length\": 3}\n");
    GatlingProcess.Outcome o = gatling(results, "dataset=trace:" + trace);
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Malformed trace "
            + trace
            + " line 2: no \"timestamp\" (expected the request's time in ms, a number from 0)",
        o.stderr().strip());
    assertFalse(o.stdout().contains("started"), o.stdout());
  }

  /**
   * Issue 62 item 2: a trace line's length past the one maximum is refused as the trace is read,
   * where {@code input_length} 2147483647 died of OutOfMemoryError building its prompt.
   */
  @Test
  void aTraceLengthPastTheMaximumIsOneLineBeforeAnyLoad(@TempDir Path results) throws Exception {
    Path trace = results.resolve("trace.jsonl");
    Files.writeString(
        trace, "{\"timestamp\": 0, \"input_length\": 2147483647, \"output_length\": 3}\n");
    GatlingProcess.Outcome o = gatling(results, "dataset=trace:" + trace);
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Malformed trace "
            + trace
            + " line 1: \"input_length\" is 2147483647 (expected a whole number of tokens from 1"
            + " to 10000000)",
        o.stderr().strip());
    assertFalse(o.stdout().contains("started"), o.stdout());
  }

  @Test
  void anUnreachableServerIsOneLineBeforeAnyLoad(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "base.url=http://127.0.0.1:9");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Cannot reach the server at http://127.0.0.1:9 (GET /v1/models): connection refused",
        o.stderr().strip());
    assertFalse(o.stdout().contains("started"), o.stdout());
  }

  /**
   * The kernel accepts the connections (a backlog nobody takes from), nobody ever answers: the run
   * gives up on the first call's answer and stops before the load. What reached the server, read
   * once the run has ended, says so: one connection, carrying {@code GET /v1/models} and nothing
   * else (no retry, no request of the load), where a bound on the run's time failed on a busy
   * machine.
   */
  @Test
  void aSilentServerIsOneLineAfterOneUnansweredCall(@TempDir Path results) throws Exception {
    try (ServerSocketChannel silent = ServerSocketChannel.open()) {
      silent.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      String url = "http://127.0.0.1:" + silent.socket().getLocalPort();
      GatlingProcess.Outcome o = gatling(results, "base.url=" + url);
      assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
      assertEquals(
          "gatling-llm-bench: Cannot reach the server at "
              + url
              + " (GET /v1/models): no answer within 5 s",
          o.stderr().strip());
      assertEquals(List.of("GET /v1/models"), requestLines(silent), "what reached the server");
    }
  }

  /**
   * The request line of each connection the kernel accepted for {@code server}, read after the
   * client ended: its bytes wait in the sockets, its connections in the backlog.
   */
  private static List<String> requestLines(ServerSocketChannel server) throws IOException {
    server.configureBlocking(false);
    List<String> lines = new ArrayList<>();
    for (SocketChannel accepted = server.accept(); accepted != null; accepted = server.accept()) {
      try (SocketChannel c = accepted) {
        c.configureBlocking(true);
        String head =
            new String(c.socket().getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        lines.add(head.split("\r\n", 2)[0].replaceFirst(" HTTP/1\\.[01]$", ""));
      }
    }
    return lines;
  }

  @Test
  void aMisspelledSettingStopsTheRunWithTheNearMiss(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "concurrency=4", "duration=3");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Unknown setting -Dconcurrency=4: did you mean -Dconc? (-Dhelp lists every setting)",
        o.stderr().strip());
    assertFalse(o.stdout().contains("started"), o.stdout());
    // the other messages (-Dsim.gpuu, -Dinput_len, ...): SettingsTableTest
  }

  @Test
  void helpListsEverySettingAndLoadsNothing(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "help=");
    assertEquals(0, o.exitCode(), o.stderr());
    for (SettingsTable.Setting s : SettingsTable.ALL) {
      assertTrue(o.stdout().contains("-D" + s.name()), "-D" + s.name() + " in -Dhelp");
    }
    assertFalse(o.stdout().contains("started"), "no load: " + o.stdout());
    assertTrue(o.stderr().isBlank(), o.stderr());
  }

  @Test
  void anUnknownHelpTopicIsOneLineAndBadInput(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "help=simulator");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Invalid -Dhelp=simulator: expected empty or true (every setting), or a"
            + " topic: server, load, workload, sessions, images, sim, report, gates, search, ab,"
            + " sweep, telemetry, export, injector, records",
        o.stderr().strip());
    assertFalse(o.stdout().contains("started"), o.stdout());
  }

  @Test
  void aHelpTopicListsItsSettingsAlone(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = gatling(results, "help=gates");
    assertEquals(0, o.exitCode(), o.stderr());
    assertTrue(o.stdout().contains(SettingsTable.help("gates")), o.stdout());
    assertFalse(o.stdout().contains("-Dconc "), "another topic's: " + o.stdout());
    assertFalse(o.stdout().contains("started"), "no load: " + o.stdout());
  }
}
