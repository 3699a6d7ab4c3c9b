package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.testing.MavenGatlingTest;
import io.github.llmbench.testing.ScriptedServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's command itself, {@code mvn gatling:test}, through the Gatling plugin and its forked
 * JVM (which receives every {@code -D} value Java-escaped), with the awkward values the docs show:
 * a JSON object with quotes, commas and a non-ASCII string, a header with spaces, a comma, an
 * equals sign and quotes. The scripted server says what arrived.
 */
// builds this project with Maven in its own folder: one at a time (pom.xml, failsafe "alone")
@Tag("alone")
class PluginForkIT {
  @TempDir static Path dir;

  private static final String EXTRA_BODY =
      "{\"temperature\":0.5,\"top_p\":0.9,\"note\":\"café, s'il vous plaît\"}";
  private static final String HEADER = "a b, c=d \"q\" 'r'";

  private static List<ScriptedServer.Exchange> exchanges;
  private static String output;
  private static int exit;

  @BeforeAll
  static void runTheUsersCommand() throws Exception {
    try (ScriptedServer server = new ScriptedServer(List.of(ScriptedServer.Behaviour.OK))) {
      MavenGatlingTest.Outcome o =
          MavenGatlingTest.run(
              dir.resolve("mvn.log"),
              240,
              "-Dbase.url=" + server.baseUrl(),
              "-Dconc=1",
              "-Dprompts=2",
              "-Dinput.len=16",
              "-Doutput.len=4",
              "-Dmetrics.interval=0",
              "-Dextra.body=" + EXTRA_BODY,
              "-Dheader.X-Note=" + HEADER,
              "-Dgatling.resultsFolder=" + dir.resolve("results"));
      exit = o.exitCode();
      output = o.output();
      exchanges = List.copyOf(server.exchanges());
    }
  }

  @Test
  void theRunPassesThroughThePluginsFork() {
    assertEquals(0, exit, output);
    assertEquals(2, exchanges.size(), output);
    // each request once, by its own id
    assertEquals(
        2, exchanges.stream().map(e -> e.headers().get("x-request-id")).distinct().count());
  }

  @Test
  void theJsonBodyArrivesAsTyped() throws Exception {
    JsonNode typed = new ObjectMapper().readTree(EXTRA_BODY);
    for (ScriptedServer.Exchange e : exchanges) {
      JsonNode body = new ObjectMapper().readTree(e.body());
      typed
          .fields()
          .forEachRemaining(f -> assertEquals(f.getValue(), body.get(f.getKey()), e.body()));
    }
  }

  @Test
  void theHeaderArrivesAsTyped() {
    for (ScriptedServer.Exchange e : exchanges) {
      assertEquals(HEADER, e.headers().get("x-note"), e.headers().toString());
      assertTrue(e.headers().containsKey("x-request-id"));
    }
  }
}
