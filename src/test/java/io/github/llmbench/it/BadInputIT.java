package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.LlmBench;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad setting or an unreachable server stops the run, as launched by the Gatling plugin (a
 * forked JVM running Gatling's main), with one line and no stack trace, before any load.
 */
class BadInputIT {

  record Outcome(int exitCode, String stdout, String stderr, long millis) {}

  private static Outcome gatling(Path results, String... properties) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    for (String p : properties) {
      cmd.add("-D" + p);
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.gatling.app.Gatling");
    cmd.add("--simulation");
    cmd.add(ServingBenchmarkSimulation.class.getName());
    cmd.add("--results-folder");
    cmd.add(results.toString());
    Path out = results.resolve("out.txt");
    Path err = results.resolve("err.txt");
    long start = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "Gatling did not stop");
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    return new Outcome(
        p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), ms);
  }

  @Test
  void badConcurrencyIsOneLine(@TempDir Path results) throws Exception {
    Outcome o = gatling(results, "conc=abc");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals("gatling-llm-bench: Invalid -Dconc=abc: expected a whole number from 1 to 100000", o.stderr().strip());
    assertFalse(o.stdout().contains("Exception"), o.stdout());
    assertFalse(o.stdout().contains("Simulation " + ServingBenchmarkSimulation.class.getName() + " started"));
  }

  @Test
  void unreachableServerFailsWithinTenSeconds(@TempDir Path results) throws Exception {
    Outcome o = gatling(results, "base.url=http://127.0.0.1:9");
    assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
    assertEquals(
        "gatling-llm-bench: Cannot reach the server at http://127.0.0.1:9 (GET /v1/models): connection refused",
        o.stderr().strip());
    assertTrue(o.millis() < 10_000, "took " + o.millis() + " ms");
  }

  @Test
  void silentServerFailsWithinTenSeconds(@TempDir Path results) throws Exception {
    // the kernel accepts the connection, nobody ever answers
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String url = "http://127.0.0.1:" + silent.getLocalPort();
      Outcome o = gatling(results, "base.url=" + url);
      assertEquals(LlmBench.EXIT_BAD_INPUT, o.exitCode());
      assertEquals(
          "gatling-llm-bench: Cannot reach the server at " + url + " (GET /v1/models): no answer within 5 s",
          o.stderr().strip());
      assertTrue(o.millis() < 10_000, "took " + o.millis() + " ms");
    }
  }
}
