package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gates through Gatling's main, as the Maven plugin runs it: exit codes, FAIL lines, gates.xml. The
 * run whose gates all pass (with two trials) is the relative gate's baseline too: one run for both.
 */
class GatesIT {
  private static final String[] RUN = {
    "conc=2", "prompts=8", "input.len=32", "output.len=8", "sim.model=sim-tiny", "sim.gpu=rtx4090"
  };

  private static GatlingProcess.Outcome run(Path results, String... gates) throws Exception {
    String[] props = Stream.concat(Stream.of(RUN), Stream.of(gates)).toArray(String[]::new);
    return GatlingProcess.run(ServingBenchmarkSimulation.class, results, 120, props);
  }

  private static String gatesXml(Path results) throws Exception {
    try (Stream<Path> files = Files.walk(results)) {
      Path xml =
          files
              .filter(p -> p.getFileName().toString().equals("gates.xml"))
              .findFirst()
              .orElseThrow();
      return Files.readString(xml);
    }
  }

  @TempDir static Path passing;

  private static GatlingProcess.Outcome passed;

  @BeforeAll
  static void runGatesThatPass() throws Exception {
    passed =
        run(
            passing,
            "trials=2",
            "gate.tpot.p99=5000",
            "gate.failed.pct=0",
            "gate.output_throughput.min=1",
            "gate.goodput=ttft:10000",
            "gate.goodput.pct=99");
  }

  @Test
  void gatesTheRunMeetsExitZero() throws Exception {
    GatlingProcess.Outcome o = passed;
    assertEquals(0, o.exitCode(), o.stdout() + o.stderr());
    assertTrue(o.stdout().contains("PASS c2       tpot.p99"), o.stdout());
    assertFalse(o.stdout().contains("FAIL "), o.stdout());
    String xml = gatesXml(passing);
    assertTrue(xml.contains("tests=\"4\" failures=\"0\""), xml);
  }

  @Test
  void theShutdownHookLinksThePageFromGatlingsMenu() throws Exception {
    try (Stream<Path> runs = Files.list(passing)) {
      Path run = runs.filter(Files::isDirectory).findFirst().orElseThrow();
      assertTrue(Files.readString(run.resolve("index.html")).contains("llm.html"), run.toString());
    }
  }

  @Test
  void gatesTheRunMissesFailTheCommand(@TempDir Path results) throws Exception {
    // one run for latency gates and a throughput gate, all checked by the kit
    GatlingProcess.Outcome o =
        run(
            results,
            "gate.c2.ttft.mean=0.001",
            "gate.tpot.p99=5000",
            "gate.e2el.p99=1",
            "gate.output_throughput.min=1000000000");
    assertEquals(2, o.exitCode(), o.stdout() + o.stderr());
    assertTrue(o.stdout().contains("FAIL c2       ttft.mean"), o.stdout());
    assertTrue(o.stdout().contains("FAIL c2       e2el.p99"), o.stdout());
    assertTrue(o.stdout().contains("FAIL c2       output_throughput.min"), o.stdout());
    assertTrue(o.stdout().contains("PASS c2       tpot.p99"), o.stdout());
    assertTrue(o.stdout().contains("PASS c2       failed.pct"), "the default gate: " + o.stdout());
    assertTrue(o.stdout().contains("performance gates FAILED"), o.stdout());
    assertTrue(gatesXml(results).contains("tests=\"5\" failures=\"3\""));
    // Gatling checks the failure gate on the request record; latency gates are the kit's alone
    // (judged on their intervals), so no Gatling assertion of a latency can overrule the verdict
    assertTrue(
        o.stdout()
            .contains(
                "c2 / request: percentage of failed events is less than or equal to 1.0 : true"),
        o.stdout());
    assertFalse(o.stdout().contains("of response time is less than"), o.stdout());
    assertFalse(o.stdout().contains("c2 / TTFT") || o.stdout().contains("c2 / TPOT"), o.stdout());
  }

  @Test
  void anUnknownGateStopsTheRunBeforeAnyLoad(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = run(results, "gate.tpot.p100=300");
    assertEquals(3, o.exitCode());
    assertTrue(
        o.stderr().strip().startsWith("gatling-llm-bench: Unknown gate -Dgate.tpot.p100=300"),
        o.stderr());
  }

  @Test
  void aBadGatePowerStopsTheRunBeforeAnyLoad(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o = run(results, "gate.power=1.5");
    assertEquals(3, o.exitCode());
    assertTrue(
        o.stderr()
            .strip()
            .startsWith(
                "gatling-llm-bench: Invalid gate -Dgate.power=1.5: expected a number above 0.5"
                    + " and below 1"),
        o.stderr());
  }

  /**
   * A relative gate against a baseline with trials and a declared run-to-run noise, through the
   * forked JVM: planned before the load, judged at the power asked, and both rates and the noise's
   * source (declared, not measured) in the line and gates.xml.
   */
  @Test
  void aRelativeGateSaysItsPlanAndItsErrorRates(@TempDir Path dir) throws Exception {
    assertEquals(0, passed.exitCode(), "the baseline: " + passed.stdout() + passed.stderr());
    Path summary;
    try (Stream<Path> files = Files.walk(passing)) {
      summary =
          files
              .filter(p -> p.getFileName().toString().equals("summary.json"))
              .findFirst()
              .orElseThrow();
    }
    Path candidate = dir.resolve("candidate");
    GatlingProcess.Outcome o =
        run(
            candidate,
            "trials=2",
            "baseline=" + summary,
            "gate.tpot.mean=+50%",
            "gate.power=0.8",
            "gate.run.noise=0.05",
            "gate.inconclusive=pass");
    assertEquals(0, o.exitCode(), o.stdout() + o.stderr());
    assertTrue(
        o.stdout().contains("gate plan    c2 tpot.mean +50.0%: 2 trials against the baseline's 2"),
        o.stdout());
    assertTrue(
        o.stdout().contains("judged at false alarm 5%, a +50.0% change passes at most 20%"),
        o.stdout());
    assertTrue(
        o.stdout()
            .contains(
                "noise: run-to-run noise declared by -Dgate.run.noise=0.050, not measured by the"
                    + " kit"),
        o.stdout());
    String xml = gatesXml(candidate);
    assertTrue(xml.contains("a +50.0% change passes at most 20%"), xml);
  }
}
