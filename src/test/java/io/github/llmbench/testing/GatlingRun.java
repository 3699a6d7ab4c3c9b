package io.github.llmbench.testing;

import io.github.llmbench.run.AfterReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs a real Gatling simulation in this JVM, as {@code mvn gatling:test} does in its fork, with
 * {@code -D} settings passed as system properties. Gatling stops logback when it ends, so each test
 * class that uses this runs in its own JVM (Failsafe's {@code reuseForks=false}).
 */
public final class GatlingRun {
  private GatlingRun() {}

  /**
   * The finished run's folder ({@code <results>/<simulation>-<timestamp>}) and Gatling's exit code.
   */
  public record Result(int exitCode, Path runDir, String console) {
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
      // Gatling.fromArgs is private[gatling] in Scala, public in bytecode; main() would
      // System.exit.
      Class<?> module = Class.forName("io.gatling.app.Gatling$");
      Object gatling = module.getField("MODULE$").get(null);
      Method fromArgs = module.getDeclaredMethod("fromArgs", String[].class);
      String[] args = {
        "--simulation",
        simulation.getName(),
        "--results-folder",
        results.toString(),
        "--launcher",
        "maven"
      };
      PrintStream original = System.out;
      ByteArrayOutputStream copy = new ByteArrayOutputStream();
      System.setOut(new PrintStream(new TeeStream(original, copy), true, StandardCharsets.UTF_8));
      int code;
      try {
        code = (int) fromArgs.invoke(gatling, (Object) args);
        AfterReport.runNow(); // what the shutdown hook does after Gatling's report
      } finally {
        System.out.flush();
        System.setOut(original);
      }
      return new Result(code, newestRun(results), copy.toString(StandardCharsets.UTF_8));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot start Gatling in-process", e);
    } finally {
      properties.keySet().forEach(System::clearProperty);
    }
  }

  /** Writes to the console and keeps a copy, so tests can read what a run printed. */
  private static final class TeeStream extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    TeeStream(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }

  private static Path newestRun(Path results) {
    try (Stream<Path> dirs = Files.list(results)) {
      List<Path> runs =
          dirs.filter(Files::isDirectory).sorted(Comparator.comparing(Path::toString)).toList();
      return runs.isEmpty() ? null : runs.get(runs.size() - 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
