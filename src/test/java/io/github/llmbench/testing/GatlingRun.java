package io.github.llmbench.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs a real Gatling simulation in this JVM, as {@code mvn gatling:test} does in its fork, with
 * {@code -D} settings passed as system properties. Gatling stops logback when it ends, so each
 * test class that uses this runs in its own JVM (Surefire's {@code reuseForks=false}).
 */
public final class GatlingRun {
  private GatlingRun() {}

  /** The finished run's folder ({@code <results>/<simulation>-<timestamp>}) and Gatling's exit code. */
  public record Result(int exitCode, Path runDir) {
    public Path llm(String file) {
      return runDir.resolve("llm").resolve(file);
    }
  }

  public static Result run(Class<?> simulation, Path results, Map<String, String> properties) {
    properties.forEach(System::setProperty);
    System.setProperty("gatling.resultsFolder", results.toString());
    // this JVM is the test runner's: a broken gate must not end it (tests read the results instead)
    System.setProperty("llmbench.exit.on.gates", "false");
    try {
      // Gatling.fromArgs is private[gatling] in Scala, public in bytecode; main() would System.exit.
      Class<?> module = Class.forName("io.gatling.app.Gatling$");
      Object gatling = module.getField("MODULE$").get(null);
      Method fromArgs = module.getDeclaredMethod("fromArgs", String[].class);
      String[] args = {
        "--simulation", simulation.getName(), "--results-folder", results.toString(), "--launcher", "maven"
      };
      int code = (int) fromArgs.invoke(gatling, (Object) args);
      io.github.llmbench.AfterReport.runNow(); // what the shutdown hook does after Gatling's report
      return new Result(code, newestRun(results));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot start Gatling in-process", e);
    } finally {
      properties.keySet().forEach(System::clearProperty);
    }
  }

  private static Path newestRun(Path results) {
    try (Stream<Path> dirs = Files.list(results)) {
      List<Path> runs = dirs.filter(Files::isDirectory).sorted(Comparator.comparing(Path::toString)).toList();
      return runs.isEmpty() ? null : runs.get(runs.size() - 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
