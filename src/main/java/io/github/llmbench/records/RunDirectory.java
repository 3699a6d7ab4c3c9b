package io.github.llmbench.records;

import io.gatling.shared.cli.CliOption;
import io.gatling.shared.cli.GatlingCliOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Finds this run's Gatling results folder ({@code <results>/<simulation>-<timestamp>/}), where the
 * kit writes its own files under {@code llm/}.
 *
 * <p>Gatling names the folder only once the run has started and does not tell a simulation, so the
 * kit asks the operating system instead of guessing: Gatling's log writer, in this JVM, holds
 * {@code <folder>/simulation.log} open from before the first user starts until just before the
 * simulation's {@code after} hook, and on Linux {@code /proc/self/fd} lists exactly this process's
 * open files. Several runs sharing one results folder each find their own (guessing the newest
 * folder sent two runs started a second apart into one folder, and lost the first one's records).
 * It is looked up while the run goes on, at its first request ({@link RunRecorder}).
 *
 * <p>The {@code llm/} folder is created with an atomic create, which fails when it exists, so a
 * folder is never written by two runs. Where this process's {@code simulation.log} cannot be told
 * (no {@code /proc}: macOS, Windows), the only folder of the results directory that is new since
 * the simulation was created and has no {@code llm/} yet is claimed; when there is none or several,
 * or on Linux when nothing was found, the kit writes to a folder of its own, {@code
 * <results>/llm-<simulation>-<timestamp>-<pid>/llm}, and says so on the console.
 *
 * <p>The results directory is the value of Gatling's {@code --results-folder} (or {@code -rf}, as
 * the Maven plugin passes it) in the first of these that has one: the process's exact arguments
 * from {@code /proc/self/cmdline} (Linux), HotSpot's {@code sun.java.command}, the JDK's view of
 * the process's arguments; else {@code -Dgatling.resultsFolder}, else {@code target/gatling}. A
 * path with spaces is found exactly on Linux, and from {@code sun.java.command} too unless a part
 * after a space starts with {@code -}.
 */
public final class RunDirectory {

  /** The name of Gatling's log in its run folder (LogFileDataWriter.LogFileName). */
  public static final String SIMULATION_LOG = "simulation.log";

  /** The name of a stream's own record in Gatling's stats and report. */
  public static final String REQUEST_RECORD = "request";

  private static final Path PROC_CMDLINE = Paths.get("/proc/self/cmdline");
  private static final Path PROC_FD = Paths.get("/proc/self/fd");

  /**
   * How long the open files are looked through for the log. Gatling 3.15 opens it before any user
   * starts, so the first look finds it; the wait covers a version that opens it a little later.
   */
  private static final Duration LOOKUP_PATIENCE = Duration.ofSeconds(1);

  private static final Duration LOOKUP_INTERVAL = Duration.ofMillis(20);

  /** Run folders' timestamps, as Gatling names its own. */
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private RunDirectory() {}

  /**
   * This run's {@code llm/} folder, created (and so claimed). Called once, during the run: Gatling
   * closes {@code simulation.log} before the {@code after} hook, and then it can no longer be
   * found.
   *
   * @param simulationCreatedMs when the simulation was created: folders older than that are not
   *     this run's
   * @param console where a line says where the files go when the run's own folder was not found
   */
  public static Path llmFolder(long simulationCreatedMs, PrintStream console) {
    List<List<String>> commandLines = commandLines();
    return llmFolder(
        resultsFolder(commandLines, System::getProperty),
        simulationId(commandLines),
        simulationCreatedMs,
        PROC_FD,
        LOOKUP_PATIENCE,
        console);
  }

  /** This JVM's Gatling results directory ({@link #resultsFolder(List, Function)}). */
  public static Path resultsFolder() {
    return resultsFolder(commandLines(), System::getProperty);
  }

