package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class CliAndConfigTest {

  @Test
  void parsesFlags() {
    SimulatorConfig c =
        VllmSimulatorMain.parse(
            new String[] {
              "--port",
              "8001",
              "--model",
              "sim-tiny",
              "--gpu=rtx4090",
              "--tp",
              "2",
              "--max-num-seqs",
              "64",
              "--served-model-name",
              "tiny"
            });
    assertEquals(8001, c.port());
    assertEquals("sim-tiny", c.model());
    assertEquals("rtx4090", c.gpu());
    assertEquals(2, c.tp());
    assertEquals(64, c.maxNumSeqs());
    assertEquals("tiny", c.effectiveServedModelName());
    assertNull(VllmSimulatorMain.parse(new String[] {"--help"}));
  }

  @Test
  void badArgumentsGiveOneLineNamingArgumentValueAndAccepted() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> VllmSimulatorMain.parse(new String[] {"--port", "abc"}));
    assertEquals(
        "--port: 'abc' is invalid (accepted: a whole number from 0 to 65535)", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> VllmSimulatorMain.parse(new String[] {"--gpu", "a100"}));
    assertTrue(
        e.getMessage()
            .startsWith(
                "--gpu: 'a100' is invalid (accepted: one of h100-sxm, rtx4080-32gb, rtx4090"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> VllmSimulatorMain.parse(new String[] {"--frobnicate", "1"}));
    assertTrue(e.getMessage().startsWith("--frobnicate: unknown argument"));
  }

  @Test
  void defaultsAndValidation() {
    SimulatorConfig d = SimulatorConfig.defaults();
    assertEquals("Qwen/Qwen2.5-7B-Instruct", d.effectiveServedModelName());
    assertEquals(256, d.maxNumSeqs());
    assertEquals(2048, d.maxNumBatchedTokens());
    d.validate();
    assertThrows(IllegalArgumentException.class, () -> d.withTp(3).validate()); // 28 heads
    assertThrows(IllegalArgumentException.class, () -> VllmSimulator.start(d.withModel("nope")));
  }

  @Test
  void bindsLoopbackOnlyAndStartsStopsCleanly() {
    for (int i = 0; i < 3; i++) {
      try (VllmSimulator sim =
          VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny"))) {
        assertTrue(sim.port() > 0);
        assertEquals("http://127.0.0.1:" + sim.port(), sim.baseUrl());
      }
    }
  }

  @Test
  void dialectFlag() {
    assertEquals(Dialect.VLLM, VllmSimulatorMain.parse(new String[0]).dialect());
    assertEquals(
        Dialect.LLAMACPP,
        VllmSimulatorMain.parse(new String[] {"--dialect", "llamacpp"}).dialect());
    assertEquals(
        Dialect.LLAMACPP,
        VllmSimulatorMain.parse(new String[] {"--dialect=llamacpp", "--gpu", "h100-sxm"})
            .dialect());
    IllegalArgumentException e =
        Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> VllmSimulatorMain.parse(new String[] {"--dialect", "ollama"}));
    assertEquals(
        "--dialect: 'ollama' is invalid (accepted: one of vllm, llamacpp, sglang, tgi, trtllm)",
        e.getMessage());
    assertEquals(Dialect.TGI, VllmSimulatorMain.parse(new String[] {"--dialect", "tgi"}).dialect());
  }

  @Test
  void noiseSlowdownAndSeedFlags() {
    assertSame(SimNoise.NONE, VllmSimulatorMain.parse(new String[0]).noise(), "none by default");
    SimNoise n =
        VllmSimulatorMain.parse(new String[] {"--seed", "42", "--noise", "0.1", "--slowdown=1.1"})
            .noise();
    assertEquals(new SimNoise(0.1, 1.1, 42), n);
    assertEquals(", noise 0.1 (seed 42), slowdown 1.1", VllmSimulatorMain.noiseWords(n));
    assertEquals("", VllmSimulatorMain.noiseWords(SimNoise.NONE));
    assertEquals(
        new SimNoise(0, 1.25, 7),
        VllmSimulatorMain.parse(new String[] {"--slowdown", "1.25", "--seed", "7"}).noise());
    assertTrue(VllmSimulatorMain.parse(new String[] {"--seed", "7"}).noise().off());
    assertEquals(
        "--noise: 'abc' is invalid (accepted: a number from 0 to 1 (a coefficient of variation: 0.1"
            + " is 10%))",
        assertThrows(
                IllegalArgumentException.class,
                () -> VllmSimulatorMain.parse(new String[] {"--noise", "abc"}))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> VllmSimulatorMain.parse(new String[] {"--slowdown", "0"}))
            .getMessage()
            .startsWith("--slowdown: '0' is invalid (accepted: a number above 0 and at most 100"));
    assertEquals(
        "--seed: 'x' is invalid (accepted: a whole number)",
        assertThrows(
                IllegalArgumentException.class,
                () -> VllmSimulatorMain.parse(new String[] {"--seed", "x"}))
            .getMessage());
    assertTrue(
        VllmSimulatorMain.usage()
            .contains("[--noise 0] [--slowdown 1] [--process-sd 0] [--seed N]"));
  }
}
