package io.github.llmbench.it;

import io.github.llmbench.testing.LlamaServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit against llama.cpp's llama-server, `api=completions`: see {@link LlamaServerChecks}. */
@Tag("llama-server")
class LlamaServerCompletionsIT {
  private static LlamaServer server;

  @BeforeAll
  static void startServer() {
    server = LlamaServer.start("completions-it");
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyRequestOkAndConsistentWithTheServersTimings(@TempDir Path results) throws Exception {
    LlamaServerChecks.runAndCheck(server, "completions", results);
  }
}