  /**
   * As {@link #llmFolder(long, PrintStream)}, with the results folder and the place of the open
   * files given.
   */
  static Path llmFolder(
      Path results,
      String simulationId,
      long simulationCreatedMs,
      Path openFilesFolder,
      Duration patience,
      PrintStream console) {
    String why;
    if (Files.isDirectory(openFilesFolder)) {
      Optional<Path> run =
          lookForOpenLog(openFilesFolder, results, patience)
              .map(log -> namedIn(results, log.getParent()));
      if (run.isPresent()) {
        Optional<Path> llm = claim(run.get());
        if (llm.isPresent()) {
          return llm.get();
        }
        why =
            "its Gatling folder "
                + run.get()
                + " already has an "
                + RunFiles.LLM_FOLDER
                + "/ folder of another run";
      } else {
        why = "no " + SIMULATION_LOG + " among this process's open files (" + openFilesFolder + ")";
      }
    } else {
      Optional<Path> single = singleUnclaimedRun(results, simulationCreatedMs);
      Optional<Path> llm = single.flatMap(RunDirectory::claim);
      if (llm.isPresent()) {
        console.println(
            "gatling-llm-bench: this run's Gatling folder is taken to be the only new one in "
                + results
                + " ("
                + openFilesFolder
                + " is not there to tell): the kit's files go to "
                + llm.get());
        return llm.get();
      }
      why =
          openFilesFolder
              + " is not there to tell, and "
              + results
              + " has "
              + (single.isPresent()
                  ? "its only new run folder claimed by another run"
                  : "no single new run folder");
    }
    Path own =
        ownLlmFolder(results, simulationId, simulationCreatedMs, ProcessHandle.current().pid());
    console.println(
        "gatling-llm-bench: this run's Gatling folder is unknown ("
            + why
            + "): the kit's files go to a folder of their own, "
            + own);
    return own;
  }

