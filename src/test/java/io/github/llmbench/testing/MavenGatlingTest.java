package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The user's command itself, {@code mvn -q -B gatling:test -D...}, run in this project: Maven, the
 * Gatling plugin and the JVM it forks, where {@link GatlingProcess} starts Gatling's main alone.
 */
public final class MavenGatlingTest {
  private MavenGatlingTest() {}

  /** Its exit status and its console, standard output and error together. */
  public record Outcome(int exitCode, String output) {}

  /**
   * Runs it with these arguments ({@code -Dconc=1}, ...), writing its console to {@code log}; after
   * {@code timeoutSeconds} it is killed, failing the test (as {@link GatlingProcess} does).
   */
  public static Outcome run(Path log, int timeoutSeconds, String... arguments)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("mvn", "-q", "-B", "gatling:test"));
    cmd.addAll(List.of(arguments));
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly().waitFor();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertTrue(done, "mvn gatling:test did not end within " + timeoutSeconds + " s:\n" + output);
    return new Outcome(p.exitValue(), output);
  }
}
