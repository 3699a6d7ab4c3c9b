package io.github.llmbench.sweep;

import io.github.llmbench.records.RunFiles;
import io.github.llmbench.settings.SettingsTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One run of a sweep's load: the simulation in a Gatling JVM of its own, as the Maven plugin forks
 * one (this JVM's Java, options and class path; the kit's settings replaced by the combination's),
 * its console on this one's, its results in the sweep's folder. Stopped with the kit ({@link
 * ChildProcess}); its records are written as its requests end, so a stopped run keeps them.
 */
public final class GatlingChild implements SweepRun.Runs {

  /** How long a stopped run may take to write its files after SIGTERM, before SIGKILL. */
  private static final Duration GRACE = Duration.ofSeconds(20);

  private final String simulation;

  public GatlingChild(Class<?> simulation) {
    this.simulation = simulation.getName();
  }

  @Override
  public SweepRun.RunResult run(Map<String, String> properties, Path folder) {
    Set<Path> before = runFolders(folder);
    ProcessBuilder pb = new ProcessBuilder(command(properties, folder)).inheritIO();
    int code = ChildProcess.start(pb, folder.resolve("runs.log"), GRACE).waitFor();
    List<Path> made = runFolders(folder).stream().filter(p -> !before.contains(p)).toList();
    return new SweepRun.RunResult(
        code, made.size() == 1 ? Optional.of(made.get(0)) : Optional.empty());
  }

  private List<String> command(Map<String, String> properties, Path folder) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!isKitSetting(a) && !a.startsWith("-agentlib:jdwp")) {
        cmd.add(a);
      }
    }
    properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.gatling.app.Gatling");
    cmd.add("--simulation");
    cmd.add(simulation);
    cmd.add("--results-folder");
    cmd.add(folder.toString());
    return cmd;
  }

  /** Whether a JVM option sets one of the kit's settings (the combination's run gets its own). */
  private static boolean isKitSetting(String option) {
    if (!option.startsWith("-D")) {
      return false;
    }
    int eq = option.indexOf('=');
    String name = option.substring(2, eq < 0 ? option.length() : eq);
    return SettingsTable.get(name).isPresent();
  }

  /** The run folders (those with the kit's {@code llm/}) in {@code folder}. */
  private static Set<Path> runFolders(Path folder) {
    try (Stream<Path> s = Files.list(folder)) {
      return Set.copyOf(s.filter(p -> Files.isDirectory(p.resolve(RunFiles.LLM_FOLDER))).toList());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + folder + ": " + e.getMessage(), e);
    }
  }
}
