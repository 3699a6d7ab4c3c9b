package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.ScriptedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API key is sent as a Bearer token, and reaches no file, log or report of the run. */
class ApiKeyIT {
  private static final String KEY = "sk-llmbench-test-key-0123456789abcdef";

  @Test
  void theKeyIsInNoOutput(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o;
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      o = GatlingProcess.run(
          ServingBenchmarkSimulation.class, results, 120, Map.of("OPENAI_API_KEY", KEY),
          "base.url=" + server.baseUrl(), "conc=2", "prompts=4", "input.len=32", "output.len=5");
      assertEquals(List.of("Bearer " + KEY, "Bearer " + KEY, "Bearer " + KEY, "Bearer " + KEY), server.authorizations());
    }
    assertEquals(0, o.exitCode(), o.stdout() + o.stderr());
    assertTrue(o.stdout().contains("OPENAI_API_KEY set (not shown)"), o.stdout());
    assertFalse(o.stdout().contains(KEY) || o.stderr().contains(KEY), "key in the console");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(results)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertTrue(files.stream().anyMatch(f -> f.endsWith("requests.jsonl")));
    for (Path f : files) {
      byte[] bytes = Files.readAllBytes(f);
      assertFalse(new String(bytes, StandardCharsets.ISO_8859_1).contains(KEY), "key in " + f);
    }
  }
}
