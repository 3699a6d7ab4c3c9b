package io.github.llmbench.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A process the kit starts and stops, its children with it: a sweep's server (its program and
 * arguments, {@link ServeCommand}, its output in a log file of its own, waited for until ready) or
 * a sweep's run of the load (a Gatling JVM). Stopped with SIGTERM and, after a grace period,
 * SIGKILL. None outlives the kit: a JVM shutdown hook stops every one still running when the kit
 * ends (a normal end, a failed gate, an exception, Ctrl-C or SIGTERM; a SIGKILL of the kit runs no
 * hook).
 */
public final class ChildProcess implements AutoCloseable {

  /** The servers started and not yet stopped, for the shutdown hook. */
  private static final Set<ChildProcess> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> List.copyOf(RUNNING).forEach(ChildProcess::stop), "llm-server-stopper"));
  }

  private final Process process;
  private final Path log;
  private final Duration grace;

  private ChildProcess(Process process, Path log, Duration grace) {
    this.process = process;
    this.log = log;
    this.grace = grace;
  }

  /**
   * Starts {@code command}, a program and its arguments (no shell reads them), its output and
   * errors appended to {@code log}.
   *
   * @param grace how long a stopped server may take to end after SIGTERM before SIGKILL
   * @throws UncheckedIOException when the command cannot be started
   */
  public static ChildProcess start(List<String> command, Path log, Duration grace) {
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + log.getParent() + ": " + e.getMessage(), e);
    }
    return start(
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())),
        log,
        grace);
  }

  /**
   * Starts {@code builder}'s process.
   *
   * @param log where its output goes, for {@link #lastLines}
   * @throws UncheckedIOException when it cannot be started
   */
  public static ChildProcess start(ProcessBuilder builder, Path log, Duration grace) {
    try {
      ChildProcess s = new ChildProcess(builder.start(), log, grace);
      RUNNING.add(s);
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start " + builder.command().get(0) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Waits for it to end by itself.
   *
   * @return its exit code
   */
  public int waitFor() {
    try {
      int code = process.waitFor();
      RUNNING.remove(this);
      return code;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      throw new IllegalStateException("interrupted while waiting for " + process.pid(), e);
    }
  }

  /** Its exit code, once it has ended by itself or been stopped. */
  public Optional<Integer> exitCode() {
    return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
  }

  /** A command with {@code {port}} replaced by {@code port}. */
  public static String withPort(String command, int port) {
    return command.replace("{port}", Integer.toString(port));
  }

  public long pid() {
    return process.pid();
  }

  public boolean alive() {
    return process.isAlive();
  }

  /**
   * Waits until {@code ready} says so, asking every {@code poll}.
   *
   * @throws IllegalStateException when the server exits first (its exit code and the end of its
   *     log) or is not ready within {@code timeout} (the end of its log)
   */
  public void awaitReady(BooleanSupplier ready, Duration timeout, Duration poll) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the server exited with code "
                + process.exitValue()
                + " before it was ready; its log ("
                + log
                + ") ends: "
                + String.join(" | ", lastLines(5)));
      }
      if (ready.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() >= deadline) {
        throw new IllegalStateException(
            "the server was not ready within "
                + timeout.toSeconds()
                + " s; its log ("
                + log
                + ") ends: "
                + String.join(" | ", lastLines(5)));
      }
      try {
        process.waitFor(poll.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the server", e);
      }
    }
  }

  /** The last {@code n} lines of its log (fewer when it has fewer). */
  public List<String> lastLines(int n) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return new ArrayList<>(lines.subList(Math.max(0, lines.size() - n), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return List.of("(its log cannot be read: " + e.getMessage() + ")");
    }
  }

  /**
   * Stops it and its children: SIGTERM, then SIGKILL for what is left after the grace period.
   *
   * @return its exit code
   */
  public synchronized Optional<Integer> stop() {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(process.toHandle());
    tree.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + grace.toNanos();
    for (ProcessHandle h : tree) {
      long left = deadline - System.nanoTime();
      try {
        h.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
    RUNNING.remove(this);
    try {
      return process.waitFor(grace.toMillis() + 1000, TimeUnit.MILLISECONDS)
          ? Optional.of(process.exitValue())
          : Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    stop();
  }
}
