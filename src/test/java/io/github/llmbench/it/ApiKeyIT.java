package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.ScriptedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API key is sent as a Bearer token, and reaches no file, log or report of the run. */
class ApiKeyIT {
  private static final String KEY = "sk-llmbench-test-key-0123456789abcdef";
  private static final String GATEWAY_TOKEN = "gw-token-fedcba9876543210";

  @Test
  void theKeyAndHeaderValuesAreInNoOutput(@TempDir Path results) throws Exception {
    GatlingProcess.Outcome o;
    List<Map<String, String>> headers;
    List<String> bodies;
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      o =
          GatlingProcess.run(
              ServingBenchmarkSimulation.class,
              results,
              120,
              Map.of("OPENAI_API_KEY", KEY),
              "base.url=" + server.baseUrl(),
              "conc=2",
              "prompts=4",
              "input.len=32",
              "output.len=5",
              "header.X-Gateway-Token=" + GATEWAY_TOKEN,
              "extra.body={\"temperature\":0.6,\"top_p\":0.95}");
      assertEquals(
          List.of("Bearer " + KEY, "Bearer " + KEY, "Bearer " + KEY, "Bearer " + KEY),
          server.authorizations());
      headers = List.copyOf(server.completionHeaders());
      bodies = List.copyOf(server.completionBodies());
    }
    assertEquals(0, o.exitCode(), o.stdout() + o.stderr());
    assertTrue(o.stdout().contains("OPENAI_API_KEY set (not shown)"), o.stdout());
    assertTrue(o.stdout().contains("header.X-Gateway-Token <set>"), o.stdout());
    // this server tells no context length and has no /tokenize: said once each, and the run goes on
    assertEquals(
        1,
        o.stdout().lines().filter(l -> l.contains("the server tells no context length")).count(),
        o.stdout());
    assertTrue(o.stdout().contains("one word per token, an ESTIMATE"), o.stdout());
    for (String secret : List.of(KEY, GATEWAY_TOKEN)) {
      assertFalse(
          o.stdout().contains(secret) || o.stderr().contains(secret), "secret in the console");
    }
    // vllm bench serve's --header and --extra-body, and x-request-id = the record's id
    assertEquals(4, headers.size());
    for (Map<String, String> h : headers) {
      assertEquals(GATEWAY_TOKEN, h.get("x-gateway-token"), h.toString());
    }
    for (String body : bodies) {
      assertTrue(
          body.contains("\"temperature\":0.6")
              && body.contains("\"top_p\":0.95")
              && body.contains("\"max_tokens\":5"),
          body);
    }
    Set<String> sentIds = new HashSet<>();
    headers.forEach(h -> sentIds.add(h.get("x-request-id")));
    List<Path> files;
    try (Stream<Path> walk = Files.walk(results)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    Path records =
        files.stream().filter(f -> f.endsWith("requests.jsonl")).findFirst().orElseThrow();
    Set<String> recordIds = new HashSet<>();
    RequestsJsonl.read(records).forEach(r -> recordIds.add(r.id()));
    assertEquals(recordIds, sentIds, "each request's x-request-id is its record's id");
    for (Path f : files) {
      String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      assertFalse(text.contains(KEY) || text.contains(GATEWAY_TOKEN), "secret in " + f);
    }
  }
}
