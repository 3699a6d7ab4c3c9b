package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a simulation the way the Gatling Maven plugin does: a forked JVM running Gatling's {@code
 * main}, so exit codes and shutdown hooks behave as for users.
 */
public final class GatlingProcess {
  private GatlingProcess() {}

  public record Outcome(int exitCode, String stdout, String stderr, long millis) {}

  public static Outcome run(
      Class<?> simulation, Path results, int timeoutSeconds, String... properties)
      throws IOException, InterruptedException {
    return run(simulation, results, timeoutSeconds, Map.of(), properties);
  }

  /** As {@link #run(Class, Path, int, String...)}, with extra environment variables. */
  public static Outcome run(
      Class<?> simulation,
      Path results,
      int timeoutSeconds,
      Map<String, String> env,
      String... properties)
      throws IOException, InterruptedException {
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
    cmd.add(simulation.getName());
    cmd.add("--results-folder");
    cmd.add(results.toString());
    Path out = Files.createTempFile("gatling-out", ".txt");
    Path err = Files.createTempFile("gatling-err", ".txt");
    long start = System.nanoTime();
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly().waitFor();
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    Outcome o =
        new Outcome(
            done ? p.exitValue() : -1,
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8),
            ms);
    Files.deleteIfExists(out);
    Files.deleteIfExists(err);
    assertTrue(
        done, "Gatling did not stop within " + timeoutSeconds + " s:\n" + o.stdout() + o.stderr());
    return o;
  }
}
