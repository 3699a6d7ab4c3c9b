package io.github.llmbench.records;

import io.gatling.shared.cli.GatlingCliOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
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
 * simulation.log} was created after the simulation was instantiated. The results directory is the
 * value of Gatling's {@code --results-folder} (or {@code -rf}, as the Maven plugin passes it) in the
 * first of these that has one: the process's exact arguments from {@code /proc/self/cmdline}
 * (Linux), HotSpot's {@code sun.java.command}, the JDK's view of the process's arguments; else
 * {@code -Dgatling.resultsFolder}, else {@code target/gatling}. A path with spaces is found
 * exactly on Linux, and from {@code sun.java.command} too unless a part after a space starts with
 * {@code -}.
 */
public final class RunDirectory {
  public static final String LLM_FOLDER = "llm";

  private static final Path PROC_CMDLINE = Paths.get("/proc/self/cmdline");

  private RunDirectory() {}

  /** This run's {@code llm/} folder; falls back to {@code <results>/llm-<start>} when none fits. */
  public static Path llmFolder(long simulationStartMs) {
    Path results = resultsFolder(commandLines(), System::getProperty);
    return newestRun(results, simulationStartMs)
        .orElse(results.resolve("llm-" + simulationStartMs))
        .resolve(LLM_FOLDER);
  }

  /**
   * The process's arguments as each source sees them, the most exact first: {@code
   * /proc/self/cmdline} (absent off Linux), {@code sun.java.command} (absent off HotSpot), the
   * JDK's process info (which on Linux reads at most 4 KB of the command line, so a long class
   * path hides Gatling's arguments). Each is tried in turn, because a source can lack the option
   * the next one has: a JVM started with an {@code @argfile} shows only the file's name in {@code
   * /proc/self/cmdline}, while {@code sun.java.command} holds the expanded arguments.
   */
  static List<List<String>> commandLines() {
    List<List<String>> out = new ArrayList<>();
    try {
      if (Files.isReadable(PROC_CMDLINE)) {
        out.add(cmdlineArguments(Files.readAllBytes(PROC_CMDLINE), commandLineCharset()));
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or /proc not mounted: the other sources remain
    }
    String command = System.getProperty("sun.java.command");
    if (command != null && !command.isBlank()) {
      out.add(javaCommandArguments(command));
    }
    ProcessHandle.current().info().arguments().map(List::of).ifPresent(out::add);
    return out;
  }

  /** The charset the JVM decodes its own command line with (it names files in that too). */
  private static Charset commandLineCharset() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }

  /**
   * The arguments in the bytes of {@code /proc/<pid>/cmdline}: each ends with a NUL, so an
   * argument keeps its spaces, and an empty one is kept as {@code ""}.
   */
  static List<String> cmdlineArguments(byte[] cmdline, Charset charset) {
    List<String> out = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        out.add(new String(cmdline, from, i - from, charset));
        from = i + 1;
      }
    }
    if (from < cmdline.length) { // a last argument without its NUL (a truncated read)
      out.add(new String(cmdline, from, cmdline.length - from, charset));
    }
    return out;
  }

  /**
   * The arguments in HotSpot's {@code sun.java.command} (the main class and its arguments joined
   * by single spaces, so where one argument ends is lost): split on spaces, except that the value
   * of {@code --results-folder} / {@code -rf} runs up to the next part that starts with {@code -},
   * so a results folder with spaces comes back whole.
   */
  static List<String> javaCommandArguments(String sunJavaCommand) {
    String[] parts = sunJavaCommand.strip().split(" ", -1);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        continue;
      }
      out.add(parts[i]);
      if (isResultsFolderOption(parts[i]) && i + 1 < parts.length) {
        int end = i + 1;
        while (end + 1 < parts.length && !parts[end + 1].startsWith("-")) {
          end++;
        }
        out.add(String.join(" ", Arrays.asList(parts).subList(i + 1, end + 1)));
        i = end;
      }
    }
    return out;
  }

  /**
   * The results directory: the value of {@code --results-folder} / {@code -rf} in the first
   * argument list that has one, else the {@code gatling.resultsFolder} property, else {@code
   * target/gatling}.
   */
  static Path resultsFolder(List<List<String>> commandLines, Function<String, String> properties) {
    for (List<String> args : commandLines) {
      for (int i = 0; i + 1 < args.size(); i++) {
        if (isResultsFolderOption(args.get(i)) && !args.get(i + 1).isBlank()) {
          return Paths.get(args.get(i + 1));
        }
      }
    }
    String property = properties.apply("gatling.resultsFolder");
    return Paths.get(property != null && !property.isBlank() ? property : "target/gatling");
  }

  private static boolean isResultsFolderOption(String arg) {
    return arg.equals(GatlingCliOptions.ResultsFolder.longOption())
        || arg.equals(GatlingCliOptions.ResultsFolder.shortOption());
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
