package io.github.llmbench.records;

import io.gatling.shared.cli.GatlingCliOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Finds this run's Gatling results folder ({@code target/gatling/<simulation>-<timestamp>/}), where
 * the kit writes its own files under {@code llm/}.
 *
 * <p>Gatling names the folder only once the run has started and does not expose it to a
 * simulation, so it is found on disk: the newest folder of the results directory whose {@code
 * simulation.log} was created after the simulation was instantiated. The results directory comes
 * from Gatling's command line ({@code --results-folder}, as the Maven plugin passes it; a path
 * with spaces is not supported there), else from
 * {@code -Dgatling.resultsFolder}, else {@code target/gatling}.
 */
public final class RunDirectory {
  public static final String LLM_FOLDER = "llm";

  private RunDirectory() {}

  /** This run's {@code llm/} folder; falls back to {@code <results>/llm-<start>} when none fits. */
  public static Path llmFolder(long simulationStartMs) {
    Path results = resultsFolder(commandLine(), System::getProperty);
    return newestRun(results, simulationStartMs)
        .orElse(results.resolve("llm-" + simulationStartMs))
        .resolve(LLM_FOLDER);
  }

  /**
   * Gatling's arguments: HotSpot's {@code sun.java.command} (main class and arguments, split on
   * spaces), else the process's arguments (which the JDK cannot read past a 4 KB command line).
   */
  static List<String> commandLine() {
    String command = System.getProperty("sun.java.command");
    if (command != null && !command.isBlank()) {
      return List.of(command.trim().split(" +"));
    }
    return ProcessHandle.current().info().arguments().map(List::of).orElse(List.of());
  }

  static Path resultsFolder(List<String> commandLine, Function<String, String> properties) {
    String longOpt = GatlingCliOptions.ResultsFolder.longOption();
    String shortOpt = GatlingCliOptions.ResultsFolder.shortOption();
    for (int i = 0; i + 1 < commandLine.size(); i++) {
      String arg = commandLine.get(i);
      if (arg.equals(longOpt) || arg.equals(shortOpt)) {
        return Paths.get(commandLine.get(i + 1));
      }
    }
    String property = properties.apply("gatling.resultsFolder");
    return Paths.get(property != null && !property.isBlank() ? property : "target/gatling");
  }

  static Optional<Path> newestRun(Path results, long notBeforeMs) {
    if (!Files.isDirectory(results)) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.list(results)) {
      return dirs.filter(d -> Files.isRegularFile(d.resolve("simulation.log")))
          .filter(d -> modified(d.resolve("simulation.log")) >= notBeforeMs - 1_000)
          .max(Comparator.comparingLong(d -> modified(d.resolve("simulation.log"))));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + results, e);
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return Long.MIN_VALUE;
    }
  }
}
