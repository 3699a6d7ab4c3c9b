package io.github.llmbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServeCommandTest {

  @Test
  void namedParametersFillTheirPlaceOthersAreAddedAsFlags() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("max_num_seqs", "64");
    p.put("max-num-batched-tokens", "8192");
    p.put("enable-chunked-prefill", "false");
    p.put("enforce-eager", "true");
    assertEquals(
        "vllm serve m --port 8123 --max-num-seqs 64 --max-num-batched-tokens 8192"
            + " --no-enable-chunked-prefill --enforce-eager",
        ServeCommand.of("vllm serve m --port {port} --max-num-seqs {max_num_seqs}", p, 8123)
            .line());
  }

  @Test
  void valuesAreOneShellWordEach() {
    assertEquals(
        "srv --port 1 --x 'a b' --y 'it'\\''s'",
        ServeCommand.of(
                "srv --port {port}",
                new LinkedHashMap<>(Map.of("x", "a b")) {
                  {
                    put("y", "it's");
                  }
                },
                1)
            .line());
  }

  @Test
  void theSimulatorIsThisJavaOnThisClassPath() {
    String line = ServeCommand.of("simulator", Map.of("max-num-seqs", "4"), 9).line();
    assertTrue(
        line.contains("io.github.llmbench.simulator.VllmSimulatorMain --port 9 --max-num-seqs 4"),
        line);
    assertTrue(line.contains(" -cp "), line);
    assertTrue(
        ServeCommand.of("simulator --model sim-tiny", Map.of(), 9)
            .line()
            .endsWith("VllmSimulatorMain --port 9 --model sim-tiny"));
  }
}