  /**
   * This process's {@code simulation.log} among its open files, looked for until {@code patience}
   * has passed.
   */
  private static Optional<Path> lookForOpenLog(
      Path openFilesFolder, Path results, Duration patience) {
    Optional<Path> resultsReal = realPath(results);
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      Optional<Path> log = ownSimulationLog(openFiles(openFilesFolder), resultsReal);
      if (log.isPresent() || System.nanoTime() >= deadline) {
        return log;
      }
      try {
        Thread.sleep(LOOKUP_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
  }

  /** The targets of the links in {@code /proc/self/fd}: one per open file (or socket, pipe...). */
  static List<Path> openFiles(Path openFilesFolder) {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(openFilesFolder)) {
      for (Path fd : fds) {
        try {
          out.add(Files.readSymbolicLink(fd));
        } catch (IOException | UnsupportedOperationException e) {
          // closed since it was listed, or not a link: not the log
        }
      }
    } catch (IOException e) {
      // unreadable: nothing is found, and the caller says so
    }
    return out;
  }

  /**
   * Gatling's log among a process's open files: a file named {@code simulation.log} in a folder of
   * the results directory; if none is there, the only one elsewhere (the results directory may have
   * been read wrong). Empty when there is none, or several to choose from. A deleted file's link
   * reads {@code "... (deleted)"} and is not taken.
   */
  static Optional<Path> ownSimulationLog(Collection<Path> openFiles, Optional<Path> resultsReal) {
    List<Path> logs =
        openFiles.stream()
            .filter(
                p ->
                    p.isAbsolute()
                        && p.getFileName() != null
                        && p.getFileName().toString().equals(SIMULATION_LOG))
            .filter(p -> p.getParent().getParent() != null)
            .distinct()
            .toList();
    List<Path> inResults =
        resultsReal
            .map(r -> logs.stream().filter(p -> p.getParent().getParent().equals(r)).toList())
            .orElse(List.of());
    if (inResults.size() == 1) {
      return Optional.of(inResults.get(0));
    }
    return inResults.isEmpty() && logs.size() == 1 ? Optional.of(logs.get(0)) : Optional.empty();
  }

  /**
   * The run folder as the results directory names it ({@code target/gatling/sim-...} rather than
   * the resolved path the open file's link gives), so the console shows the path the user gave.
   */
  private static Path namedIn(Path results, Path runFolderReal) {
    return realPath(results)
        .filter(r -> r.equals(runFolderReal.getParent()))
        .map(r -> results.resolve(runFolderReal.getFileName().toString()))
        .orElse(runFolderReal);
  }

  private static Optional<Path> realPath(Path p) {
    try {
      return Optional.of(p.toRealPath());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Creates {@code <runFolder>/llm}. The create is atomic and fails when the folder exists, so of
   * runs that try the same folder one gets it.
   *
   * @return the new {@code llm/} folder, or empty when it existed (another run's)
   */
  static Optional<Path> claim(Path runFolder) {
    Path llm = runFolder.resolve(RunFiles.LLM_FOLDER);
    try {
      return Optional.of(Files.createDirectory(llm));
    } catch (FileAlreadyExistsException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + llm + ": " + e.getMessage(), e);
    }
  }

  /**
   * The only run folder of {@code results} that this run may have made: with a {@code
   * simulation.log} written since the simulation was created (a second's leeway for file systems
   * that keep whole seconds) and no {@code llm/} folder yet. Empty when there is none or several.
   */
  static Optional<Path> singleUnclaimedRun(Path results, long notBeforeMs) {
    if (!Files.isDirectory(results)) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.list(results)) {
      List<Path> unclaimed =
          dirs.filter(d -> Files.isRegularFile(d.resolve(SIMULATION_LOG)))
              .filter(d -> modified(d.resolve(SIMULATION_LOG)) >= notBeforeMs - 1_000)
              .filter(d -> !Files.exists(d.resolve(RunFiles.LLM_FOLDER)))
              .toList();
      return unclaimed.size() == 1 ? Optional.of(unclaimed.get(0)) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + results, e);
    }
  }

  /**
   * A new folder of this run's own, {@code <results>/llm-<simulation>-<timestamp>-<pid>/llm}; a
   * suffix {@code -2}, {@code -3}... when that name is taken (the same process, in the same
   * millisecond).
   */
  static Path ownLlmFolder(Path results, String simulationId, long startMs, long pid) {
    String stamp = TIMESTAMP.format(Instant.ofEpochMilli(startMs).atZone(ZoneId.systemDefault()));
    String base = "llm-" + (simulationId.isEmpty() ? "" : simulationId + "-") + stamp + "-" + pid;
    try {
      Files.createDirectories(results);
      for (int n = 1; ; n++) {
        Path folder = results.resolve(n == 1 ? base : base + "-" + n);
        try {
          Files.createDirectory(folder);
          return Files.createDirectory(folder.resolve(RunFiles.LLM_FOLDER));
        } catch (FileAlreadyExistsException e) {
          // taken: the next suffix
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a folder for the run's files in " + results + ": " + e.getMessage(), e);
    }
  }

  /**
   * Gatling's id of the simulation (the class's simple name, lower case, other characters as {@code
   * -}), from {@code --simulation} / {@code -s}; empty when the command line has none.
   */
  static String simulationId(List<List<String>> commandLines) {
    return optionValue(commandLines, GatlingCliOptions.Simulation)
        .map(
            name ->
                name.substring(name.lastIndexOf('.') + 1)
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z0-9-]", "-"))
        .orElse("");
  }

  /**
   * The process's arguments as each source sees them, the most exact first: {@code
   * /proc/self/cmdline} (absent off Linux), {@code sun.java.command} (absent off HotSpot), the
   * JDK's process info (which on Linux reads at most 4 KB of the command line, so a long class path
   * hides Gatling's arguments). Each is tried in turn, because a source can lack the option the
   * next one has: a JVM started with an {@code @argfile} shows only the file's name in {@code
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
      return Charset.forName(
          System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }

  /**
   * The arguments in the bytes of {@code /proc/<pid>/cmdline}: each ends with a NUL, so an argument
   * keeps its spaces, and an empty one is kept as {@code ""}.
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
   * The arguments in HotSpot's {@code sun.java.command} (the main class and its arguments joined by
   * single spaces, so where one argument ends is lost): split on spaces, except that the value of
   * {@code --results-folder} / {@code -rf} runs up to the next part that starts with {@code -}, so
   * a results folder with spaces comes back whole.
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
    Optional<String> given = optionValue(commandLines, GatlingCliOptions.ResultsFolder);
    if (given.isPresent()) {
      return Paths.get(given.get());
    }
    String property = properties.apply("gatling.resultsFolder");
    return Paths.get(property != null && !property.isBlank() ? property : "target/gatling");
  }

  /** The value after {@code option} (long or short) in the first argument list that has one. */
  private static Optional<String> optionValue(List<List<String>> commandLines, CliOption option) {
    for (List<String> args : commandLines) {
      for (int i = 0; i + 1 < args.size(); i++) {
        boolean named =
            args.get(i).equals(option.longOption()) || args.get(i).equals(option.shortOption());
        if (named && !args.get(i + 1).isBlank()) {
          return Optional.of(args.get(i + 1));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isResultsFolderOption(String arg) {
    return arg.equals(GatlingCliOptions.ResultsFolder.longOption())
        || arg.equals(GatlingCliOptions.ResultsFolder.shortOption());
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return Long.MIN_VALUE;
    }
  }
}
