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

  /**
   * @param millis how long it ran, for the benchmarks' figures (a test asserts on what it said)
   */
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
    return start(simulation, results, env, properties).await(timeoutSeconds);
  }

  /**
   * Starts the run without waiting for it: its console can be read as it goes ({@link
   * Running#stdout()}), so a test can wait for what the run said rather than for a time.
   */
  public static Running start(
      Class<?> simulation, Path results, Map<String, String> env, String... properties)
      throws IOException {
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
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().putAll(env);
    return new Running(pb.start(), out, err, System.nanoTime());
  }

  /** A run going on in its own JVM. */
  public static final class Running {
    private final Process process;
    private final Path out;
    private final Path err;
    private final long startNanos;

    private Running(Process process, Path out, Path err, long startNanos) {
      this.process = process;
      this.out = out;
      this.err = err;
      this.startNanos = startNanos;
    }

    /** What it printed on its console so far. */
    public String stdout() throws IOException {
      return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Ends it at once (a test that has seen enough), its files left as they are. */
    public void kill() throws IOException, InterruptedException {
      process.destroyForcibly().waitFor();
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }

    /** Waits for it to end (killed after {@code timeoutSeconds}, failing the test). */
    public Outcome await(int timeoutSeconds) throws IOException, InterruptedException {
      boolean done = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
      if (!done) {
        process.destroyForcibly().waitFor();
      }
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
      Outcome o =
          new Outcome(
              done ? process.exitValue() : -1,
              Files.readString(out, StandardCharsets.UTF_8),
              Files.readString(err, StandardCharsets.UTF_8),
              ms);
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      assertTrue(
          done,
          "Gatling did not stop within " + timeoutSeconds + " s:\n" + o.stdout() + o.stderr());
      return o;
    }
  }
}
